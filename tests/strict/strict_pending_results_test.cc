// Strict mode, "results pending until synchronised" (README, strict mode): a
// launch's out may be read, and its inputs written, by synchronous host calls
// only after the host has synchronised with it — aclrtSynchronizeStream (or its
// timeout form), aclrtSynchronizeDevice, or an event recorded after the launch
// that aclrtSynchronizeEvent waited for or a query reported complete. On an NPU
// the host cannot know earlier that the launch finished, so such a read races
// with it; here small launches run inline, which would hide the race without
// this rule. Each test launches on 64 elements, which run inline on an idle
// stream, so the launch has finished by the time the host reads (unless
// something is queued ahead of it, as in AnEventRecordedBeforeTheLaunch...).
#include <vector>

#include "strict_test_util.h"

namespace aclcpu_strict_test {
namespace {

class PendingResults : public StrictTest {
 protected:
  // Launches the operator on `operands` on `stream` (an inline run: finished
  // when this returns).
  void Launch(FloatOperands& operands, aclrtStream stream) {
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.out.get(), &executor), ACLNN_SUCCESS);
    ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream), ACLNN_SUCCESS);
  }

  // A synchronous read of out: refused with the "not synchronised" message,
  // nothing copied.
  void ExpectReadOfOutRefused(const FloatOperands& operands, aclrtStream stream) {
    std::vector<float> host(64, -1.0f);
    EXPECT_EQ(aclrtMemcpy(host.data(), 256, operands.out.device(), 256, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(TakeMessages(),
                AllOf(HasSubstr("aclrtMemcpy: src [" + Hex(operands.out.device()) +
                                ", +256 bytes) is written by aclnnHardsigmoidBackward on stream " + Hex(stream)),
                      HasSubstr("the host has not synchronised with it"), HasSubstr("pending until")));
    EXPECT_EQ(host, std::vector<float>(64, -1.0f));
  }

  // A synchronous read of out succeeds and holds the launch's result.
  void ExpectReadOfOutAllowed(const FloatOperands& operands) {
    std::vector<float> host(64, -1.0f);
    EXPECT_EQ(aclrtMemcpy(host.data(), 256, operands.out.device(), 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS)
        << TakeMessages();
    EXPECT_EQ(host, FloatOperands::Expected(64));
  }

  // A second stream, destroyed with the fixture.
  aclrtStream OtherStream() {
    if (other_stream_ == nullptr) {
      EXPECT_EQ(aclrtCreateStream(&other_stream_), ACL_SUCCESS);
    }
    return other_stream_;
  }

  void TearDown() override {
    if (other_stream_ != nullptr) {
      EXPECT_EQ(aclrtSynchronizeStream(other_stream_), ACL_SUCCESS);
      EXPECT_EQ(aclrtDestroyStream(other_stream_), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  }

  aclrtStream other_stream_ = nullptr;
};

TEST_F(PendingResults, ReadingOutOfALaunchThatRanInlineIsRefusedUntilTheStreamIsSynchronised) {
  FloatOperands operands;
  ASSERT_NO_FATAL_FAILURE(Launch(operands, stream_));
  ExpectReadOfOutRefused(operands, stream_);
  // With ACL_MEMCPY_DEFAULT, and device to device, too.
  void* copy = nullptr;
  ASSERT_EQ(aclrtMalloc(&copy, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(copy, 256, operands.out.device(), 256, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("the host has not synchronised with it"));
  std::vector<float> host(64, -1.0f);
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, operands.out.device(), 256, ACL_MEMCPY_DEFAULT),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("the host has not synchronised with it"));
  // Reading an input is no race: the launch only reads it.
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, operands.grad.device(), 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  ExpectReadOfOutAllowed(operands);
  EXPECT_EQ(aclrtFree(copy), ACL_SUCCESS);
}

TEST_F(PendingResults, WritingAnInputOfALaunchThatRanInlineIsRefusedUntilTheStreamIsSynchronised) {
  FloatOperands operands;
  ASSERT_NO_FATAL_FAILURE(Launch(operands, stream_));
  std::vector<float> zeros(64, 0.0f);
  EXPECT_EQ(aclrtMemcpy(operands.self.device(), 256, zeros.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclrtMemcpy: dst [" + Hex(operands.self.device()) +
                                              ", +256 bytes) is read by aclnnHardsigmoidBackward"),
                                    HasSubstr("the host has not synchronised with it")));
  EXPECT_EQ(aclrtMemset(operands.grad.device(), 256, 0, 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemset: devPtr"));
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(operands.grad.device(), 256, 0, 4), ACL_SUCCESS);
  ExpectReadOfOutAllowed(operands);  // the refused writes changed nothing
}

TEST_F(PendingResults, SynchronisingTheStreamWithATimeoutEndsThePendingState) {
  FloatOperands operands;
  ASSERT_NO_FATAL_FAILURE(Launch(operands, stream_));
  ASSERT_EQ(aclrtSynchronizeStreamWithTimeout(stream_, 10000), ACL_SUCCESS);
  ExpectReadOfOutAllowed(operands);
}

TEST_F(PendingResults, SynchronisingTheDeviceEndsThePendingStateOfEveryStream) {
  FloatOperands on_default, on_other;
  ASSERT_NO_FATAL_FAILURE(Launch(on_default, stream_));
  ASSERT_NO_FATAL_FAILURE(Launch(on_other, OtherStream()));
  ASSERT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);
  ExpectReadOfOutAllowed(on_default);
  ExpectReadOfOutAllowed(on_other);
}

TEST_F(PendingResults, SynchronisingAnotherStreamLeavesTheLaunchPending) {
  FloatOperands operands;
  ASSERT_NO_FATAL_FAILURE(Launch(operands, stream_));
  ASSERT_EQ(aclrtSynchronizeStream(OtherStream()), ACL_SUCCESS);
  ExpectReadOfOutRefused(operands, stream_);
}

TEST_F(PendingResults, AnEventRecordedAfterTheLaunchEndsThePendingStateOnceSynchronised) {
  FloatOperands operands;
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(Launch(operands, stream_));
  ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
  ExpectReadOfOutRefused(operands, stream_);  // recorded is not yet seen complete
  ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  ExpectReadOfOutAllowed(operands);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(PendingResults, AnEventRecordedAfterTheLaunchAndQueriedCompleteEndsThePendingState) {
  FloatOperands operands;
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(Launch(operands, stream_));
  ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
  aclrtEventRecordedStatus status = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  while (status != ACL_EVENT_RECORDED_STATUS_COMPLETE) {
    ASSERT_EQ(aclrtQueryEventStatus(event, &status), ACL_SUCCESS);
  }
  ExpectReadOfOutAllowed(operands);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(PendingResults, AnEventRecordedBeforeTheLaunchLeavesItPending) {
  FloatOperands operands;
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
  // Queued behind the record task, the launch may not have run yet: refused
  // either way, as unsynchronised or as still queued.
  ASSERT_NO_FATAL_FAILURE(Launch(operands, stream_));
  ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  std::vector<float> host(64, -1.0f);
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, operands.out.device(), 256, ACL_MEMCPY_DEVICE_TO_HOST),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("is written by aclnnHardsigmoidBackward"));
  EXPECT_EQ(host, std::vector<float>(64, -1.0f));
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

TEST_F(PendingResults, FreeingHostMemoryIsNoSynchronisation) {
  // aclrtFreeHost waits for queued work for its own safety; the program has
  // not synchronised with the launch by calling it.
  FloatOperands operands;
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 64), ACL_SUCCESS);
  ASSERT_NO_FATAL_FAILURE(Launch(operands, stream_));
  ASSERT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  ExpectReadOfOutRefused(operands, stream_);
}

TEST_F(PendingResults, FreeingMemoryOfAFinishedUnsynchronisedLaunchIsAllowed) {
  // Freeing is refused only while work that uses the memory has not run
  // (Lifetimes.FreeingMemoryAQueuedLaunchUsesIsRefusedAndTheLaunchStillRuns):
  // the memory is gone afterwards, so there is nothing left to read early.
  void* out_memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&out_memory, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  {
    FloatOperands operands;
    const int64_t shape[1] = {64}, strides[1] = {1};
    aclTensor* out = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, out_memory);
    ASSERT_NE(out, nullptr);
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), out, &executor), ACLNN_SUCCESS);
    ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
    EXPECT_EQ(aclDestroyTensor(out), ACLNN_SUCCESS);
  }
  EXPECT_EQ(aclrtFree(out_memory), ACL_SUCCESS) << TakeMessages();
}

}  // namespace
}  // namespace aclcpu_strict_test
