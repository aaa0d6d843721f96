// aclcpu: the persistent worker threads kernels split large launches across.
//
// Created on first use and kept for the life of the process: a thread created
// per launch would cost more than a launch of a few hundred thousand elements.
// ACLCPU_NUM_THREADS sets the thread count (default: every core). Workers spin
// briefly after each job before sleeping, because launches tend to come in bursts
// and a futex wake-up costs as much as a small launch.
#ifndef ACLCPU_PARALLEL_THREAD_POOL_H_
#define ACLCPU_PARALLEL_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace aclcpu {

class ThreadPool {
 public:
  // The process's pool (ACLCPU_NUM_THREADS threads in all, counting the caller).
  static ThreadPool& Get();

  // The thread count Get() has or will have, without starting any thread.
  static int ConfiguredThreads();

  explicit ThreadPool(int num_threads);
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool();

  // Threads a job can use, the calling thread included.
  int num_threads() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls part(i) for every i in [0, parts) — part 0 on the calling thread, the
  // others on workers — and returns when all have returned. With more parts
  // than num_threads() (the pool could not start every thread it was configured
  // for), thread t runs parts t, t + num_threads(), ... If another thread is
  // using the pool, every part runs on the calling thread instead (same result,
  // no waiting on each other).
  template <typename Part>
  void Run(int parts, const Part& part) {
    RunErased(parts, [](const void* context, int index) { (*static_cast<const Part*>(context))(index); }, &part);
  }

 private:
  using PartFn = void (*)(const void* context, int index);
  void RunErased(int parts, PartFn fn, const void* context);
  void WorkerLoop(int worker_index);

  std::vector<std::thread> workers_;
  std::mutex run_mutex_;  // one job at a time

  // The current job, published by bumping generation_.
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<uint64_t> generation_{0};
  PartFn job_fn_ = nullptr;
  const void* job_context_ = nullptr;
  int job_parts_ = 0;
  int job_threads_ = 0;  // threads taking parts, the caller included
  std::atomic<int> parts_left_{0};
  bool stopping_ = false;
};

}  // namespace aclcpu

#endif  // ACLCPU_PARALLEL_THREAD_POOL_H_
