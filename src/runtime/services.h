// aclcpu: the internal interface between our three libraries.
//
// CANN's libraries talk through private C++ symbols; we export only CANN's C API
// plus one versioned entry point per library that returns a table of function
// pointers. libnnopbase and libopapi reach the runtime (error messages, streams,
// device memory) only through this table, so the runtime can change how device
// memory is mapped (strict mode) or how streams run without the others noticing.
#ifndef ACLCPU_RUNTIME_SERVICES_H_
#define ACLCPU_RUNTIME_SERVICES_H_

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace aclcpu {

// One unit of work queued on a stream. The stream runs tasks in submission order
// on its worker thread, then deletes them. Run() must not throw.
class Task {
 public:
  virtual ~Task() = default;
  virtual void Run() = 0;
  // Name reported in diagnostics (e.g. "aclnnHardsigmoidBackward", "aclrtMemcpyAsync").
  virtual const char* Name() const = 0;
  // True for work so small that running it on the submitting thread, when the
  // stream has nothing queued or running, costs less than waking the stream's
  // worker. Order and synchronisation semantics are the same either way.
  virtual bool IsTiny() const { return false; }
};

// Bumped whenever the layout or meaning of RuntimeServices changes; libraries of
// different builds refuse each other with a clear message instead of misbehaving.
constexpr uint32_t kRuntimeServicesAbi = 3;

struct RuntimeServices {
  uint32_t abi_version;

  // Appends `message` to the calling thread's list returned by aclGetRecentErrMsg
  // (and prints it on stderr when ACLCPU_VERBOSE is set).
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

  // Translates the device address range [address, address + bytes) to the host
  // address the runtime and kernels read and write. Returns nullptr (and records
  // a message naming `what`) if the range is not usable device memory. In the
  // default mode device memory is host memory and this returns `address`.
  void* (*device_to_host)(const void* address, size_t bytes, const char* what);
};

}  // namespace aclcpu

extern "C" ACL_FUNC_VISIBILITY const aclcpu::RuntimeServices* aclcpuRuntimeServices(uint32_t abi_version);

#endif  // ACLCPU_RUNTIME_SERVICES_H_
