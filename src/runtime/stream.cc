// aclcpu runtime: the stream's queue and worker thread.
//
// Tasks run one at a time in submission order, which gives CANN's in-order
// stream semantics; completion is tracked by counting, so a synchronise call
// waits exactly for the work submitted before it, not for later submissions.
#include "runtime/stream.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <exception>
#include <new>
#include <system_error>

#include "common/error_report.h"
#include "common/fault_injection.h"
#include "common/spin_wait.h"
#include "runtime/error_store.h"
#include "runtime/handle_ids.h"
#include "runtime/pending_work.h"
#include "runtime/strict.h"

namespace aclcpu {

Stream::Stream(const Context* context, int32_t device_id, bool is_default)
    : context_(context), device_id_(device_id), is_default_(is_default), handle_(NewHandle(HandleKind::kStream)),
      strict_(StrictMode()), slow_sync_(strict_) {}

Stream::~Stream() { Shutdown(); }

aclError Stream::Submit(Task* task) {
  // Strict mode tracks the task (and the device ranges it uses) until it has run.
  if (StrictMode()) task = TrackPendingTask(handle_, task);
  std::unique_lock<std::mutex> lock(mutex_);
  if (stopping_) {
    lock.unlock();
    delete task;
    return ACL_ERROR_RT_PARAM_INVALID;
  }
  // Counted (published to lock-free waiters) only once it is sure to run.
  const uint64_t position = submitted_.load(std::memory_order_relaxed) + 1;
  const bool idle = completed_.load(std::memory_order_relaxed) + 1 == position;
  if (idle && task->IsTiny()) {
    // Under the lock: a tiny launch pays one lock round-trip instead of two.
    RunHereLocked(position, [this, task] {
      TaskFailure failure;
      if (!RunTask(task, &failure)) RecordFailureLocked(failure);
    });
    return ACL_SUCCESS;
  }
  if (idle && task->RunsWhereSubmitted() && !StrictMode()) {
    // Until it finishes the worker leaves the queue alone, so later submissions
    // still run after it, in order.
    submitted_.store(position, std::memory_order_release);
    running_inline_ = true;
    lock.unlock();
    TaskFailure failure;
    const bool succeeded = RunTask(task, &failure);
    lock.lock();
    if (!succeeded) RecordFailureLocked(failure);
    running_inline_ = false;
    completed_.store(position, std::memory_order_release);
    NotifyWaitersLocked();
    if (!queue_.empty()) work_available_.notify_one();
    return ACL_SUCCESS;
  }
  // Either failure below (no thread, no memory for the queue entry) leaves
  // the task uncounted and deleted unrun, and the stream as it was.
  auto refuse = [&](aclError status, const char* why) {
    lock.unlock();
    const char* name = task->Name();
    delete task;
    return FailWith(status, "%s: %s on stream %p (the task was not queued)", name, why, handle_);
  };
  try {
    // Lazily: most streams (every context's default stream) may never run
    // work. Started before queueing, so that no task waits without a worker.
    if (!worker_.joinable()) {
      if (InjectFault(FaultSite::kStreamWorkerStart) || !worker_.Start([this] { WorkerLoop(); })) {
        throw std::system_error(EAGAIN, std::generic_category());
      }
    }
    if (InjectFault(FaultSite::kStreamQueuePush)) throw std::bad_alloc();
    queue_.push_back(task);
  } catch (const std::system_error&) {
    return refuse(ACL_ERROR_RT_RESOURCE_ALLOC_FAIL, "cannot start the stream's worker thread");
  } catch (const std::bad_alloc&) {
    return refuse(ACL_ERROR_RT_MEMORY_ALLOCATION, "out of memory queueing the task");
  }
  submitted_.store(position, std::memory_order_release);
  queued_.store(queue_.size(), std::memory_order_release);
  work_available_.notify_one();
  return ACL_SUCCESS;
}

template <typename Run>
void Stream::RunHereLocked(uint64_t position, Run&& run) {
  submitted_.store(position, std::memory_order_release);
  run();
  completed_.store(position, std::memory_order_release);
  NotifyWaitersLocked();
}

bool Stream::RunIfIdle(const char* name, void (*work)(const void* context), const void* context, bool* ran) {
  *ran = false;
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return false;
  const uint64_t position = submitted_.load(std::memory_order_relaxed) + 1;
  if (completed_.load(std::memory_order_relaxed) + 1 != position) return true;
  RunHereLocked(position, [&] {
    // `work` should not throw; if it does, it failed like a task (no cost
    // when it does not: the handler is out of line).
    try {
      work(context);
    } catch (...) {
      TaskFailure failure;
      std::snprintf(failure.task, sizeof failure.task, "%s", name != nullptr ? name : "work");
      std::snprintf(failure.reason, sizeof failure.reason, "it threw an exception");
      RecordFailureLocked(failure);
    }
  });
  *ran = true;
  return true;
}

aclError Stream::SynchronizeSlow(const char* call, int64_t timeout_ms) {
  if (!WaitIdleTracked(timeout_ms, /*host_synchronises=*/true)) return ACL_ERROR_RT_STREAM_SYNC_TIMEOUT;
  return TakeFailures(call);
}

void Stream::RecordFailureLocked(const TaskFailure& failure) {
  const uint64_t failures = failures_.load(std::memory_order_relaxed);
  if (failures == failures_reported_) first_unreported_ = failure;  // later ones are counted only
  failures_.store(failures + 1, std::memory_order_release);
  slow_sync_.store(true, std::memory_order_relaxed);
}

aclError Stream::TakeFailures(const char* call, uint64_t through) {
  TaskFailure first;
  uint64_t count = 0;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const uint64_t failures = failures_.load(std::memory_order_relaxed);
    if (failures == failures_reported_ || failures_reported_ >= through) return ACL_SUCCESS;
    first = first_unreported_;
    count = failures - failures_reported_;
    failures_reported_ = failures;
    slow_sync_.store(strict_, std::memory_order_relaxed);
  }
  char more[64] = "";
  if (count > 1) {
    std::snprintf(more, sizeof more, " (and %llu later task(s) on it failed too)",
                  static_cast<unsigned long long>(count - 1));
  }
  return FailWith(kStreamTaskFailed,
                  "%s: task %s queued on stream %p failed: %s%s; what it was to write (an operator's out) must not "
                  "be used. A failure is reported once, by the first synchronisation after it",
                  call, first.task, handle_, first.reason, more);
}

bool Stream::WaitIdleTracked(int64_t timeout_ms, bool host_synchronises) {
  if (strict_ && host_synchronises) {
    // Strict mode: the work waited for is no longer pending once the wait
    // succeeds (runtime/pending_work.h).
    const uint64_t fence = PendingFence();
    if (!WaitIdleUntracked(timeout_ms)) return false;
    MarkSynchronised(handle_, fence);
    return true;
  }
  return WaitIdleUntracked(timeout_ms);
}

bool Stream::WaitIdleUntracked(int64_t timeout_ms) {
  // Lock-free until there is reason to sleep: a synchronise call on an idle
  // stream (the common case after a tiny launch ran inline) costs two loads.
  const uint64_t target = submitted_.load(std::memory_order_acquire);
  auto reached = [&] { return completed_.load(std::memory_order_acquire) >= target; };
  if (reached() || SpinUntil(reached)) return true;
  std::unique_lock<std::mutex> lock(mutex_);
  ++sleeping_waiters_;
  bool done = true;
  if (timeout_ms < 0) {
    work_done_.wait(lock, reached);
  } else {
    done = work_done_.wait_for(lock, std::chrono::milliseconds(timeout_ms), reached);
  }
  --sleeping_waiters_;
  return done;
}

void Stream::NotifyWaitersLocked() {
  // Waiters count themselves under the lock before sleeping, so none is missed;
  // most completions have none (a tiny launch's caller synchronises later).
  if (sleeping_waiters_ > 0) work_done_.notify_all();
}

void Stream::Shutdown() {
  std::lock_guard<std::mutex> shutdown_lock(shutdown_mutex_);
  WaitIdle();
  uint64_t unreported = 0;
  TaskFailure first{};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!stopping_) {
      unreported = failures_.load(std::memory_order_relaxed) - failures_reported_;
      failures_reported_ += unreported;
      first = first_unreported_;
    }
    stopping_ = true;
    work_available_.notify_all();
  }
  if (worker_.joinable()) worker_.join();
  // The program destroyed the stream without synchronising after a failure:
  // there is no call left to return it from, so say it where a developer sees it.
  if (unreported > 0) {
    std::fprintf(stderr,
                 "aclcpu: stream %p destroyed with %llu task failure(s) no synchronisation reported; the first: %s "
                 "failed: %s\n",
                 handle_, static_cast<unsigned long long>(unreported), first.task, first.reason);
  }
}

bool Stream::RunTask(Task* task, TaskFailure* failure) {
  bool succeeded = false;
  char reason[sizeof failure->reason] = "it reported a failure";
  try {
    succeeded = task->Run();
  } catch (const std::exception& exception) {
    // Task::Run should not throw; if one does, the stream survives and the
    // failure is reported at the next synchronisation.
    std::snprintf(reason, sizeof reason, "it threw an exception (%s)", exception.what());
  } catch (...) {
    std::snprintf(reason, sizeof reason, "it threw an exception");
  }
  if (!succeeded) {
    std::snprintf(failure->task, sizeof failure->task, "%s", task->Name());
    std::snprintf(failure->reason, sizeof failure->reason, "%s", reason);
  }
  delete task;
  return succeeded;
}

void Stream::WorkerLoop() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (queue_.empty() && !stopping_) {
      // Work often comes in bursts: poll for the next task before sleeping.
      lock.unlock();
      SpinUntil([&] { return queued_.load(std::memory_order_acquire) != 0; });
      lock.lock();
    }
    work_available_.wait(lock, [&] { return stopping_ || (!queue_.empty() && !running_inline_); });
    if (queue_.empty()) return;  // stopping, and everything accepted has run
    Task* task = queue_.front();
    queue_.pop_front();
    queued_.store(queue_.size(), std::memory_order_release);
    lock.unlock();
    TaskFailure failure;
    const bool succeeded = RunTask(task, &failure);
    lock.lock();
    if (!succeeded) RecordFailureLocked(failure);
    ++completed_;
    NotifyWaitersLocked();
  }
}

}  // namespace aclcpu
