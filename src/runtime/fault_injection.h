// aclcpu runtime: the process's fault-injection switch (common/fault_injection.h
// is how code reaches it; this is where its state lives, shared by the three
// libraries through RuntimeServices).
#ifndef ACLCPU_RUNTIME_FAULT_INJECTION_H_
#define ACLCPU_RUNTIME_FAULT_INJECTION_H_

#include <atomic>
#include <cstdint>

#include "acl/acl_base.h"

namespace aclcpu {

// Non-zero while a fault is armed and has not fired (RuntimeServices::fault_armed).
extern std::atomic<uint32_t> g_fault_armed;

// RuntimeServices::fault_fires.
int FaultFires(int32_t site);

}  // namespace aclcpu

// Test controls, exported from libascendcl.so (declared here, not in CANN's
// headers: no CANN program calls them).
//
// Arms `site` (a FaultSite name, e.g. "DeviceAllocate") to fail its nth pass
// (n >= 1), counting from this call; site == nullptr or nth == 0 disarms.
// Returns ACL_ERROR_INVALID_PARAM for an unknown site or a negative nth.
extern "C" ACL_FUNC_VISIBILITY aclError aclcpuSetFaultInjection(const char* site, int64_t nth);
// Faults fired since the last aclcpuSetFaultInjection (0 or 1).
extern "C" ACL_FUNC_VISIBILITY int64_t aclcpuFaultInjectionFired(void);

#endif  // ACLCPU_RUNTIME_FAULT_INJECTION_H_
