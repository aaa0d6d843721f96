// aclcpu runtime: a stream — an in-order queue of Tasks drained by one worker
// thread.
#ifndef ACLCPU_RUNTIME_STREAM_H_
#define ACLCPU_RUNTIME_STREAM_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>

#include "acl/acl_base.h"
#include "common/worker_thread.h"
#include "runtime/services.h"

namespace aclcpu {

class Context;

// What synchronising with a stream answers once a task queued on it failed
// while running (Task::Run returned false or threw): ACL_ERROR_RT_AICORE_EXCEPTION,
// 507015. Why this code: it is what CANN's aclrtSynchronizeStream (and the
// device and event synchronisations) return when a kernel queued on the stream
// failed on the device — the AI Core is where an NPU runs these operators'
// kernels, and programs and frameworks (torch_npu) already treat it as "the
// stream's work failed, its results are not to be used". Not
// ACL_ERROR_RT_INTERNAL_ERROR (507000): that answers the call itself failing,
// while here the call works and reports earlier work; not
// ACL_ERROR_RT_AICPU_EXCEPTION (507018): no operator here is an AI CPU kernel.
constexpr aclError kStreamTaskFailed = ACL_ERROR_RT_AICORE_EXCEPTION;

class Stream {
 public:
  // `context` is the owner, used only for identity (which device, which context).
  Stream(const Context* context, int32_t device_id, bool is_default);
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  ~Stream();  // Shuts down if that has not happened yet.

  // Queues `task` (taking ownership) and returns at once; a task that asks for
  // it (RunsWhereSubmitted, IsTiny) runs right here instead when the stream is
  // idle. Otherwise deletes the task unrun and returns ACL_ERROR_RT_PARAM_INVALID
  // once the stream is shutting down (recording no message: the caller knows the
  // call), or ACL_ERROR_RT_MEMORY_ALLOCATION / ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
  // (with a message) if the queue entry or the worker thread cannot be had.
  aclError Submit(Task* task);

  // Runs work(context) on the calling thread as the stream's next work if
  // nothing is queued or running (setting *ran), or runs nothing. Returns false
  // once the stream is shutting down. `name` names the work if it throws (a
  // failure reported as a task's, Synchronize).
  bool RunIfIdle(const char* name, void (*work)(const void* context), const void* context, bool* ran);

  // What the host's synchronisation calls (aclrtSynchronizeStream[WithTimeout])
  // do: waits until every task submitted before the call has run (timeout_ms < 0
  // waits forever), as WaitIdle, then reports the stream's task failures not yet
  // reported (TakeFailures). Returns ACL_SUCCESS, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
  // (recording no message: the caller words it), or kStreamTaskFailed with a
  // message naming `call` and the task.
  aclError Synchronize(const char* call, int64_t timeout_ms = -1) {
    // Inline for the common case, a synchronise call on an idle stream after a
    // tiny launch ran inline (IdleWithNothingToReport).
    if (IdleWithNothingToReport()) return ACL_SUCCESS;
    return SynchronizeSlow(call, timeout_ms);
  }

  // Reports, once, the failures of this stream's tasks not reported yet — if
  // the first of them is among the first `through` failures of the stream
  // (FailureCount; aclrtSynchronizeEvent passes what its record saw) —: records
  // a message for aclGetRecentErrMsg naming `call`, the stream, the first failed
  // task and why, and how many failed since, and returns kStreamTaskFailed; then
  // they count as reported (a failure is reported by one synchronisation, as on
  // CANN). ACL_SUCCESS when there is nothing to report. Does not wait.
  aclError TakeFailures(const char* call, uint64_t through = UINT64_MAX);

  // How many of this stream's tasks have failed so far (reported or not).
  uint64_t FailureCount() const { return failures_.load(std::memory_order_acquire); }

  // Waits until every task submitted before the call has run. timeout_ms < 0
  // waits forever. Returns false on timeout. In strict mode a successful wait
  // counts as the host synchronising with that work (runtime/pending_work.h)
  // unless `host_synchronises` is false: a wait the runtime does for its own
  // sake (aclrtFreeHost) tells the program nothing.
  // Reports no task failure (Synchronize and TakeFailures do).
  bool WaitIdle(int64_t timeout_ms = -1, bool host_synchronises = true) {
    if (IdleWithNothingToReport()) return true;
    return WaitIdleTracked(timeout_ms, host_synchronises);
  }

  // Waits for the queued work, then stops and joins the worker. Later submissions
  // are refused. Must not be called from the stream's own worker. A task
  // failure no synchronisation reported is printed on stderr (nothing is left
  // to report it to).
  void Shutdown();

  const Context* context() const { return context_; }
  int32_t device_id() const { return device_id_; }
  bool is_default() const { return is_default_; }
  // What users hold for this stream (runtime/handle_ids.h).
  void* handle() const { return handle_; }

 private:
  // What a failed task leaves for the synchronisation that reports it: fixed
  // buffers, so that keeping a failure never allocates (the failure may be
  // running out of memory).
  struct TaskFailure {
    char task[64];     // Task::Name()
    char reason[192];  // "it threw an exception (std::bad_alloc)", ...
  };

  aclError SynchronizeSlow(const char* call, int64_t timeout_ms);  // Synchronize's general case
  // Every task submitted so far has run, and neither strict mode's bookkeeping
  // nor an unreported failure needs the slow path: two loads and one flag that
  // both set. completed_ is loaded before the flag, with acquire: a failure is
  // recorded before its task is counted completed, so the flag load sees it.
  bool IdleWithNothingToReport() const {
    const uint64_t target = submitted_.load(std::memory_order_acquire);
    return completed_.load(std::memory_order_acquire) >= target && !slow_sync_.load(std::memory_order_relaxed);
  }
  bool WaitIdleTracked(int64_t timeout_ms, bool host_synchronises);  // WaitIdle's general case
  bool WaitIdleUntracked(int64_t timeout_ms);
  void WorkerLoop();
  // Runs and deletes `task`; false if it failed (returned false or threw),
  // with *failure saying which and why.
  static bool RunTask(Task* task, TaskFailure* failure);
  // Keeps `failure` for the next synchronisation; needs mutex_, and must come
  // before the failed task is counted in completed_.
  void RecordFailureLocked(const TaskFailure& failure);
  void NotifyWaitersLocked();  // wakes WaitIdle callers, if any sleep; needs mutex_
  // With mutex_ held and the stream idle: runs `run` as submission `position`,
  // keeping the lock, which keeps the worker and other submitters out
  // meanwhile, so later work still runs after it, in order.
  template <typename Run>
  void RunHereLocked(uint64_t position, Run&& run);

  const Context* const context_;
  const int32_t device_id_;
  const bool is_default_;
  void* const handle_;
  const bool strict_;  // StrictMode(), fixed for the process
  // Set while synchronising must take the general path: in strict mode always,
  // otherwise while a task failure waits to be reported. Written under mutex_.
  std::atomic<bool> slow_sync_;

  std::mutex mutex_;
  std::condition_variable work_available_;
  std::condition_variable work_done_;
  std::deque<Task*> queue_;
  // Written under mutex_; atomic so that waiters can poll them without it.
  std::atomic<uint64_t> queued_{0};     // queue_.size()
  std::atomic<uint64_t> submitted_{0};  // tasks ever accepted
  std::atomic<uint64_t> completed_{0};  // tasks run (in order, so the first `completed_` ones)
  int sleeping_waiters_ = 0;  // WaitIdle callers waiting on work_done_ (under mutex_)
  // Task failures: counted (written under mutex_, read by event records on
  // the worker), and reported up to failures_reported_ (under mutex_); the
  // first unreported one's details.
  std::atomic<uint64_t> failures_{0};
  uint64_t failures_reported_ = 0;
  TaskFailure first_unreported_{};
  bool stopping_ = false;
  bool running_inline_ = false;  // a task runs on its submitter's thread, without the lock
  WorkerThread worker_;  // started on the first submission; small stack (common/worker_thread.h)
  std::mutex shutdown_mutex_;  // serialises Shutdown callers around the join
};

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_STREAM_H_
