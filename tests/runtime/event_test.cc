// Events: record, wait across streams, query, synchronise, reset, elapsed time.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "acl/acl.h"
#include "runtime/live_objects.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;

// `event`, recorded on `producer` behind work that is held back, keeps work
// queued on `consumer` after a wait for it from running until that work is done.
void ExpectEventOrdersStreams(aclrtEvent event, aclrtStream producer, aclrtStream consumer) {
  Gate gate;
  std::atomic<bool> producer_done{false};
  std::atomic<bool> consumer_saw_producer{false};
  ASSERT_EQ(Launch(producer, [&] {
              gate.Wait();
              producer_done = true;
            }),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, producer), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(consumer, event), ACL_SUCCESS);
  ASSERT_EQ(Launch(consumer, [&] { consumer_saw_producer = producer_done.load(); }), ACL_SUCCESS);
  // The consumer is held back by the event, so it cannot finish before the producer does.
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(consumer, 20), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(consumer), ACL_SUCCESS);
  EXPECT_TRUE(consumer_saw_producer);
  TakeMessages();
}

class EventTest : public DeviceTest {
 protected:
  void SetUp() override {
    DeviceTest::SetUp();
    ASSERT_EQ(aclrtCreateEvent(&event_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_a_), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&stream_b_), ACL_SUCCESS);
  }
  void TearDown() override {
    EXPECT_EQ(aclrtDestroyStream(stream_a_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream_b_), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(event_), ACL_SUCCESS);
    DeviceTest::TearDown();
  }

  aclrtEventRecordedStatus Status(aclrtEvent event) {
    aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
    EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
    return status;
  }

  aclrtEvent event_ = nullptr;
  aclrtStream stream_a_ = nullptr;
  aclrtStream stream_b_ = nullptr;
};

TEST(Event, CreateNullIsInvalidParam) {
  TakeMessages();
  EXPECT_EQ(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateEvent: event is null"));
  EXPECT_EQ(aclrtCreateEventWithFlag(nullptr, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateEventWithFlag: event is null"));
  EXPECT_EQ(aclrtCreateEventExWithFlag(nullptr, ACL_EVENT_SYNC), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateEventExWithFlag: event is null"));
}

TEST(Event, CreateWithFlagAcceptsDocumentedFlags) {
  for (uint32_t flag : {ACL_EVENT_SYNC, ACL_EVENT_CAPTURE_STREAM_PROGRESS, ACL_EVENT_TIME_LINE, ACL_EVENT_EXTERNAL,
                        ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE}) {
    aclrtEvent event = nullptr;
    ASSERT_EQ(aclrtCreateEventWithFlag(&event, flag), ACL_SUCCESS) << flag;
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEventExWithFlag(&event, flag), ACL_SUCCESS) << flag;
    EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  }
}

// ACL_EVENT_DEVICE_USE_ONLY (newer headers) only spares an NPU the event's
// host-visible state: here such an event orders two streams and completes as
// any other, alone or with ACL_EVENT_SYNC, made by either create call.
TEST(Event, CreateWithFlagAcceptsDeviceUseOnly) {
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  aclrtStream first = nullptr, second = nullptr;
  ASSERT_EQ(aclrtCreateStream(&first), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
  for (auto create : {aclrtCreateEventWithFlag, aclrtCreateEventExWithFlag}) {
    for (uint32_t flag : {ACL_EVENT_DEVICE_USE_ONLY, ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_SYNC}) {
      aclrtEvent event = nullptr;
      ASSERT_EQ(create(&event, flag), ACL_SUCCESS) << flag;
      ExpectEventOrdersStreams(event, first, second);
      EXPECT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
      aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
      EXPECT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
      EXPECT_EQ(status, ACL_EVENT_RECORDED_STATUS_COMPLETE);
      EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
    }
  }
  EXPECT_EQ(aclrtDestroyStream(first), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
}

// ACL_EVENT_IPC (an event shared between processes) and bits CANN defines no
// flag for are refused with a message naming them; no event is made.
TEST(Event, CreateWithFlagRefusesIpcAndUndefinedBitsNamingThem) {
  TakeMessages();
  const int64_t events = aclcpuLiveObjectCount("events");
  aclrtEvent event = nullptr;
  EXPECT_EQ(aclrtCreateEventWithFlag(&event, ACL_EVENT_IPC), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(),
              HasSubstr("aclrtCreateEventWithFlag: flag (0x40) includes ACL_EVENT_IPC (0x40), which aclcpu does not"));
  EXPECT_EQ(aclrtCreateEventExWithFlag(&event, ACL_EVENT_SYNC | ACL_EVENT_IPC), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateEventExWithFlag: flag (0x41) includes ACL_EVENT_IPC"));
  EXPECT_EQ(aclrtCreateEventWithFlag(&event, 0x4u), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(),
              HasSubstr("aclrtCreateEventWithFlag: flag (0x4) has bit 0x4, which CANN defines no flag"));
  EXPECT_EQ(aclrtCreateEventExWithFlag(&event, 0x100u | ACL_EVENT_TIME_LINE), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtCreateEventExWithFlag: flag (0x108) has bit 0x100"));
  EXPECT_EQ(event, nullptr);
  EXPECT_EQ(aclcpuLiveObjectCount("events"), events);
}

TEST(Event, DestroyNullOrUnknownIsRejected) {
  TakeMessages();
  EXPECT_EQ(aclrtDestroyEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtDestroyEvent: event is null"));
  int not_an_event = 0;
  EXPECT_EQ(aclrtDestroyEvent(&not_an_event), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("is not a live event"));
}

TEST_F(EventTest, UnknownEventHandlesAreParamInvalid) {
  int not_an_event = 0;
  aclrtEventRecordedStatus status;
  EXPECT_EQ(aclrtRecordEvent(&not_an_event, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtRecordEvent: event"));
  EXPECT_EQ(aclrtStreamWaitEvent(nullptr, &not_an_event), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtStreamWaitEvent: event"));
  EXPECT_EQ(aclrtQueryEventStatus(&not_an_event, &status), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeEvent(&not_an_event), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtResetEvent(&not_an_event, nullptr), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtResetEvent: event"));
}

// Handles are never reused (runtime/handle_ids.h): a destroyed event's handle
// names no later event.
TEST_F(EventTest, DestroyedHandleNamesNoLaterEvent) {
  aclrtEvent first = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&first), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyEvent(first), ACL_SUCCESS);
  aclrtEvent second = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&second), ACL_SUCCESS);
  EXPECT_NE(second, first);
  TakeMessages();
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  EXPECT_EQ(aclrtQueryEventStatus(first, &status), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtRecordEvent(first, stream_a_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  EXPECT_EQ(Status(second), ACL_EVENT_RECORDED_STATUS_NOT_READY);  // the stale record did not reach it
  EXPECT_EQ(aclrtDestroyEvent(second), ACL_SUCCESS);
}

TEST_F(EventTest, NullEventArgumentsAreInvalidParam) {
  aclrtEventRecordedStatus status;
  EXPECT_EQ(aclrtRecordEvent(nullptr, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtRecordEvent: event is null"));
  EXPECT_EQ(aclrtSynchronizeEvent(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtSynchronizeEvent: event is null"));
  EXPECT_EQ(aclrtQueryEventStatus(nullptr, &status), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtQueryEventStatus(event_, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtQueryEventStatus: status is null"));
  EXPECT_EQ(aclrtQueryEvent(event_, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtQueryEvent: status is null"));
}

TEST_F(EventTest, RecordOnUnknownStreamIsParamInvalid) {
  int not_a_stream = 0;
  EXPECT_EQ(aclrtRecordEvent(event_, &not_a_stream), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtRecordEvent: stream"));
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);
}

TEST_F(EventTest, NeverRecordedIsNotReady) {
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  aclrtEventStatus old_status = ACL_EVENT_STATUS_COMPLETE;
  EXPECT_EQ(aclrtQueryEvent(event_, &old_status), ACL_SUCCESS);
  EXPECT_EQ(old_status, ACL_EVENT_STATUS_NOT_READY);
}

TEST_F(EventTest, RecordCompletesWhenTheStreamReachesIt) {
  Gate gate;
  ASSERT_EQ(Launch(stream_a_, [&] { gate.Wait(); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  aclrtEventStatus old_status = ACL_EVENT_STATUS_COMPLETE;
  EXPECT_EQ(aclrtQueryEvent(event_, &old_status), ACL_SUCCESS);
  EXPECT_EQ(old_status, ACL_EVENT_STATUS_NOT_READY);
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  EXPECT_EQ(aclrtQueryEvent(event_, &old_status), ACL_SUCCESS);
  EXPECT_EQ(old_status, ACL_EVENT_STATUS_COMPLETE);
}

TEST_F(EventTest, StreamWaitEventOrdersTwoStreams) { ExpectEventOrdersStreams(event_, stream_a_, stream_b_); }

TEST_F(EventTest, WaitOnNeverRecordedEventIsNoOp) {
  std::atomic<bool> ran{false};
  ASSERT_EQ(aclrtStreamWaitEvent(stream_b_, event_), ACL_SUCCESS);
  ASSERT_EQ(Launch(stream_b_, [&] { ran = true; }), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_b_), ACL_SUCCESS);
  EXPECT_TRUE(ran);
}

TEST_F(EventTest, WaitIsForTheRecordCurrentAtTheWaitCall) {
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  // B waits for the (complete) first record...
  ASSERT_EQ(aclrtStreamWaitEvent(stream_b_, event_), ACL_SUCCESS);
  // ...and a later record on a blocked stream does not hold it back.
  Gate gate;
  ASSERT_EQ(Launch(stream_a_, [&] { gate.Wait(); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  std::atomic<bool> ran{false};
  ASSERT_EQ(Launch(stream_b_, [&] { ran = true; }), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_b_), ACL_SUCCESS);
  EXPECT_TRUE(ran);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);  // the newest record is pending
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_F(EventTest, SynchronizeEventWaitsForTheRecord) {
  Gate gate;
  std::atomic<bool> before_record{false};
  ASSERT_EQ(Launch(stream_a_, [&] {
              gate.Wait();
              before_record = true;
            }),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  std::thread opener([&] { gate.Open(); });
  EXPECT_EQ(aclrtSynchronizeEvent(event_), ACL_SUCCESS);
  EXPECT_TRUE(before_record);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  opener.join();
}

TEST_F(EventTest, SynchronizeNeverRecordedEventReturnsAtOnce) {
  EXPECT_EQ(aclrtSynchronizeEvent(event_), ACL_SUCCESS);
}

TEST_F(EventTest, RecordOnNullStreamUsesDefaultStream) {
  Gate gate;
  ASSERT_EQ(Launch(nullptr, [&] { gate.Wait(); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, nullptr), ACL_SUCCESS);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);
}

TEST_F(EventTest, ResetEventForgetsTheRecord) {
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  ASSERT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  ASSERT_EQ(aclrtResetEvent(event_, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, event_, event_), ACL_ERROR_RT_PARAM_INVALID);
  // A reset event can be recorded again.
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(event_), ACL_SUCCESS);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);
  TakeMessages();
}

TEST_F(EventTest, ResetIsQueuedOnTheStream) {
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  Gate gate;
  ASSERT_EQ(Launch(stream_b_, [&] { gate.Wait(); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtResetEvent(event_, stream_b_), ACL_SUCCESS);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_COMPLETE);  // not reached yet
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream_b_), ACL_SUCCESS);
  EXPECT_EQ(Status(event_), ACL_EVENT_RECORDED_STATUS_NOT_READY);
}

TEST_F(EventTest, ElapsedTimeBetweenTwoCompletedRecords) {
  aclrtEvent end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(Launch(stream_a_, [] { std::this_thread::sleep_for(std::chrono::milliseconds(2)); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(end, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  float ms = -1;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, event_, end), ACL_SUCCESS);
  EXPECT_GT(ms, 0.0f);  // the task between the records slept
  EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

TEST_F(EventTest, ElapsedTimeOfUnrecordedEventIsParamInvalid) {
  aclrtEvent end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, event_, end), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtEventElapsedTime: endEvent"));
  EXPECT_EQ(aclrtEventElapsedTime(&ms, end, event_), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtEventElapsedTime: startEvent"));
  EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

TEST_F(EventTest, ElapsedTimeOfIncompleteEventIsEventNotComplete) {
  aclrtEvent end = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&end), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event_, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);  // start is complete
  Gate gate;
  ASSERT_EQ(Launch(stream_a_, [&] { gate.Wait(); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(end, stream_a_), ACL_SUCCESS);
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(&ms, event_, end), ACL_ERROR_RT_EVENT_NOT_COMPLETE);
  EXPECT_THAT(TakeMessages(), HasSubstr("endEvent"));
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  EXPECT_EQ(aclrtEventElapsedTime(&ms, event_, end), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(end), ACL_SUCCESS);
}

TEST_F(EventTest, ElapsedTimeNullArgumentsAreRejected) {
  float ms = 0;
  EXPECT_EQ(aclrtEventElapsedTime(nullptr, event_, event_), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtEventElapsedTime: ms is null"));
  EXPECT_EQ(aclrtEventElapsedTime(&ms, nullptr, event_), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("startEvent is null"));
  EXPECT_EQ(aclrtEventElapsedTime(&ms, event_, nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_THAT(TakeMessages(), HasSubstr("endEvent is null"));
}

TEST_F(EventTest, DestroyWithPendingRecordIsSafe) {
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  Gate gate;
  ASSERT_EQ(Launch(stream_a_, [&] { gate.Wait(); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, stream_a_), ACL_SUCCESS);
  ASSERT_EQ(aclrtStreamWaitEvent(stream_b_, event), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStream(stream_a_), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_b_), ACL_SUCCESS);
}

}  // namespace
}  // namespace aclcpu_test
