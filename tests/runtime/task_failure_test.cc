// Issue "Hardening the edges", clause 2: no exception crosses the C ABI, and a
// failure never yields a silently wrong answer. A task queued on a stream that
// fails while it runs (it returns false, or throws — e.g. std::bad_alloc) is
// remembered by the stream and reported, once, by the next synchronisation
// that covers it — aclrtSynchronizeStream[WithTimeout], aclrtSynchronizeDevice,
// or aclrtSynchronizeEvent of an event recorded after it —, with
// kStreamTaskFailed (507015, ACL_ERROR_RT_AICORE_EXCEPTION) and a message
// naming the task, as an NPU reports a failed kernel at synchronisation.
#include <gtest/gtest.h>

#include <new>
#include <string>

#include "acl/acl.h"
#include "runtime_test_support.h"

namespace aclcpu_test {
namespace {

constexpr aclError kTaskFailed = ACL_ERROR_RT_AICORE_EXCEPTION;

// A task that fails as `how` says, on the stream's worker or, when it asks to
// (RunsWhereSubmitted, IsTiny), on the submitting thread of an idle stream.
class FailingTask final : public aclcpu::Task {
 public:
  enum class How { kReturnsFalse, kThrowsBadAlloc, kThrowsInt };
  FailingTask(How how, const char* name, bool where_submitted = false, bool tiny = false, Gate* gate = nullptr)
      : how_(how), name_(name), where_submitted_(where_submitted), tiny_(tiny), gate_(gate) {}
  bool Run() override {
    if (gate_ != nullptr) gate_->Wait();
    switch (how_) {
      case How::kReturnsFalse: return false;
      case How::kThrowsBadAlloc: throw std::bad_alloc();
      case How::kThrowsInt: throw 42;
    }
    return true;
  }
  const char* Name() const override { return name_; }
  bool RunsWhereSubmitted() const override { return where_submitted_; }
  bool IsTiny() const override { return tiny_; }

 private:
  How how_;
  const char* name_;
  bool where_submitted_;
  bool tiny_;
  Gate* gate_;
};

aclError Submit(aclrtStream stream, aclcpu::Task* task) {
  void* resolved = nullptr;
  const aclError status = Services().resolve_stream(stream, &resolved);
  if (status != ACL_SUCCESS) return status;
  return Services().submit(resolved, task);
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

using HardeningTheEdgesClause2 = DeviceTest;

TEST_F(HardeningTheEdgesClause2, ATaskThatThrowsOnTheWorkerFailsTheNextSynchronizeStreamOnceWithAMessageNamingIt) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Gate gate;
  // Behind a closed gate, so it runs on the stream's worker thread.
  ASSERT_EQ(Launch(stream, [&gate] { gate.Wait(); }), ACL_SUCCESS);
  ASSERT_EQ(Submit(stream, new FailingTask(FailingTask::How::kThrowsBadAlloc, "ThrowingTask")), ACL_SUCCESS);
  int later = 0;
  ASSERT_EQ(Launch(stream, [&later] { ++later; }), ACL_SUCCESS);
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStream(stream), kTaskFailed);
  const std::string message = TakeMessages();
  EXPECT_TRUE(Contains(message, "aclrtSynchronizeStream")) << message;
  EXPECT_TRUE(Contains(message, "ThrowingTask")) << message;
  EXPECT_TRUE(Contains(message, "std::bad_alloc")) << message;
  EXPECT_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL), kTaskFailed);
  EXPECT_EQ(later, 1) << "the stream ran on after the failed task";
  // Reported once: the next synchronisation has nothing to report.
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(TakeMessages(), "");
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(HardeningTheEdgesClause2, ATaskThatReturnsFailureFailsTheNextSynchronizeStreamWithTimeoutButNotATimedOutOne) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Gate gate;
  ASSERT_EQ(Submit(stream, new FailingTask(FailingTask::How::kReturnsFalse, "FirstFailure", false, false, &gate)),
            ACL_SUCCESS);
  ASSERT_EQ(Submit(stream, new FailingTask(FailingTask::How::kThrowsInt, "SecondFailure")), ACL_SUCCESS);
  // Not done yet: a timeout, and the failures stay for the synchronisation that sees them done.
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 0), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
  TakeMessages();
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, -1), kTaskFailed);
  const std::string message = TakeMessages();
  EXPECT_TRUE(Contains(message, "aclrtSynchronizeStreamWithTimeout")) << message;
  EXPECT_TRUE(Contains(message, "FirstFailure")) << message;
  EXPECT_TRUE(Contains(message, "reported a failure")) << message;
  EXPECT_TRUE(Contains(message, "1 later task")) << message;  // the second one, counted in the same report
  EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(stream, 1000), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

// A launch on an idle stream runs on the submitting thread (RunsWhereSubmitted)
// or under the stream's lock (IsTiny): a failure there is reported the same way,
// by the synchronisation, not by the submission (which was accepted, as on an NPU).
TEST_F(HardeningTheEdgesClause2, ATaskThatFailsOnTheSubmittingThreadOfAnIdleStreamFailsTheNextSynchronisation) {
  for (const bool tiny : {false, true}) {
    SCOPED_TRACE(tiny ? "tiny" : "runs where submitted");
    EXPECT_EQ(Submit(nullptr, new FailingTask(FailingTask::How::kThrowsBadAlloc, "InlineTask", true, tiny)),
              ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), kTaskFailed);
    EXPECT_TRUE(Contains(TakeMessages(), "InlineTask"));
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  }
}

TEST_F(HardeningTheEdgesClause2, AFailedTaskFailsTheNextSynchronizeDeviceOncePerStream) {
  aclrtStream first = nullptr;
  aclrtStream second = nullptr;
  ASSERT_EQ(aclrtCreateStream(&first), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&second), ACL_SUCCESS);
  ASSERT_EQ(Submit(first, new FailingTask(FailingTask::How::kReturnsFalse, "FailedOnFirst")), ACL_SUCCESS);
  ASSERT_EQ(Submit(second, new FailingTask(FailingTask::How::kThrowsBadAlloc, "FailedOnSecond")), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeDevice(), kTaskFailed);
  const std::string message = TakeMessages();
  EXPECT_TRUE(Contains(message, "aclrtSynchronizeDevice")) << message;
  EXPECT_TRUE(Contains(message, "FailedOnFirst")) << message;
  EXPECT_TRUE(Contains(message, "FailedOnSecond")) << message;
  // Reported: neither the device nor the streams report them again.
  EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(first), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(second), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(first), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(second), ACL_SUCCESS);
}

TEST_F(HardeningTheEdgesClause2, AFailedTaskFailsSynchronizeEventOfARecordAfterItNotOfARecordBeforeIt) {
  aclrtStream stream = nullptr;
  aclrtEvent before = nullptr;
  aclrtEvent after = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&before), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateEvent(&after), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(before, stream), ACL_SUCCESS);
  ASSERT_EQ(Submit(stream, new FailingTask(FailingTask::How::kThrowsBadAlloc, "FailedBetweenRecords")), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(after, stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeEvent(before), ACL_SUCCESS) << "the record before the failure completed normally";
  EXPECT_EQ(aclrtSynchronizeEvent(after), kTaskFailed);
  const std::string message = TakeMessages();
  EXPECT_TRUE(Contains(message, "aclrtSynchronizeEvent")) << message;
  EXPECT_TRUE(Contains(message, "FailedBetweenRecords")) << message;
  // Reported once: not again by the event, nor by the stream.
  EXPECT_EQ(aclrtSynchronizeEvent(after), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(before), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyEvent(after), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

}  // namespace
}  // namespace aclcpu_test
