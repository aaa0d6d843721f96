// aclcpu: fault injection — making one allocation site fail on purpose, so that
// tests can drive every failure path through the public API (docs/reliability.md).
//
// The switch lives in libascendcl.so (runtime/fault_injection.cc) so that all
// three libraries count passes and fail together; each library reaches it through
// a pointer to the runtime's "armed" flag, resolved when the library is loaded.
// Disarmed, a site costs one relaxed load and a branch predicted not taken: the
// per-launch path runs through several sites.
#ifndef ACLCPU_COMMON_FAULT_INJECTION_H_
#define ACLCPU_COMMON_FAULT_INJECTION_H_

#include <atomic>
#include <cstdint>

namespace aclcpu {

// Where a fault can be injected. The names (FaultSiteName) are what
// ACLCPU_FAULT_INJECT and aclcpuSetFaultInjection accept.
enum class FaultSite : int32_t {
  kDeviceAllocate,      // aclrtMalloc*: the memory itself
  kDeviceBookkeeping,   // aclrtMalloc*: the allocator's registry entry
  kHostAllocate,        // aclrtMallocHost: the memory itself
  kHostBookkeeping,     // aclrtMallocHost: the registry entry
  kTensorCreate,        // aclCreateTensor / aclInitTensor: the object and its dims
  kArrayCreate,         // aclCreateScalar, aclCreate*Array, aclCreate*List
  kExecutorCreate,      // phase 1: the executor's slot (meta/executor_slots.h)
  kLaunchCreate,        // phase 2: the launch task
  kContextCreate,       // aclrtSetDevice / aclrtCreateContext: the context, its default stream, their entries
  kStreamCreate,        // aclrtCreateStream*: the stream and its registry entry
  kStreamQueuePush,     // a stream's queue entry
  kStreamWorkerStart,   // a stream's worker thread, started on its first queued task
  kEventCreate,         // aclrtCreateEvent*: the event and its registry entry
  kEventTask,           // aclrtRecordEvent / aclrtStreamWaitEvent / aclrtResetEvent: the task
  kErrorStore,          // recording a message for aclGetRecentErrMsg
  kThreadPoolStart,     // the operator thread pool's worker threads
  kDataBufferCreate,    // aclCreateDataBuffer: the buffer and its registry entry
  kCount
};

// "DeviceAllocate", ...; nullptr for kCount or an unknown value.
const char* FaultSiteName(FaultSite site);
// Parses a name FaultSiteName returns; false if it is none.
bool FaultSiteFromName(const char* name, FaultSite* site);

namespace fault_detail {
// Points at the runtime's flag (non-zero while a fault is armed and has not
// fired); until the library is initialised, at a flag that is never set.
extern const std::atomic<uint32_t>* armed_flag;
bool SlowPathFires(FaultSite site);
}  // namespace fault_detail

// True if this pass through `site` must fail. The caller then fails exactly as
// the real failure would (nullptr from new (std::nothrow), std::bad_alloc from
// a container, std::system_error from std::thread).
inline bool InjectFault(FaultSite site) {
  if (__builtin_expect(fault_detail::armed_flag->load(std::memory_order_relaxed) == 0, 1)) return false;
  return fault_detail::SlowPathFires(site);
}

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_FAULT_INJECTION_H_
