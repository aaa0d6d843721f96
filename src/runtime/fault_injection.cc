// aclcpu runtime: the fault-injection switch — which site is armed, how many
// passes through it remain, and whether it fired.
//
// Armed by ACLCPU_FAULT_INJECT=<site>:<n> (read once, when libascendcl.so is
// loaded) or by aclcpuSetFaultInjection. A fault fires once, on the nth pass
// through its site counted over every thread, and then disarms itself, so that
// the call after the failing one runs normally.
#include "runtime/fault_injection.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "common/env.h"
#include "common/fault_injection.h"
#include "common/static_storage.h"
#include "runtime/error_store.h"

namespace aclcpu {

std::atomic<uint32_t> g_fault_armed{0};

namespace {

// Taken only while a fault is armed (the flag above keeps disarmed sites away).
// A leaf lock: nothing is called while it is held.
std::mutex& FaultMutex() {
  return ProcessObject<std::mutex>();  // never destroyed: sites run at exit
}
int32_t armed_site = -1;
int64_t passes_left = 0;
int64_t fired = 0;

void Arm(int32_t site, int64_t nth) {
  std::lock_guard<std::mutex> lock(FaultMutex());
  armed_site = site;
  passes_left = nth;
  fired = 0;
  g_fault_armed.store(nth > 0 ? 1 : 0, std::memory_order_relaxed);
}

// ACLCPU_FAULT_INJECT=<site>:<n>; a malformed value is reported and ignored.
struct EnvironmentArming {
  EnvironmentArming() {
    const char* value = GetEnv("ACLCPU_FAULT_INJECT");
    if (value == nullptr) return;
    const char* colon = std::strchr(value, ':');
    FaultSite site{};
    char* end = nullptr;
    errno = 0;
    const long long nth = colon != nullptr ? std::strtoll(colon + 1, &end, 10) : 0;
    if (colon == nullptr || !FaultSiteFromName(std::string(value, colon).c_str(), &site) || end == colon + 1 ||
        *end != '\0' || errno != 0 || nth < 1) {
      std::fprintf(stderr, "aclcpu: ACLCPU_FAULT_INJECT=\"%s\" is not <site>:<n> with a known site and n >= 1; "
                   "no fault is injected\n", value);
      return;
    }
    Arm(static_cast<int32_t>(site), nth);
  }
};
const EnvironmentArming kEnvironmentArming;

}  // namespace

int FaultFires(int32_t site) {
  std::lock_guard<std::mutex> lock(FaultMutex());
  if (g_fault_armed.load(std::memory_order_relaxed) == 0 || site != armed_site) return 0;
  if (--passes_left > 0) return 0;
  g_fault_armed.store(0, std::memory_order_relaxed);
  ++fired;
  return 1;
}

}  // namespace aclcpu

extern "C" {

aclError aclcpuSetFaultInjection(const char* site, int64_t nth) {
  if (site == nullptr || nth == 0) {
    aclcpu::Arm(-1, 0);
    return ACL_SUCCESS;
  }
  aclcpu::FaultSite parsed{};
  if (!aclcpu::FaultSiteFromName(site, &parsed)) {
    return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclcpuSetFaultInjection: site \"%s\" is not a fault site", site);
  }
  if (nth < 0) {
    return aclcpu::FailWith(ACL_ERROR_INVALID_PARAM, "aclcpuSetFaultInjection: nth (%lld) must be >= 1 (0 disarms)",
                            static_cast<long long>(nth));
  }
  aclcpu::Arm(static_cast<int32_t>(parsed), nth);
  return ACL_SUCCESS;
}

int64_t aclcpuFaultInjectionFired(void) {
  std::lock_guard<std::mutex> lock(aclcpu::FaultMutex());
  return aclcpu::fired;
}

}  // extern "C"
