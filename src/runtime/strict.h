// aclcpu: strict mode (ACLCPU_STRICT=1) — host-side mistakes that would crash,
// hang or corrupt memory on an NPU fail at the faulty call instead.
//
// The switch is read once, by the runtime; every library asks it through the
// service table and caches the answer, so a check costs one predictable branch
// on a static when strict mode is off. What strict mode changes:
//   - device memory comes from StrictDeviceAllocator: the addresses users get
//     are mapped without access (a host dereference faults, as on an NPU) and the
//     runtime and kernels use a second, read-write mapping of the same pages;
//     freed ranges stay reserved for a while so use after free is detected;
//   - every task queued on a stream is tracked with the device ranges it reads
//     and writes until it has run, so aclrtFree, synchronous copies and
//     aclrtDestroyStream can see the work that still needs the memory;
//   - phase 1 checks tensor data against the allocations, destroyed aclTensors
//     and retired executors are kept (bounded) so their reuse is reported;
//   - every recorded error message is also printed on stderr.
#ifndef ACLCPU_RUNTIME_STRICT_H_
#define ACLCPU_RUNTIME_STRICT_H_

#include "common/error_report.h"

namespace aclcpu {

// True when strict mode is on (ACLCPU_STRICT, as read by libascendcl.so).
inline bool StrictMode() {
  static const bool strict = Runtime().is_strict() != 0;
  return strict;
}

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_STRICT_H_
