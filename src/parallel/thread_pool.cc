#include "parallel/thread_pool.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <new>

#include "common/env.h"
#include "common/fault_injection.h"
#include "common/spin_wait.h"

namespace aclcpu {
namespace {

// ACLCPU_NUM_THREADS: a positive integer (at most 256 are used). Any other
// value is reported on stderr, once, and the default is used: every core.
int ThreadCountFromEnvironment() {
  constexpr long kMaxThreads = ThreadPool::kMaxThreads;
  const unsigned cores = std::thread::hardware_concurrency();
  const int every_core = cores > 0 ? static_cast<int>(cores) : 1;
  const char* requested = GetEnv("ACLCPU_NUM_THREADS");
  if (requested == nullptr) return every_core;
  long count = 0;
  if (!ParsePositiveInteger(requested, &count)) {
    std::fprintf(stderr,
                 "aclcpu: ignoring ACLCPU_NUM_THREADS=%s: not a positive integer; using %d threads (one per core)\n",
                 requested, every_core);
    return every_core;
  }
  return static_cast<int>(count < kMaxThreads ? count : kMaxThreads);
}

}  // namespace

int ThreadPool::ConfiguredThreads() {
  static const int count = ThreadCountFromEnvironment();
  return count;
}

ThreadPool& ThreadPool::Get() {
  // Static storage, not `new`: the first call comes from a launch on a stream's
  // worker thread (or the caller), where std::bad_alloc would have been caught
  // and the launch dropped: out left unwritten. Never destroyed: launches may
  // still run on stream threads at process exit.
  alignas(ThreadPool) static unsigned char storage[sizeof(ThreadPool)];
  static ThreadPool* const pool = ::new (static_cast<void*>(storage)) ThreadPool(ConfiguredThreads());
  return *pool;
}

// A worker that cannot be started (no thread, or no memory for its start-up
// state) is not an error: the pool keeps the workers it has, and jobs are split
// over fewer threads (RunErased: a thread may run several parts), with the same results.
ThreadPool::ThreadPool(int num_threads) noexcept {
  const int wanted = num_threads < kMaxThreads ? num_threads : kMaxThreads;
  for (int i = 1; i < wanted; ++i) {
    if (InjectFault(FaultSite::kThreadPoolStart) || !workers_[i - 1].Start([this, i] { WorkerLoop(i); })) break;
    ++num_workers_;
  }
}

ThreadPool::~ThreadPool() {
  Publish(0);  // a generation no thread takes part in: the workers return
  for (int i = 0; i < num_workers_; ++i) workers_[i].join();
}

void ThreadPool::Publish(int threads) {
  const uint64_t counter = job_.generation.load(std::memory_order_relaxed) >> kThreadsBits;
  // Sequentially consistent, with the load of sleepers_ after it: a worker
  // counts itself a sleeper before its last look at the generation (WorkerLoop),
  // so either it sees this job or this sees it and wakes it.
  job_.generation.store((counter + 1) << kThreadsBits | static_cast<uint64_t>(threads), std::memory_order_seq_cst);
  if (sleepers_.load(std::memory_order_seq_cst) > 0) {
    // Taking the mutex orders this after a sleeper's check of the generation
    // (made holding it), so the notification cannot fall before its wait.
    std::lock_guard<std::mutex> lock(mutex_);
    wake_.notify_all();
  }
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
  // The workers of the previous job are done with these (this thread saw each
  // count its job done after reading them).
  job_.fn = fn;
  job_.context = context;
  job_.parts = parts;
  finishes_awaited_ += static_cast<uint64_t>(threads - 1);
  Publish(threads);
  for (int i = 0; i < parts; i += threads) fn(context, i);
  // The other parts are short (a launch split in equal pieces): spin.
  while (worker_finishes_.load(std::memory_order_acquire) != finishes_awaited_) CpuRelax();
}

void ThreadPool::WorkerLoop(int worker_index) {
  uint64_t seen = 0;
  for (;;) {
    // Spin for a while, then sleep until the generation moves.
    uint64_t generation = seen;
    const auto job_published = [&] {
      generation = job_.generation.load(std::memory_order_seq_cst);
      return generation != seen;
    };
    if (!SpinUntil(job_published)) {
      std::unique_lock<std::mutex> lock(mutex_);
      sleepers_.fetch_add(1, std::memory_order_seq_cst);
      wake_.wait(lock, job_published);
      sleepers_.fetch_sub(1, std::memory_order_relaxed);
    }
    seen = generation;
    const int threads = static_cast<int>(generation & kThreadsMask);
    if (threads == 0) return;               // the destructor's (jobs have 2 or more)
    if (worker_index >= threads) continue;  // no part of this job is ours
    // This worker takes part, so the caller leaves the job alone until it is
    // counted done below; the load above (seq_cst, so also acquire) saw the
    // store that published it, so the fields are this job's.
    const PartFn fn = job_.fn;
    const void* const context = job_.context;
    const int parts = job_.parts;
    for (int i = worker_index; i < parts; i += threads) fn(context, i);
    worker_finishes_.fetch_add(1, std::memory_order_acq_rel);
  }
}

}  // namespace aclcpu
