// aclcpu runtime, strict mode: the work queued on streams that the host has not
// synchronised with yet, with the device ranges it reads and writes, and the
// messages for device ranges that cannot be used.
//
// A task is pending from its submission until the host synchronises with it —
// aclrtSynchronizeStream / aclrtSynchronizeStreamWithTimeout / aclrtSynchronizeDevice
// on its stream, or aclrtSynchronizeEvent / a "complete" event query for an
// event recorded after it — not merely until it has run: on an NPU the host
// cannot know a launch has finished before then, so reading its out with a
// synchronous copy is a race even when, here, the launch ran inline. Finished
// tasks the host has not synchronised with are kept up to a bound
// (kUnsynchronisedKept in pending_work.cc); past it the oldest are forgotten,
// which can only miss a report, never make a false one.
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
// and returns the task to queue instead: a wrapper that runs it and marks it
// finished once it has run (unregisters it if it is dropped unrun).
Task* TrackPendingTask(const void* stream, Task* task);

// A mark in submission order: every task submitted before the call is below it.
uint64_t PendingFence();

// The host has seen every task submitted on `stream` below `fence` complete:
// they are no longer pending.
void MarkSynchronised(const void* stream, uint64_t fence);

// Forgets the finished tasks with an access overlapping [address, address +
// bytes): aclrtFree released that memory, which a later allocation may reuse.
void ForgetFinishedUses(const void* address, size_t bytes);

struct PendingUse {
  const void* stream;   // the stream's handle
  const char* name;     // the task's Name()
  bool writes;          // the overlapping access writes
  bool finished;        // the task has run; the host has not synchronised with it
};

// The oldest pending task with an access overlapping [address, address + bytes)
// (only writing accesses if `writes_only`; only tasks that have not finished
// unless `include_finished`); false if none.
bool FindPendingUse(const void* address, size_t bytes, bool writes_only, bool include_finished, PendingUse* use);

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
// [address, address + bytes) that races with work the host has not
// synchronised with: a read of memory a pending task writes, or a write of
// memory a pending task uses — finished or not.
aclError CheckNoPendingConflict(const char* call, const char* argument, const void* address, size_t bytes,
                                bool writes);

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_PENDING_WORK_H_
