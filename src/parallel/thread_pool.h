// aclcpu: the persistent worker threads kernels split large launches across.
//
// Created on first use and kept for the life of the process: a thread created
// per launch would cost more than a launch of a few hundred thousand elements.
// ACLCPU_NUM_THREADS sets the thread count (default: every core). Workers spin
// briefly after each job before sleeping, because launches tend to come in bursts
// and a futex wake-up costs as much as a small launch.
//
// A job is handed over without a lock while workers spin: the caller writes it
// and publishes it with one store, a spinning worker reads it after one load,
// and the mutex is taken only to wake sleeping workers. Every cache line the
// two sides pass back and forth lies on the path of a split launch. Measured
// on a 2-core Xeon VM, medians: an empty two-part job ~690 ns when the job was
// handed over under the mutex, ~570 ns without (an OpenMP parallel region
// ~800 ns); through the API on 2 threads, 64K elements (three alternating
// runs of 15): all-bf16 2.70 -> 2.48 us, float32 4.23 -> 4.01 us.
#ifndef ACLCPU_PARALLEL_THREAD_POOL_H_
#define ACLCPU_PARALLEL_THREAD_POOL_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "common/worker_thread.h"

namespace aclcpu {

class ThreadPool {
 public:
  // At most this many threads, the caller included (ACLCPU_NUM_THREADS above it
  // is clamped).
  static constexpr int kMaxThreads = 256;

  // The process's pool (ACLCPU_NUM_THREADS threads in all, counting the caller).
  // Built on first use, in static storage: that first use is a launch running
  // on a stream's worker (or the caller), where an allocation that failed
  // would have dropped the launch. Never fails (threads that cannot be
  // started are done without).
  static ThreadPool& Get();

  // The thread count Get() has or will have, without starting any thread.
  static int ConfiguredThreads();

  // Starts num_threads - 1 workers (at most kMaxThreads - 1), or as many as
  // the system gives; allocates nothing but the workers' thread start-up state.
  explicit ThreadPool(int num_threads) noexcept;
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;
  ~ThreadPool();

  // Threads a job can use, the calling thread included.
  int num_threads() const { return num_workers_ + 1; }

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
  // Publishes the job written in job_, taken by this many threads (the caller
  // included), as the next generation, and wakes sleeping workers.
  void Publish(int threads);

  // The low bits of a job's generation: the threads taking parts of it, so
  // that a worker learns whether it takes part from the load that tells it a
  // job is there. Workers that take no part never read the job's fields (the
  // caller may already be writing the next job's). 0 threads: stop.
  static constexpr uint64_t kThreadsBits = 16;
  static constexpr uint64_t kThreadsMask = (uint64_t{1} << kThreadsBits) - 1;

  // Started workers are workers_[0, num_workers_): a fixed array, not a vector,
  // so that building the pool allocates nothing of its own (4 KiB of static
  // storage for the process's one pool). Small stacks (common/worker_thread.h).
  WorkerThread workers_[kMaxThreads - 1];
  int num_workers_ = 0;
  std::mutex run_mutex_;  // one job at a time
  // What worker_finishes_ reaches when the current job is done; the caller's
  // (under run_mutex_), so away from the lines the workers touch.
  uint64_t finishes_awaited_ = 0;

  // The current job: written by the caller holding run_mutex_ before it
  // publishes the job (by storing its generation), read by the workers taking
  // part, which the caller waits for before it writes the next. One cache line.
  struct alignas(64) Job {
    std::atomic<uint64_t> generation{0};  // counter << kThreadsBits | threads
    PartFn fn = nullptr;
    const void* context = nullptr;
    int parts = 0;
  };
  Job job_;
  // How many times a worker has finished its share of a job, over the pool's
  // life: only workers write it (so it is on a line of its own); the caller
  // waits for the count its job brings it to, and so never has to fetch the
  // line to reset a count before publishing the next job.
  alignas(64) std::atomic<uint64_t> worker_finishes_{0};

  // For sleeping workers only (the fast path never touches them).
  alignas(64) std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<int> sleepers_{0};  // workers in (or about to enter) wake_.wait
};

}  // namespace aclcpu

#endif  // ACLCPU_PARALLEL_THREAD_POOL_H_
