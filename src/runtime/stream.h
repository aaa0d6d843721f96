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
  // once the stream is shutting down.
  bool RunIfIdle(void (*work)(const void* context), const void* context, bool* ran);

  // Waits until every task submitted before the call has run. timeout_ms < 0
  // waits forever. Returns false on timeout. In strict mode a successful wait
  // counts as the host synchronising with that work (runtime/pending_work.h)
  // unless `host_synchronises` is false: a wait the runtime does for its own
  // sake (aclrtFreeHost) tells the program nothing.
  bool WaitIdle(int64_t timeout_ms = -1, bool host_synchronises = true) {
    // Inline for the common case, a synchronise call on an idle stream after a
    // tiny launch ran inline: two loads, no strict-mode bookkeeping to do.
    const uint64_t target = submitted_.load(std::memory_order_acquire);
    if (!strict_ && completed_.load(std::memory_order_acquire) >= target) return true;
    return WaitIdleTracked(timeout_ms, host_synchronises);
  }

  // Waits for the queued work, then stops and joins the worker. Later submissions
  // are refused. Must not be called from the stream's own worker.
  void Shutdown();

  const Context* context() const { return context_; }
  int32_t device_id() const { return device_id_; }
  bool is_default() const { return is_default_; }
  // What users hold for this stream (runtime/handle_ids.h).
  void* handle() const { return handle_; }

 private:
  bool WaitIdleTracked(int64_t timeout_ms, bool host_synchronises);  // WaitIdle's general case
  bool WaitIdleUntracked(int64_t timeout_ms);
  void WorkerLoop();
  static void RunTask(Task* task);  // runs and deletes it
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

  std::mutex mutex_;
  std::condition_variable work_available_;
  std::condition_variable work_done_;
  std::deque<Task*> queue_;
  // Written under mutex_; atomic so that waiters can poll them without it.
  std::atomic<uint64_t> queued_{0};     // queue_.size()
  std::atomic<uint64_t> submitted_{0};  // tasks ever accepted
  std::atomic<uint64_t> completed_{0};  // tasks run (in order, so the first `completed_` ones)
  int sleeping_waiters_ = 0;  // WaitIdle callers waiting on work_done_ (under mutex_)
  bool stopping_ = false;
  bool running_inline_ = false;  // a task runs on its submitter's thread, without the lock
  WorkerThread worker_;  // started on the first submission; small stack (common/worker_thread.h)
  std::mutex shutdown_mutex_;  // serialises Shutdown callers around the join
};

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_STREAM_H_
