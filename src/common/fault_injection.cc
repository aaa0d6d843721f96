// aclcpu: each library's end of the fault-injection switch (see fault_injection.h).
#include "common/fault_injection.h"

#include <cstring>

#include "common/error_report.h"

namespace aclcpu {
namespace {

// Indexed by FaultSite.
constexpr const char* kSiteNames[] = {
    "DeviceAllocate",
    "DeviceBookkeeping",
    "HostAllocate",
    "HostBookkeeping",
    "TensorCreate",
    "ArrayCreate",
    "ExecutorCreate",
    "LaunchCreate",
    "ContextCreate",
    "StreamCreate",
    "StreamQueuePush",
    "StreamWorkerStart",
    "EventCreate",
    "EventTask",
    "ErrorStore",
    "ThreadPoolStart",
    "DataBufferCreate",
};
static_assert(sizeof kSiteNames / sizeof kSiteNames[0] == static_cast<size_t>(FaultSite::kCount),
              "one name per fault site");

const std::atomic<uint32_t> kNeverArmed{0};

// Resolves the runtime's flag when the library is loaded. libascendcl.so is
// initialised before the libraries that depend on it, and its table is a
// constant, so this is safe during static initialisation. A table from another
// build is left for Runtime() to refuse loudly at the first real call.
struct ArmedFlagResolver {
  ArmedFlagResolver() {
    const RuntimeServices* services = aclcpuRuntimeServices(kRuntimeServicesAbi);
    if (services != nullptr && services->fault_armed != nullptr) fault_detail::armed_flag = services->fault_armed;
  }
};
const ArmedFlagResolver kResolver;

}  // namespace

namespace fault_detail {
const std::atomic<uint32_t>* armed_flag = &kNeverArmed;

bool SlowPathFires(FaultSite site) { return Runtime().fault_fires(static_cast<int32_t>(site)) != 0; }
}  // namespace fault_detail

const char* FaultSiteName(FaultSite site) {
  const auto index = static_cast<size_t>(site);
  return index < static_cast<size_t>(FaultSite::kCount) ? kSiteNames[index] : nullptr;
}

bool FaultSiteFromName(const char* name, FaultSite* site) {
  if (name == nullptr) return false;
  for (size_t i = 0; i < static_cast<size_t>(FaultSite::kCount); ++i) {
    if (std::strcmp(name, kSiteNames[i]) == 0) {
      *site = static_cast<FaultSite>(i);
      return true;
    }
  }
  return false;
}

}  // namespace aclcpu
