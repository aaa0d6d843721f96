#include "parallel/thread_pool.h"

#include <cerrno>
#include <cstdlib>
#include <system_error>

#include "common/env.h"
#include "common/fault_injection.h"
#include "common/spin_wait.h"

namespace aclcpu {
namespace {

int ThreadCountFromEnvironment() {
  const char* requested = GetEnv("ACLCPU_NUM_THREADS");
  const long count = requested != nullptr ? std::strtol(requested, nullptr, 10) : 0;
  if (count > 0) return static_cast<int>(count < 256 ? count : 256);
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? static_cast<int>(cores) : 1;
}

}  // namespace

int ThreadPool::ConfiguredThreads() {
  static const int count = ThreadCountFromEnvironment();
  return count;
}

ThreadPool& ThreadPool::Get() {
  // Never destroyed: launches may still run on stream threads at process exit.
  static ThreadPool* const pool = new ThreadPool(ConfiguredThreads());
  return *pool;
}

// A worker that cannot be started (no thread, or no memory for its slot) is
// not an error: the pool keeps the workers it has, and jobs are split over
// fewer threads (Run clamps to num_threads()), with the same results.
ThreadPool::ThreadPool(int num_threads) {
  for (int i = 1; i < num_threads; ++i) {
    try {
      if (InjectFault(FaultSite::kThreadPoolStart)) throw std::system_error(EAGAIN, std::generic_category());
      workers_.emplace_back(&ThreadPool::WorkerLoop, this, i);
    } catch (const std::exception&) {  // std::system_error or std::bad_alloc
      break;
    }
  }
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (std::thread& worker : workers_) worker.join();
}

void ThreadPool::RunErased(int parts, PartFn fn, const void* context) {
  // Callers size `parts` from ConfiguredThreads(); the pool may have fewer
  // threads (a worker failed to start), so a thread may run several parts.
  const int threads = parts < num_threads() ? parts : num_threads();
  std::unique_lock<std::mutex> run_lock(run_mutex_, std::try_to_lock);
  if (threads <= 1 || !run_lock.owns_lock()) {
    for (int i = 0; i < parts; ++i) fn(context, i);
    return;
  }
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_fn_ = fn;
    job_context_ = context;
    job_parts_ = parts;
    job_threads_ = threads;
    parts_left_.store(threads - 1, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_all();
  for (int i = 0; i < parts; i += threads) fn(context, i);
  // The other parts are short (a launch split in equal pieces): spin.
  while (parts_left_.load(std::memory_order_acquire) != 0) CpuRelax();
}

void ThreadPool::WorkerLoop(int worker_index) {
  uint64_t seen = 0;
  for (;;) {
    // Spin for a while, then sleep until the generation moves.
    const auto job_published = [&] { return generation_.load(std::memory_order_acquire) != seen; };
    if (!SpinUntil(job_published)) {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, job_published);
    }
    PartFn fn;
    const void* context;
    int parts;
    int threads;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      seen = generation_.load(std::memory_order_acquire);
      fn = job_fn_;
      context = job_context_;
      parts = job_parts_;
      threads = job_threads_;
    }
    if (worker_index < threads) {
      for (int i = worker_index; i < parts; i += threads) fn(context, i);
      parts_left_.fetch_sub(1, std::memory_order_acq_rel);
    }
  }
}

}  // namespace aclcpu
