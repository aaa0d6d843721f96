// Streams: where work runs when the stream is idle (on the submitting thread,
// for tasks that ask for it) and the per-thread stream resolution behind every
// launch and synchronise call. Order and synchronisation must not change.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;

// Submits a SubmitterThreadTask through the runtime's service table.
aclError LaunchOnSubmitter(aclrtStream stream, std::function<void()> body, bool tiny) {
  void* resolved = nullptr;
  const aclError status = Services().resolve_stream(stream, &resolved);
  if (status != ACL_SUCCESS) return status;
  return Services().submit(resolved, new SubmitterThreadTask(std::move(body), tiny));
}

class SubmitterThread : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtCreateStream(&stream_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_), ACL_SUCCESS);
    DeviceTest::TearDown();
  }
  aclrtStream stream_ = nullptr;
};

// Default mode: the task has run, on this thread, when submit returns. Strict
// mode keeps it queued (its race checks need pending work), so it runs on the
// stream's worker.
TEST_F(SubmitterThread, IdleStreamRunsTaskOnSubmittingThreadOutsideStrictMode) {
  for (const bool tiny : {false, true}) {
    std::thread::id ran_on;
    ASSERT_EQ(LaunchOnSubmitter(stream_, [&] { ran_on = std::this_thread::get_id(); }, tiny), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    if (StrictMode() && !tiny) {
      EXPECT_NE(ran_on, std::this_thread::get_id()) << "strict mode ran a non-tiny task inline";
    } else {
      EXPECT_EQ(ran_on, std::this_thread::get_id()) << (tiny ? "tiny" : "non-tiny") << " task was handed over";
    }
  }
}

TEST_F(SubmitterThread, BusyStreamQueuesTaskBehindEarlierWork) {
  for (const bool tiny : {false, true}) {
    Gate gate;
    std::vector<int> order;
    ASSERT_EQ(Launch(stream_, [&] {
                gate.Wait();
                order.push_back(1);
              }),
              ACL_SUCCESS);
    std::thread::id ran_on;
    ASSERT_EQ(LaunchOnSubmitter(stream_,
                                [&] {
                                  ran_on = std::this_thread::get_id();
                                  order.push_back(2);
                                },
                                tiny),
              ACL_SUCCESS);
    gate.Open();
    ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
    EXPECT_EQ(order, (std::vector<int>{1, 2}));
    EXPECT_NE(ran_on, std::this_thread::get_id());
  }
}

// Another thread's submission while a task runs on its submitter's thread is
// queued and runs after it; synchronising waits for both.
TEST_F(SubmitterThread, WorkSubmittedWhileTaskRunsOnSubmitterRunsAfterIt) {
  std::vector<int> order;
  std::atomic<bool> second_submitted{false};
  std::thread other;
  std::atomic<bool> other_started{false};  // `other` is assigned (strict mode runs the task on the worker)
  ASSERT_EQ(LaunchOnSubmitter(stream_,
                              [&] {
                                order.push_back(1);
                                other = std::thread([&] {
                                  EXPECT_EQ(Launch(stream_, [&] { order.push_back(2); }), ACL_SUCCESS);
                                  second_submitted = true;
                                });
                                other_started = true;
                                while (!second_submitted) std::this_thread::yield();
                                // Give an out-of-order worker every chance to overtake.
                                std::this_thread::sleep_for(std::chrono::milliseconds(20));
                              },
                              /*tiny=*/false),
            ACL_SUCCESS);
  while (!other_started) std::this_thread::yield();
  other.join();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

// The stream a thread resolved last is cached; destroying it must invalidate
// that, whichever thread destroys it.
TEST_F(SubmitterThread, SynchronizeOnDestroyedStreamIsParamInvalidRightAfterUse) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  std::thread([&] { EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS); }).join();
  TakeMessages();
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("is not a live stream"));
  EXPECT_EQ(Launch(stream, [] {}), ACL_ERROR_RT_PARAM_INVALID);
}

// The null stream is the current context's default stream, also right after
// the thread used another context's.
TEST_F(SubmitterThread, NullStreamFollowsCurrentContextChange) {
  aclrtContext first = nullptr;
  aclrtContext second = nullptr;
  ASSERT_EQ(aclrtCreateContext(&first, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateContext(&second, 0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetCurrentContext(first), ACL_SUCCESS);
  Gate gate;
  ASSERT_EQ(Launch(nullptr, [&] { gate.Wait(); }), ACL_SUCCESS);  // first's default stream stays busy
  ASSERT_EQ(aclrtSetCurrentContext(second), ACL_SUCCESS);
  std::atomic<bool> ran{false};
  ASSERT_EQ(Launch(nullptr, [&] { ran = true; }), ACL_SUCCESS);
  // Only second's default stream: returns although first's is blocked.
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_TRUE(ran);
  EXPECT_FALSE(gate.IsOpen());
  gate.Open();
  ASSERT_EQ(aclrtSetCurrentContext(first), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(second), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyContext(first), ACL_SUCCESS);
}

}  // namespace
}  // namespace aclcpu_test
