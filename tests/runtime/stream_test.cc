// Streams: asynchronous in-order queues, synchronisation, handles, the
// runtime service table.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "runtime/live_objects.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;

using StreamTest = DeviceTest;

TEST_F(StreamTest, LaunchReturnsBeforeTaskRuns) {
  Gate gate;
  std::atomic<bool> ran{false};
  ASSERT_EQ(Launch(nullptr, [&] {
              gate.Wait();
              ran = true;
            }),
            ACL_SUCCESS);
  // The task cannot have finished: it waits for the gate we have not opened.
  EXPECT_FALSE(ran);
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_TRUE(ran);
}

TEST_F(StreamTest, LaterTaskWaitsItsTurn) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Gate gate;
  Gate first_started;
  std::atomic<bool> second_ran{false};
  ASSERT_EQ(Launch(stream, [&] {
              first_started.Open();
              gate.Wait();
            }),
            ACL_SUCCESS);
  ASSERT_EQ(Launch(stream, [&] { second_ran = true; }), ACL_SUCCESS);
  first_started.Wait();
  // Generous wait for a "still blocked" check: the second task must not overtake.
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_FALSE(second_ran);
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_TRUE(second_ran);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StreamTest, TasksRunInSubmissionOrder) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<int> order;  // only the worker writes it
  for (int i = 0; i < 200; ++i) ASSERT_EQ(Launch(stream, [&order, i] { order.push_back(i); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  ASSERT_EQ(order.size(), 200u);
  for (int i = 0; i < 200; ++i) EXPECT_EQ(order[i], i);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StreamTest, SubmittedTasksAreDeletedAfterRunning) {
  int destroyed = 0;
  void* stream = nullptr;
  ASSERT_EQ(Services().resolve_stream(nullptr, &stream), ACL_SUCCESS);
  for (int i = 0; i < 3; ++i) ASSERT_EQ(Services().submit(stream, new FunctionTask([] {}, &destroyed)), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(destroyed, 3);
}

TEST_F(StreamTest, SynchronizeWaitsForPendingWork) {
  Gate gate;
  std::atomic<bool> ran{false};
  std::atomic<bool> synchronized{false};
  ASSERT_EQ(Launch(nullptr, [&] {
              gate.Wait();
              ran = true;
            }),
            ACL_SUCCESS);
  std::thread waiter([&] {
    // Setting the same device makes its primary context current here too, so
    // null names the same default stream.
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    synchronized = true;
    EXPECT_TRUE(ran);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));  // generous "still blocked" check
  EXPECT_FALSE(synchronized);
  gate.Open();
  waiter.join();
  EXPECT_TRUE(synchronized);
}

TEST_F(StreamTest, SynchronizeWithTimeoutTimesOut) {
  Gate gate;
  ASSERT_EQ(Launch(nullptr, [&] { gate.Wait(); }), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtSynchronizeStreamWithTimeout"));
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, -1), ACL_SUCCESS);
}

TEST_F(StreamTest, SynchronizeWithTimeoutSucceedsWhenWorkFinishes) {
  std::atomic<bool> ran{false};
  ASSERT_EQ(Launch(nullptr, [&] { ran = true; }), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 60000), ACL_SUCCESS);
  EXPECT_TRUE(ran);
}

TEST_F(StreamTest, SynchronizeWithTimeoutBelowMinusOneIsInvalidParam) {
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, -2), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtSynchronizeStreamWithTimeout: timeout (-2)"));
}

TEST_F(StreamTest, CreateNullIsInvalidParam) {
  EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateStream: stream is null"));
  EXPECT_EQ(aclrtCreateStreamWithConfig(nullptr, 0, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateStreamWithConfig: stream is null"));
}

TEST(Stream, CreateWithoutContextIsContextNull) {
  std::thread([] {
    TakeMessages();
    aclrtStream stream = nullptr;
    EXPECT_EQ(aclrtCreateStream(&stream), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateStream"));
  }).join();
}

TEST(Stream, NullStreamWithoutContextIsContextNull) {
  std::thread([] {
    TakeMessages();
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT(TakeMessages(), HasSubstr("aclrtSynchronizeStream: stream is null"));
    void* resolved = nullptr;
    EXPECT_EQ(Services().resolve_stream(nullptr, &resolved), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_THAT(TakeMessages(), HasSubstr("no current context"));
  }).join();
}

// A stream made with `flag` runs work queued on it and is destroyed.
void ExpectStreamWithConfigWorks(uint32_t flag) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStreamWithConfig(&stream, 0, flag), ACL_SUCCESS) << "flag 0x" << std::hex << flag;
  std::atomic<bool> ran{false};
  ASSERT_EQ(Launch(stream, [&] { ran = true; }), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_TRUE(ran);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(StreamTest, CreateWithConfigAcceptsDocumentedFlags) {
  for (uint32_t flag : {0u, ACL_STREAM_FAST_LAUNCH, ACL_STREAM_FAST_SYNC, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC}) {
    ExpectStreamWithConfigWorks(flag);
  }
}

// Flags newer CANN headers define that a CPU can ignore: a persistent stream
// (kept for a model runtime instance, which aclcpu has no API for) and a huge
// one (a longer task queue) are ordinary streams here, alone or combined.
TEST(Stream, CreateWithConfigAcceptsPersistentAndHugeFlags) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  for (uint32_t flag : {ACL_STREAM_PERSISTENT, ACL_STREAM_HUGE, ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE,
                        ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE}) {
    ExpectStreamWithConfigWorks(flag);
  }
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

// The flags a CPU cannot honour, and bits CANN defines no flag for, are
// refused with a message naming the flag (or the bit); no stream is made.
TEST_F(StreamTest, CreateWithConfigRefusesOtherFlagsNamingThem) {
  const int64_t streams = aclcpuLiveObjectCount("streams");
  struct Refused {
    uint32_t flag;
    const char* message;
  };
  for (const Refused& refused :
       {Refused{ACL_STREAM_CPU_SCHEDULE, "flag (0x10) includes ACL_STREAM_CPU_SCHEDULE (0x10), which aclcpu does not"},
        Refused{ACL_STREAM_DEVICE_USE_ONLY | ACL_STREAM_HUGE,
                "flag (0x28) includes ACL_STREAM_DEVICE_USE_ONLY (0x20), which aclcpu does not"},
        Refused{0x40u, "flag (0x40) has bit 0x40, which CANN defines no flag for"},
        Refused{ACL_STREAM_FAST_SYNC | 0x80000000u, "flag (0x80000002) has bit 0x80000000"}}) {
    aclrtStream stream = nullptr;
    EXPECT_EQ(aclrtCreateStreamWithConfig(&stream, 0, refused.flag), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(stream, nullptr);
    EXPECT_THAT(TakeMessages(), HasSubstr(std::string("aclrtCreateStreamWithConfig: ") + refused.message));
  }
  EXPECT_EQ(aclcpuLiveObjectCount("streams"), streams);
}

TEST_F(StreamTest, DestroyWaitsForPendingWork) {
  if (StrictMode()) GTEST_SKIP() << "strict mode refuses to destroy a stream with pending work (tests/strict)";
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Gate gate;
  std::atomic<bool> ran{false};
  ASSERT_EQ(Launch(stream, [&] {
              gate.Wait();
              ran = true;
            }),
            ACL_SUCCESS);
  std::thread opener([&] { gate.Open(); });
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_TRUE(ran);
  opener.join();
}

TEST_F(StreamTest, DestroyNullIsInvalidParam) {
  EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtDestroyStream: stream is null"));
}

TEST_F(StreamTest, DestroyUnknownHandleIsParamInvalid) {
  int not_a_stream = 0;
  EXPECT_EQ(aclrtDestroyStream(&not_a_stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtDestroyStream: stream"));
}

TEST_F(StreamTest, DestroyTwiceIsParamInvalid) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("is not a live stream"));
}

// Handles are never reused (runtime/handle_ids.h): a destroyed stream's handle
// names no stream, even when the next stream's memory is the one it had.
TEST_F(StreamTest, DestroyedHandleNamesNoLaterStream) {
  aclrtStream first = nullptr;
  ASSERT_EQ(aclrtCreateStream(&first), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(first), ACL_SUCCESS);
  aclrtStream second = nullptr;
  ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
  EXPECT_NE(second, first);
  TakeMessages();
  EXPECT_EQ(aclrtSynchronizeStream(first), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("is not a live stream"));
  std::atomic<bool> ran{false};
  EXPECT_NE(Launch(first, [&] { ran = true; }), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
  EXPECT_FALSE(ran);
  EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
}

TEST_F(StreamTest, HandleFromBeforeResetDeviceNamesNoStreamAfter) {
  aclrtStream before = nullptr;
  ASSERT_EQ(aclrtCreateStream(&before), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream after = nullptr;
  ASSERT_EQ(aclrtCreateStream(&after), ACL_SUCCESS);
  EXPECT_NE(after, before);
  TakeMessages();
  EXPECT_EQ(aclrtSynchronizeStream(before), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDestroyStream(before), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtDestroyStream(after), ACL_SUCCESS);
}

TEST_F(StreamTest, DestroyDefaultStreamIsParamInvalid) {
  void* default_stream = nullptr;
  ASSERT_EQ(Services().resolve_stream(nullptr, &default_stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(default_stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("default stream"));
  EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);  // still alive
}

TEST_F(StreamTest, SynchronizeUnknownHandleIsParamInvalid) {
  int not_a_stream = 0;
  EXPECT_EQ(aclrtSynchronizeStream(&not_a_stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtSynchronizeStream: stream"));
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(&not_a_stream, 5), ACL_ERROR_RT_PARAM_INVALID);
}

TEST_F(StreamTest, StreamIsUsableFromAnotherThread) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::atomic<bool> ran{false};
  std::thread([&] {
    // No current context on this thread: an explicit handle needs none.
    EXPECT_EQ(Launch(stream, [&] { ran = true; }), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  }).join();
  EXPECT_TRUE(ran);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(RuntimeServices, OtherAbiVersionGetsNull) {
  EXPECT_NE(aclcpuRuntimeServices(aclcpu::kRuntimeServicesAbi), nullptr);
  EXPECT_EQ(aclcpuRuntimeServices(aclcpu::kRuntimeServicesAbi + 1), nullptr);
  EXPECT_EQ(Services().abi_version, aclcpu::kRuntimeServicesAbi);
}

TEST_F(StreamTest, ResolveUnknownHandleIsParamInvalid) {
  int not_a_stream = 0;
  void* resolved = nullptr;
  EXPECT_EQ(Services().resolve_stream(&not_a_stream, &resolved), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("is not a live stream"));
}

TEST_F(StreamTest, SubmitToDestroyedStreamDeletesTaskUnrun) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void* resolved = nullptr;
  ASSERT_EQ(Services().resolve_stream(stream, &resolved), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  int destroyed = 0;
  bool ran = false;
  EXPECT_EQ(Services().submit(resolved, new FunctionTask([&] { ran = true; }, &destroyed)),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(destroyed, 1);
  EXPECT_FALSE(ran);
  EXPECT_THAT(TakeMessages(), HasSubstr("FunctionTask: stream"));
}

TEST(RuntimeServices, DeviceToHostReturnsTheAddress) {
  if (StrictMode()) GTEST_SKIP() << "strict mode refuses host memory as device memory (tests/strict)";
  int value = 0;
  EXPECT_EQ(Services().device_to_host(&value, sizeof value, "self"), &value);
}

TEST(RuntimeServices, DeviceToHostOfNullRecordsMessageNamingOperand) {
  TakeMessages();
  EXPECT_EQ(Services().device_to_host(nullptr, 4, "gradOutput"), nullptr);
  EXPECT_THAT(TakeMessages(), HasSubstr("gradOutput"));
}

}  // namespace
}  // namespace aclcpu_test
