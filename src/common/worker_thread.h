// aclcpu: the threads the library starts for itself (stream workers, the
// thread pool), with a small stack.
//
// std::thread gives every thread the process's default stack size, usually
// RLIMIT_STACK (8 MiB): address space, counted against RLIMIT_AS (`ulimit -v`)
// whether or not it is touched. With ACLCPU_NUM_THREADS=64 and a few streams
// that is over 512 MiB before any data. Our workers run kernels and bookkeeping
// whose deepest frames (error formatting, the 4 KiB f16/bf16 blocks) need a few
// tens of KiB, so they get kWorkerStackBytes; sanitizer builds, whose frames
// are several times larger, keep the default.
#ifndef ACLCPU_COMMON_WORKER_THREAD_H_
#define ACLCPU_COMMON_WORKER_THREAD_H_

#include <pthread.h>

#include <cstddef>
#include <functional>

namespace aclcpu {

constexpr size_t kWorkerStackBytes = size_t{512} << 10;

class WorkerThread {
 public:
  WorkerThread() = default;
  WorkerThread(WorkerThread&& other) noexcept { *this = static_cast<WorkerThread&&>(other); }
  WorkerThread& operator=(WorkerThread&& other) noexcept;
  WorkerThread(const WorkerThread&) = delete;
  WorkerThread& operator=(const WorkerThread&) = delete;
  ~WorkerThread();  // joins a thread still running: owners join first, this is a safety net

  // Runs `body` on a new thread. False, with nothing started, when the system
  // has no thread (or no memory) to give; never throws.
  bool Start(std::function<void()> body) noexcept;
  bool joinable() const { return started_; }
  void join();

 private:
  pthread_t thread_{};
  bool started_ = false;
};

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_WORKER_THREAD_H_
