// aclcpu: the internal interface between our three libraries.
//
// CANN's libraries talk through private C++ symbols; we export only CANN's C API
// plus one versioned entry point per library that returns a table of function
// pointers. libnnopbase and libopapi reach the runtime (error messages, streams,
// device memory) only through this table, so the runtime can change how device
// memory is mapped (strict mode) or how streams run without the others noticing.
#ifndef ACLCPU_RUNTIME_SERVICES_H_
#define ACLCPU_RUNTIME_SERVICES_H_

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace aclcpu {

// A device range a task reads or writes, declared so that strict mode can see
// which memory queued work still uses (aclrtFree, synchronous copies,
// aclrtDestroyStream). Addresses are device addresses as the user holds them.
struct MemoryAccess {
  const void* address;
  size_t bytes;
  bool writes;  // false: only read
};

// One unit of work queued on a stream. The stream runs tasks in submission order
// on its worker thread, then deletes them.
class Task {
 public:
  virtual ~Task() = default;
  // Does the work. Returns false if it failed — its results (an operator's
  // out) must not be trusted —, as a throwing Run is taken to have failed too
  // (Run should not throw): the stream remembers the failure and the next
  // synchronisation with it reports it (Stream::Synchronize), as an NPU
  // reports a failed kernel; nothing is lost silently.
  virtual bool Run() = 0;
  // Name reported in diagnostics (e.g. "aclnnHardsigmoidBackward", "aclrtMemcpyAsync").
  virtual const char* Name() const = 0;
  // When the stream has nothing queued or running, a task may run on the
  // submitting thread instead of the stream's worker; order and synchronisation
  // semantics are the same either way.
  //
  // RunsWhereSubmitted: compute that should run on the submitting thread then:
  // the thread would otherwise hand the work over (a wake-up of ~1 us) and spin
  // in the synchronise call, a third runnable thread on a machine whose cores
  // the launch's own threads already fill. Not in strict mode, whose race
  // checks need the work still queued when the caller moves on.
  virtual bool RunsWhereSubmitted() const { return false; }
  // IsTiny: so short (well under a microsecond) that it also runs while holding
  // the stream's lock, saving a second lock round-trip.
  virtual bool IsTiny() const { return false; }
  // Strict mode only: stores up to `max` device ranges the task touches in
  // `accesses` and returns how many it has in all. The default declares none.
  virtual size_t Accesses(MemoryAccess* /*accesses*/, size_t /*max*/) const { return 0; }
};

// What the runtime knows about an address (RuntimeServices::find_allocation).
enum DeviceAddressState : int32_t {
  kNotDeviceMemory = 0,  // no aclrtMalloc allocation contains it (host memory, or garbage)
  kLiveDeviceMemory = 1,
  kFreedDeviceMemory = 2,  // inside an allocation aclrtFree released (strict mode remembers these)
};

struct DeviceRange {
  const void* base;  // the device address aclrtMalloc returned
  size_t size;       // its usable bytes
};

// Bumped whenever the layout or meaning of RuntimeServices changes; libraries of
// different builds refuse each other with a clear message instead of misbehaving.
constexpr uint32_t kRuntimeServicesAbi = 7;  // 7: Task::Run returns whether the task succeeded

struct RuntimeServices {
  uint32_t abi_version;

  // Appends `message` to the calling thread's list returned by aclGetRecentErrMsg
  // (and prints it on stderr when ACLCPU_VERBOSE or ACLCPU_STRICT is set).
  void (*record_error)(const char* message);

  // Resolves a user stream handle: nullptr means the current context's default
  // stream. On success stores the stream's handle and returns ACL_SUCCESS;
  // otherwise returns an ACL runtime error and records a message.
  aclError (*resolve_stream)(aclrtStream user_stream, void** stream);

  // Queues `task` on the stream `user_stream` names (nullptr: the current
  // context's default stream), taking ownership (also on failure, when the task
  // is deleted unrun), and returns at once. On failure returns an ACL runtime
  // error after recording a message (no context, unknown or dying stream).
  aclError (*submit)(aclrtStream user_stream, Task* task);
  // Runs `work(context)` right here, as the stream's next work, if the stream
  // `user_stream` names has nothing queued or running; sets *ran to 1 then, to
  // 0 (running nothing) otherwise. For work far shorter than a hand-off to the
  // stream's worker; `work` must not throw. Fails as submit does.
  aclError (*run_if_idle)(aclrtStream user_stream, const char* name, void (*work)(const void* context),
                          const void* context, int* ran);

  // Translates the device address range [address, address + bytes) to the host
  // address the runtime and kernels read and write. Returns nullptr (and records
  // a message naming `what`) if the range is not usable device memory. In the
  // default mode device memory is host memory and this returns `address`.
  void* (*device_to_host)(const void* address, size_t bytes, const char* what);

  // Non-zero when strict mode (ACLCPU_STRICT) is on; read once per process.
  int (*is_strict)(void);

  // Classifies `address` and, unless it is kNotDeviceMemory, stores the
  // allocation containing it in *allocation. Freed allocations are known only
  // in strict mode (and only while their addresses are kept in quarantine).
  DeviceAddressState (*find_allocation)(const void* address, DeviceRange* allocation);

  // Fault injection (common/fault_injection.h). Non-zero while a fault is armed
  // and has not fired: the libraries load it (relaxed) at every site and call
  // fault_fires only when it is set, so a disarmed site costs no call.
  const std::atomic<uint32_t>* fault_armed;
  // Counts a pass through `site` (an aclcpu::FaultSite) and returns non-zero if
  // it is the armed one (which then disarms).
  int (*fault_fires)(int32_t site);
};

}  // namespace aclcpu

extern "C" ACL_FUNC_VISIBILITY const aclcpu::RuntimeServices* aclcpuRuntimeServices(uint32_t abi_version);

#endif  // ACLCPU_RUNTIME_SERVICES_H_
