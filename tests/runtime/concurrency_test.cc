// Many host threads using the runtime at once; results are checked, and the
// registries must stay consistent (run under TSan/ASan to catch races).
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

constexpr int kThreads = 6;
constexpr int kRounds = 20;

TEST(Concurrency, ThreadsCreateStreamsLaunchSynchronizeAndAllocateAtOnce) {
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, &failures] {
      auto check = [&](bool ok) {
        if (!ok) ++failures;
      };
      check(aclrtSetDevice(t % 2) == ACL_SUCCESS);
      for (int round = 0; round < kRounds; ++round) {
        aclrtStream stream = nullptr;
        check(aclrtCreateStream(&stream) == ACL_SUCCESS);
        const size_t bytes = 1024 + 64 * static_cast<size_t>(t);
        void* device = nullptr;
        check(aclrtMalloc(&device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS);
        const unsigned char fill = static_cast<unsigned char>(t * 31 + round);
        std::vector<unsigned char> result(bytes, 0);
        int launched_sum = 0;
        check(aclrtMemsetAsync(device, bytes, fill, bytes, stream) == ACL_SUCCESS);
        for (int i = 1; i <= 10; ++i) check(Launch(stream, [&launched_sum, i] { launched_sum += i; }) == ACL_SUCCESS);
        check(aclrtMemcpyAsync(result.data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream) == ACL_SUCCESS);
        check(aclrtSynchronizeStream(stream) == ACL_SUCCESS);
        check(launched_sum == 55);
        check(result == std::vector<unsigned char>(bytes, fill));
        check(aclrtFree(device) == ACL_SUCCESS);
        check(aclrtDestroyStream(stream) == ACL_SUCCESS);
      }
      check(aclrtResetDevice(t % 2) == ACL_SUCCESS);
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST(Concurrency, ThreadsSubmittingToOneStreamKeepTheirOwnOrder) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<std::vector<int>> seen(kThreads);  // written only by the stream's worker
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([t, stream, &seen] {
      for (int i = 0; i < 100; ++i) EXPECT_EQ(Launch(stream, [t, i, &seen] { seen[t].push_back(i); }), ACL_SUCCESS);
    });
  }
  for (auto& thread : threads) thread.join();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  for (int t = 0; t < kThreads; ++t) {
    ASSERT_EQ(seen[t].size(), 100u);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(seen[t][i], i);
  }
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST(Concurrency, EventsSignalAcrossThreadsAndStreams) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([context, &failures] {
      if (aclrtSetCurrentContext(context) != ACL_SUCCESS) ++failures;
      for (int round = 0; round < kRounds; ++round) {
        aclrtStream producer = nullptr, consumer = nullptr;
        aclrtEvent event = nullptr;
        if (aclrtCreateStream(&producer) != ACL_SUCCESS || aclrtCreateStream(&consumer) != ACL_SUCCESS ||
            aclrtCreateEvent(&event) != ACL_SUCCESS) {
          ++failures;
          continue;
        }
        std::atomic<bool> produced{false};
        bool consumer_saw = false;
        if (Launch(producer, [&] { produced = true; }) != ACL_SUCCESS) ++failures;
        if (aclrtRecordEvent(event, producer) != ACL_SUCCESS) ++failures;
        if (aclrtStreamWaitEvent(consumer, event) != ACL_SUCCESS) ++failures;
        if (Launch(consumer, [&] { consumer_saw = produced.load(); }) != ACL_SUCCESS) ++failures;
        if (aclrtSynchronizeStream(consumer) != ACL_SUCCESS || !consumer_saw) ++failures;
        if (aclrtDestroyEvent(event) != ACL_SUCCESS) ++failures;
        if (aclrtDestroyStream(producer) != ACL_SUCCESS || aclrtDestroyStream(consumer) != ACL_SUCCESS) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

TEST(Concurrency, ThreadsSettingAndResettingDevicesStayBalanced) {
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&failures] {
      for (int round = 0; round < kRounds; ++round) {
        if (aclrtSetDevice(0) != ACL_SUCCESS) ++failures;
        aclrtStream stream = nullptr;
        // Another thread's reset may not destroy the context while we hold a reference.
        if (aclrtCreateStream(&stream) != ACL_SUCCESS) ++failures;
        if (Launch(nullptr, [] {}) != ACL_SUCCESS) ++failures;
        if (aclrtSynchronizeStream(nullptr) != ACL_SUCCESS) ++failures;
        if (aclrtDestroyStream(stream) != ACL_SUCCESS) ++failures;
        if (aclrtResetDevice(0) != ACL_SUCCESS) ++failures;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_EQ(failures.load(), 0);
  std::thread([] {
    aclrtContext context = nullptr;
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetCurrentContext(&context), ACL_SUCCESS);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetCurrentContext(&context), ACL_ERROR_RT_CONTEXT_NULL);  // all references released
    TakeMessages();
  }).join();
}

}  // namespace
}  // namespace aclcpu_test
