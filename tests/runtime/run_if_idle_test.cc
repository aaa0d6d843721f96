// The runtime's run_if_idle service: work run on the calling thread as a
// stream's next work when that stream is idle, or not at all (phase 2 of tiny
// launches uses it; services.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "acl/acl.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

using ::testing::HasSubstr;

using RunIfIdleTest = DeviceTest;

struct Record {
  std::atomic<int> runs{0};
  std::thread::id thread;
};

void RecordRun(const void* context) {
  Record* record = static_cast<Record*>(const_cast<void*>(context));
  record->thread = std::this_thread::get_id();
  ++record->runs;
}

TEST_F(RunIfIdleTest, RunsOnTheCallingThreadWhenTheStreamIsIdle) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Record record;
  int ran = -1;
  ASSERT_EQ(Services().run_if_idle(stream, "test", &RecordRun, &record, &ran), ACL_SUCCESS);
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(record.runs, 1);
  EXPECT_EQ(record.thread, std::this_thread::get_id());
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 0), ACL_SUCCESS);  // nothing left to wait for
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(RunIfIdleTest, NullStreamIsTheDefaultStream) {
  Record record;
  int ran = -1;
  ASSERT_EQ(Services().run_if_idle(nullptr, "test", &RecordRun, &record, &ran), ACL_SUCCESS);
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(record.runs, 1);
}

TEST_F(RunIfIdleTest, RunsNothingBehindQueuedWork) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Gate gate;
  ASSERT_EQ(Launch(stream, [&] { gate.Wait(); }), ACL_SUCCESS);
  Record record;
  int ran = -1;
  ASSERT_EQ(Services().run_if_idle(stream, "test", &RecordRun, &record, &ran), ACL_SUCCESS);
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(record.runs, 0);
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(record.runs, 0);  // not queued either: the caller queues a task instead
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// Work queued after an in-place run runs after it, and a synchronise call
// waits for that later work only.
TEST_F(RunIfIdleTest, LaterWorkRunsAfterIt) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Record record;
  int ran = -1;
  ASSERT_EQ(Services().run_if_idle(stream, "test", &RecordRun, &record, &ran), ACL_SUCCESS);
  ASSERT_EQ(ran, 1);
  std::atomic<int> runs_seen_by_later_task{-1};
  ASSERT_EQ(Launch(stream, [&] { runs_seen_by_later_task = record.runs.load(); }), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(runs_seen_by_later_task, 1);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(RunIfIdleTest, UnknownStreamIsParamInvalidAndRunsNothing) {
  int not_a_stream = 0;
  Record record;
  int ran = -1;
  EXPECT_EQ(Services().run_if_idle(&not_a_stream, "test", &RecordRun, &record, &ran), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(record.runs, 0);
  EXPECT_THAT(TakeMessages(), HasSubstr("is not a live stream"));
}

TEST_F(RunIfIdleTest, DestroyedStreamIsParamInvalidAndRunsNothing) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  Record record;
  int ran = -1;
  EXPECT_EQ(Services().run_if_idle(stream, "test", &RecordRun, &record, &ran), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(record.runs, 0);
  EXPECT_NE(TakeMessages(), "");
}

}  // namespace
}  // namespace aclcpu_test
