// The worker pool: every part runs exactly once, on distinct threads when the
// pool is free, and everything on the caller when another job holds the pool.
// Jobs are handed to workers without a lock (thread_pool.h); this binary also
// runs under ThreadSanitizer (scripts/ci/10-sanitizers.sh).
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "parallel/thread_pool.h"

namespace aclcpu {
namespace {

TEST(ThreadPool, RunsEveryPartExactlyOnceAndReturnsAfterAll) {
  ThreadPool pool(3);
  for (int round = 0; round < 200; ++round) {
    std::vector<std::atomic<int>> calls(3);
    pool.Run(3, [&](int part) { calls[part].fetch_add(1); });
    for (auto& count : calls) ASSERT_EQ(count.load(), 1) << "round " << round;
  }
}

TEST(ThreadPool, PartsRunOnDistinctThreadsWithPartZeroOnTheCaller) {
  ThreadPool pool(2);
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::thread::id part_zero;
  pool.Run(2, [&](int part) {
    std::lock_guard<std::mutex> lock(mutex);
    threads.insert(std::this_thread::get_id());
    if (part == 0) part_zero = std::this_thread::get_id();
  });
  EXPECT_EQ(threads.size(), 2u);
  EXPECT_EQ(part_zero, std::this_thread::get_id());
}

// A launch sized for the configured thread count still covers all its parts
// when the pool has fewer threads (some failed to start).
TEST(ThreadPool, MorePartsThanThreadsEachRunExactlyOnce) {
  ThreadPool pool(2);
  for (int round = 0; round < 100; ++round) {
    std::vector<std::atomic<int>> calls(5);
    pool.Run(5, [&](int part) { calls[part].fetch_add(1); });
    for (auto& count : calls) ASSERT_EQ(count.load(), 1) << "round " << round;
  }
}

// What one job did: how often each part ran, and on which threads.
struct JobRecord {
  std::vector<int> calls_per_part;
  std::set<std::thread::id> threads;
};

JobRecord RunRecordedJob(ThreadPool& pool, int parts) {
  std::mutex mutex;
  JobRecord record;
  record.calls_per_part.assign(parts, 0);
  pool.Run(parts, [&](int part) {
    std::lock_guard<std::mutex> lock(mutex);
    ++record.calls_per_part[part];
    record.threads.insert(std::this_thread::get_id());
  });
  return record;
}

// Workers beyond a job's part count take no part in it: each part runs once,
// on as many threads as there are parts (thread_pool.h: those workers never
// read the job, which TSan checks).
TEST(ThreadPool, JobWithFewerPartsThanThreadsRunsOnThatManyThreads) {
  ThreadPool pool(4);
  for (int round = 0; round < 500; ++round) {
    const JobRecord record = RunRecordedJob(pool, 2);
    ASSERT_EQ(record.calls_per_part, std::vector<int>(2, 1)) << "round " << round;
    ASSERT_EQ(record.threads.size(), 2u) << "round " << round;
  }
}

// Idle workers spin for a while and then sleep; the next job wakes them and
// still runs its parts on them.
TEST(ThreadPool, JobAfterWorkersFellAsleepRunsOnWorkers) {
  ThreadPool pool(3);
  for (int round = 0; round < 5; ++round) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // well past the spin (spin_wait.h)
    const JobRecord record = RunRecordedJob(pool, 3);
    ASSERT_EQ(record.calls_per_part, std::vector<int>(3, 1)) << "round " << round;
    EXPECT_EQ(record.threads.size(), 3u) << "round " << round;
  }
}

TEST(ThreadPool, ConcurrentJobsFromSeveralThreadsAllComplete) {
  ThreadPool pool(2);
  std::atomic<int> total{0};
  std::vector<std::thread> callers;
  for (int caller = 0; caller < 4; ++caller) {
    callers.emplace_back([&] {
      for (int i = 0; i < 100; ++i) pool.Run(2, [&](int) { total.fetch_add(1); });
    });
  }
  for (std::thread& caller : callers) caller.join();
  EXPECT_EQ(total.load(), 4 * 100 * 2);
}

}  // namespace
}  // namespace aclcpu
