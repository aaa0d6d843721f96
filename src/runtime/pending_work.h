// aclcpu runtime, strict mode: the work queued on streams that has not run yet,
// with the device ranges it reads and writes, and the messages for device
// ranges that cannot be used.
//
// Only strict mode registers anything here (Stream::Submit wraps each task), so
// the default mode never takes this registry's lock.
#ifndef ACLCPU_RUNTIME_PENDING_WORK_H_
#define ACLCPU_RUNTIME_PENDING_WORK_H_

#include <cstddef>

#include "acl/acl_base.h"
#include "runtime/services.h"

namespace aclcpu {

// ACLCPU_STRICT, read once; RuntimeServices::is_strict.
int ReadStrictFlag();

// Registers `task` (queued on `stream`) as pending with the ranges it declares
// and returns the task to queue instead: a wrapper that runs it and
// unregisters it once it has run or been dropped.
Task* TrackPendingTask(const void* stream, Task* task);

struct PendingUse {
  const void* stream;   // the stream's handle
  const char* name;     // the task's Name()
  bool writes;          // the overlapping access writes
};

// The oldest pending task with an access overlapping [address, address + bytes)
// (only writing accesses if `writes_only`); false if none.
bool FindPendingUse(const void* address, size_t bytes, bool writes_only, PendingUse* use);

// How many tasks on `stream` have not started running yet (a task that is
// running is finishing: an event record's effect, for one, is visible before
// its Run returns); if any, the names of the oldest few pending tasks, running
// ones included, comma-separated in `names` (of `size` bytes).
size_t QueuedTasksOn(const void* stream, char* names, size_t size);

// Records why [address, address + bytes) is not usable device memory — host
// memory, freed memory, or a range running past its allocation — as the
// message of `call` about `argument`, and returns `code`. Does not set the
// thread's last runtime error (callers that need it use FailWith's rules).
int ReportUnusableDeviceRange(int code, const char* call, const char* argument, const void* address, size_t bytes);

// Strict mode: refuses (ACL_ERROR_RT_PARAM_INVALID, message naming `call`,
// `argument`, the pending op and its stream) a synchronous access to
// [address, address + bytes) that races with work still queued: a read of
// memory a pending task writes, or a write of memory a pending task uses.
aclError CheckNoPendingConflict(const char* call, const char* argument, const void* address, size_t bytes,
                                bool writes);

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_PENDING_WORK_H_
