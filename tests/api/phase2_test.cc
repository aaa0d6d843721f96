// Phase 2 of aclnnHardsigmoidBackward and the executor API around it: argument
// checks, one-shot versus repeatable executors, rebinding device addresses,
// independence from the aclTensor objects, and stream semantics.
//
// Results are never hard-coded: each is compared with a fresh one-shot run of
// the same inputs (the numerics themselves are checked by the op suite).
#include <gtest/gtest.h>

#include <strings.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "api_test_util.h"

namespace aclcpu_api_test {
namespace {

const std::vector<int64_t> kShape = {3, 5, 7};

std::string Hex(const void* address) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", address);
  return text;
}

class Phase2 : public ApiTest {
 protected:
  // A successful phase 1 on `operands`.
  aclOpExecutor* Prepare(Operands& operands, uint64_t* workspace_size = nullptr) {
    const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
    EXPECT_EQ(result.status, ACLNN_SUCCESS) << result.message;
    EXPECT_NE(result.executor, nullptr);
    if (workspace_size != nullptr) *workspace_size = result.workspace_size;
    workspace_size_ = result.workspace_size;
    return result.executor;
  }

  // Phase 2 with a workspace of the size phase 1 asked for, then a wait.
  aclnnStatus Launch(aclOpExecutor* executor) { return LaunchAndWait(executor, workspace_size_, stream_); }

  static void FillWithSentinel(DeviceTensor& tensor) {
    const std::vector<uint8_t> sentinel(tensor.storage_bytes(), kSentinelByte);
    tensor.Upload(sentinel.data(), sentinel.size());
  }

  uint64_t workspace_size_ = 0;
};

// ---- argument checks ----------------------------------------------------------------

TEST_F(Phase2, NullExecutorReturns161001) {
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, nullptr, stream_), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(Phase2, NonZeroWorkspaceSizeWithNullWorkspaceReturns161001) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 64, executor, stream_), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte)) << "a refused launch wrote to out";
}

// ---- one-shot executors ----------------------------------------------------------------

TEST_F(Phase2, OneShotExecutorProducesReferenceResult) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
}

TEST_F(Phase2, OneShotExecutorSecondLaunchReturns161002WithMessage) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  FillWithSentinel(operands.out);
  ClearRecentErrMsgs();
  Workspace workspace(workspace_size_);
  EXPECT_EQ(aclnnHardsigmoidBackward(workspace.get(), workspace.size(), executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_FALSE(TakeRecentErrMsg().empty()) << "the refused second launch came without a message";
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte)) << "the refused launch wrote to out";
}

// A launch reads the inputs when it runs, not when phase 1 ran.
TEST_F(Phase2, OneShotExecutorReadsInputsAtLaunch) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const int64_t count = aclcpu_test::NumElements(kShape);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  Upload(operands.grad_output, GradValues(count, -2.0f));
  Upload(operands.self, SelfValues(count, 0.25f));
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
}

// Frameworks destroy their aclTensors right after phase 1 (or before phase 2
// runs on the stream); the executor must carry everything it needs.
TEST_F(Phase2, OneShotExecutorDoesNotDependOnTensorObjects) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);

  // Separate aclTensor objects over the same device memory, owned by this test.
  const int64_t storage[1] = {aclcpu_test::NumElements(kShape)};
  auto describe = [&](const DeviceTensor& tensor) {
    return aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1,
                           tensor.device());
  };
  aclTensor* grad_output = describe(operands.grad_output);
  aclTensor* self = describe(operands.self);
  aclTensor* out = describe(operands.out);
  ASSERT_TRUE(grad_output != nullptr && self != nullptr && out != nullptr);

  const Phase1Result result = CallPhase1(grad_output, self, out);
  ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  EXPECT_EQ(aclDestroyTensor(grad_output), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(self), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(out), ACLNN_SUCCESS);
  // New tensors with other shapes and addresses, likely to reuse the freed
  // memory: an executor still reading the old objects would see these.
  const int64_t decoy_shape[2] = {1, 1};
  std::vector<aclTensor*> decoys;
  for (int i = 0; i < 6; ++i) {
    decoys.push_back(aclCreateTensor(decoy_shape, 2, ACL_INT8, nullptr, 0, ACL_FORMAT_NCHW, decoy_shape, 2, nullptr));
  }

  EXPECT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
  for (aclTensor* decoy : decoys) aclDestroyTensor(decoy);
}

// ---- repeatable executors ------------------------------------------------------------------

TEST_F(Phase2, SetRepeatableRightAfterPhase1Returns0) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

TEST_F(Phase2, RepeatableExecutorRunsManyTimes) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  for (int launch = 0; launch < 4; ++launch) {
    SCOPED_TRACE(testing::Message() << "launch " << launch);
    FillWithSentinel(operands.out);
    ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
    EXPECT_EQ(operands.out.DownloadStorage(), expected);
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

TEST_F(Phase2, RepeatableExecutorReadsInputsAtEachLaunch) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const int64_t count = aclcpu_test::NumElements(kShape);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  for (int launch = 0; launch < 3; ++launch) {
    SCOPED_TRACE(testing::Message() << "launch " << launch);
    Upload(operands.grad_output, GradValues(count, 1.0f + launch));
    Upload(operands.self, SelfValues(count, 0.5f * launch));
    const std::vector<uint8_t> expected =
        ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
    ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
    EXPECT_EQ(operands.out.DownloadStorage(), expected);
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

// Second buffers for gradOutput, self and out with other contents; each has
// its own aclTensor, used only for reference runs.
struct ReboundBuffers {
  explicit ReboundBuffers(int64_t count)
      : grad_output(ACL_FLOAT, kShape), self(ACL_FLOAT, kShape), out(ACL_FLOAT, Contiguous(kShape), kSentinelByte) {
    Upload(grad_output, GradValues(count, -3.0f));
    Upload(self, SelfValues(count, 1.25f));
  }
  DeviceTensor grad_output;
  DeviceTensor self;
  DeviceTensor out;
};

// All three rebound: the launch reads the new inputs, writes the new out, and
// leaves the old out as the first launch left it.
TEST_F(Phase2, RebindingAllAddressesRedirectsTheNextLaunch) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  ReboundBuffers rebound(aclcpu_test::NumElements(kShape));
  const std::vector<uint8_t> rebound_expected =
      ReferenceStorage(rebound.grad_output, rebound.self, rebound.out, stream_);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  const std::vector<uint8_t> first_out = operands.out.DownloadStorage();
  const std::vector<uint8_t> old_grad = operands.grad_output.DownloadStorage();
  const std::vector<uint8_t> old_self = operands.self.DownloadStorage();

  EXPECT_EQ(aclSetInputTensorAddr(executor, 0, operands.grad_output.get(), rebound.grad_output.device()),
            ACLNN_SUCCESS);
  EXPECT_EQ(aclSetInputTensorAddr(executor, 1, operands.self.get(), rebound.self.device()), ACLNN_SUCCESS);
  EXPECT_EQ(aclSetOutputTensorAddr(executor, 0, operands.out.get(), rebound.out.device()), ACLNN_SUCCESS);
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();

  EXPECT_EQ(rebound.out.DownloadStorage(), rebound_expected) << "the new out does not hold the new result";
  EXPECT_EQ(operands.out.DownloadStorage(), first_out) << "the old out was written after rebinding";
  EXPECT_EQ(operands.grad_output.DownloadStorage(), old_grad);
  EXPECT_EQ(operands.self.DownloadStorage(), old_self);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

// Index 0 is gradOutput: rebinding only it combines the new gradient with the
// old self.
TEST_F(Phase2, InputIndex0IsGradOutput) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  ReboundBuffers rebound(aclcpu_test::NumElements(kShape));
  const std::vector<uint8_t> expected = ReferenceStorage(rebound.grad_output, operands.self, operands.out, stream_);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  FillWithSentinel(operands.out);
  ASSERT_EQ(aclSetInputTensorAddr(executor, 0, operands.grad_output.get(), rebound.grad_output.device()),
            ACLNN_SUCCESS);
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

// Index 1 is self: rebinding only it combines the old gradient with the new self.
TEST_F(Phase2, InputIndex1IsSelf) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  ReboundBuffers rebound(aclcpu_test::NumElements(kShape));
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, rebound.self, operands.out, stream_);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  FillWithSentinel(operands.out);
  ASSERT_EQ(aclSetInputTensorAddr(executor, 1, operands.self.get(), rebound.self.device()), ACLNN_SUCCESS);
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

TEST_F(Phase2, InputIndexOutOfRangeReturns161002) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  ReboundBuffers rebound(aclcpu_test::NumElements(kShape));
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(aclSetInputTensorAddr(executor, 2, operands.self.get(), rebound.self.device()), ACLNN_ERR_PARAM_INVALID);
  // The refused call changed nothing: the executor still runs on the old inputs.
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

TEST_F(Phase2, OutputIndexOutOfRangeReturns161002) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  ReboundBuffers rebound(aclcpu_test::NumElements(kShape));
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(aclSetOutputTensorAddr(executor, 1, operands.out.get(), rebound.out.device()), ACLNN_ERR_PARAM_INVALID);
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
  EXPECT_TRUE(AllBytesAre(rebound.out.DownloadStorage(), kSentinelByte)) << "the refused binding took effect";
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

TEST_F(Phase2, DestroyedExecutorIsRefused) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  ASSERT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  Workspace workspace(workspace_size_);
  EXPECT_NE(aclnnHardsigmoidBackward(workspace.get(), workspace.size(), executor, stream_), ACLNN_SUCCESS);
  EXPECT_NE(aclSetInputTensorAddr(executor, 0, operands.grad_output.get(), operands.grad_output.device()),
            ACLNN_SUCCESS);
  EXPECT_NE(aclSetOutputTensorAddr(executor, 0, operands.out.get(), operands.out.device()), ACLNN_SUCCESS);
  EXPECT_NE(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte)) << "a destroyed executor wrote to out";
}

// The message says why a handle is refused, also outside strict mode (an
// executor's slot remembers why its executor ended until the slot is reused).
TEST_F(Phase2, SpentExecutorMessageSaysItWasAlreadyLaunched) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  ClearRecentErrMsgs();
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(TakeRecentErrMsg().find("was already launched"), std::string::npos);
}

TEST_F(Phase2, DestroyedExecutorMessageSaysItWasDestroyed) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  ClearRecentErrMsgs();
  Workspace workspace(workspace_size_);
  EXPECT_EQ(aclnnHardsigmoidBackward(workspace.get(), workspace.size(), executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(TakeRecentErrMsg().find("was destroyed by aclDestroyAclOpExecutor"), std::string::npos);
}

// A thread keeps the memory of its last spent executor for its next phase 1
// (no shared free list touched on the way); when the thread exits that memory
// goes back to the shared pool, so threads that come and go strand none. Seen
// here as the next thread's executor taking the exited thread's slot (the pool
// hands out the most recently freed memory first). A handle names its slot in
// its low 20 bits and the slot's generation above them (meta/executor_slots.h):
// the slot is reused, the handle is not.
TEST_F(Phase2, ExecutorMemoryKeptByAnExitedThreadIsReused) {
  if (StrictModeRequested()) GTEST_SKIP() << "strict mode quarantines spent executors instead of reusing them";
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const aclOpExecutor* launched_by_exited_thread = nullptr;
  std::thread([&] {
    aclOpExecutor* executor = Prepare(operands);
    ASSERT_NE(executor, nullptr);
    ASSERT_EQ(Launch(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
    launched_by_exited_thread = executor;
  }).join();
  ASSERT_NE(launched_by_exited_thread, nullptr);
  aclOpExecutor* made_by_next_thread = nullptr;
  std::thread([&] { made_by_next_thread = Prepare(operands); }).join();
  ASSERT_NE(made_by_next_thread, nullptr);
  const auto slot_of = [](const aclOpExecutor* handle) { return reinterpret_cast<uintptr_t>(handle) & 0xFFFFF; };
  EXPECT_EQ(slot_of(made_by_next_thread), slot_of(launched_by_exited_thread));
  EXPECT_NE(made_by_next_thread, launched_by_exited_thread);
  EXPECT_EQ(aclDestroyAclOpExecutor(made_by_next_thread), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

// A spent one-shot executor's handle stays refused after its memory holds a new
// executor (a thread's next phase 1 reuses it at once): launching it again must
// not run the new one, whose own launch still works.
TEST_F(Phase2, StaleOneShotHandleDoesNotRunTheExecutorThatReusedItsMemory) {
  Operands first(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  Operands second(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const std::vector<uint8_t> expected = ReferenceStorage(second.grad_output, second.self, second.out, stream_);
  aclOpExecutor* spent = Prepare(first);
  ASSERT_NE(spent, nullptr);
  ASSERT_EQ(Launch(spent), ACLNN_SUCCESS) << TakeRecentErrMsg();
  aclOpExecutor* next = Prepare(second);
  ASSERT_NE(next, nullptr);
  EXPECT_NE(next, spent) << "a new executor got a spent executor's handle";
  ClearRecentErrMsgs();
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, spent, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(TakeRecentErrMsg().find(Hex(spent)), std::string::npos) << "the message names the stale handle";
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(spent), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclDestroyAclOpExecutor(spent), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(AllBytesAre(second.out.DownloadStorage(), kSentinelByte)) << "the stale handle ran the new executor";
  ASSERT_EQ(Launch(next), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(second.out.DownloadStorage(), expected);
}

// The same for a destroyed executor's handle.
TEST_F(Phase2, DestroyedHandleDoesNotReachTheExecutorThatReusedItsMemory) {
  Operands first(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  Operands second(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  aclOpExecutor* destroyed = Prepare(first);
  ASSERT_NE(destroyed, nullptr);
  ASSERT_EQ(aclDestroyAclOpExecutor(destroyed), ACLNN_SUCCESS) << TakeRecentErrMsg();
  aclOpExecutor* next = Prepare(second);
  ASSERT_NE(next, nullptr);
  EXPECT_NE(next, destroyed);
  EXPECT_EQ(aclDestroyAclOpExecutor(destroyed), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(next), ACLNN_SUCCESS) << "the stale destroy reached the new executor";
  EXPECT_EQ(aclDestroyAclOpExecutor(next), ACLNN_SUCCESS);
}

// A pointer phase 1 never returned — host memory, an unmapped address — is
// refused by every executor entry point without being read.
TEST_F(Phase2, PointerThatIsNoExecutorIsRefusedWithoutReadingIt) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  alignas(64) unsigned char host[1024] = {};
  aclOpExecutor* const bogus[] = {reinterpret_cast<aclOpExecutor*>(host),
                                  reinterpret_cast<aclOpExecutor*>(uintptr_t{0x40}),
                                  reinterpret_cast<aclOpExecutor*>(~uintptr_t{0} - 4095)};
  for (aclOpExecutor* executor : bogus) {
    ClearRecentErrMsgs();
    EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(TakeRecentErrMsg().find("is not live"), std::string::npos);
    EXPECT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclSetInputTensorAddr(executor, 0, operands.grad_output.get(), operands.grad_output.device()),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclSetTensorAddr(executor, 2, operands.out.get(), operands.out.device()), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID);
  }
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte)) << "a refused call wrote to out";
}

// Threads sharing one repeatable executor (not something CANN promises to
// support) are serialised on it: while one thread launches it again and again
// on one stream, two others rebind its operands (to the same memory, through
// their own aclTensor objects, so no data is raced for); every call succeeds and
// the result is right.
TEST_F(Phase2, ConcurrentCallsOnOneRepeatableExecutorAreSerialised) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
  constexpr int kCalls = 200;
  std::atomic<int> failures{0};
  std::vector<std::thread> threads;
  threads.emplace_back([&] {
    for (int i = 0; i < kCalls; ++i) {
      if (aclnnHardsigmoidBackward(nullptr, 0, executor, stream_) != ACLNN_SUCCESS) ++failures;
    }
  });
  for (int t = 0; t < 2; ++t) {
    threads.emplace_back([&] {
      const int64_t storage[1] = {aclcpu_test::NumElements(kShape)};
      aclTensor* grad = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                                        storage, 1, operands.grad_output.device());
      aclTensor* out = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage,
                                       1, operands.out.device());
      for (int i = 0; i < kCalls; ++i) {
        if (aclSetInputTensorAddr(executor, 0, grad, operands.grad_output.device()) != ACLNN_SUCCESS ||
            aclSetOutputTensorAddr(executor, 0, out, operands.out.device()) != ACLNN_SUCCESS) {
          ++failures;
        }
      }
      aclDestroyTensor(grad);
      aclDestroyTensor(out);
    });
  }
  for (std::thread& thread : threads) thread.join();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(failures.load(), 0) << TakeRecentErrMsg();
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS) << TakeRecentErrMsg();
}

TEST_F(Phase2, NullExecutorForExecutorApiReturns561103) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  EXPECT_EQ(aclSetAclOpExecutorRepeatable(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclDestroyAclOpExecutor(nullptr), ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetInputTensorAddr(nullptr, 0, operands.grad_output.get(), operands.grad_output.device()),
            ACLNN_ERR_INNER_NULLPTR);
  EXPECT_EQ(aclSetOutputTensorAddr(nullptr, 0, operands.out.get(), operands.out.device()),
            ACLNN_ERR_INNER_NULLPTR);
}

// ---- streams ------------------------------------------------------------------------------

// Work queued on the stream after the launch sees the launch's result: the
// launch is ordered on the stream, and synchronising waits for both.
TEST_F(Phase2, LaunchIsOrderedBeforeLaterWorkOnTheStream) {
  const std::vector<int64_t> shape = {64, 1024};
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, shape);
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  DeviceTensor copy(ACL_FLOAT, Contiguous(shape), kSentinelByte);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  Workspace workspace(workspace_size_);
  ASSERT_EQ(aclnnHardsigmoidBackward(workspace.get(), workspace.size(), executor, stream_), ACLNN_SUCCESS)
      << TakeRecentErrMsg();
  ASSERT_EQ(aclrtMemcpyAsync(copy.device(), copy.storage_bytes(), operands.out.device(), operands.out.storage_bytes(),
                             ACL_MEMCPY_DEVICE_TO_DEVICE, stream_),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(copy.DownloadStorage(), expected);
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
}

// A small launch runs straight from its executor when the stream is idle; behind
// queued work it waits its turn instead, and reads what that work wrote.
TEST_F(Phase2, SmallLaunchBehindQueuedWorkReadsWhatThatWorkWrote) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  Operands source(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  Upload(source.grad_output, GradValues(aclcpu_test::NumElements(kShape), 4.0f));
  const std::vector<uint8_t> expected = ReferenceStorage(source.grad_output, operands.self, operands.out, stream_);
  ASSERT_NE(expected, operands.out.DownloadStorage());
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  // A large copy keeps the stream's worker busy for milliseconds; the small one
  // queued behind it brings gradOutput's new values.
  const size_t large_bytes = size_t{16} << 20;
  DeviceTensor large_source(ACL_INT8, {static_cast<int64_t>(large_bytes)});
  DeviceTensor large_target(ACL_INT8, {static_cast<int64_t>(large_bytes)});
  ASSERT_EQ(aclrtMemcpyAsync(large_target.device(), large_bytes, large_source.device(), large_bytes,
                             ACL_MEMCPY_DEVICE_TO_DEVICE, stream_),
            ACL_SUCCESS);
  const size_t grad_bytes = operands.grad_output.storage_bytes();
  ASSERT_EQ(aclrtMemcpyAsync(operands.grad_output.device(), grad_bytes, source.grad_output.device(), grad_bytes,
                             ACL_MEMCPY_DEVICE_TO_DEVICE, stream_),
            ACL_SUCCESS);
  Workspace workspace(workspace_size_);
  ASSERT_EQ(aclnnHardsigmoidBackward(workspace.get(), workspace.size(), executor, stream_), ACLNN_SUCCESS)
      << TakeRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
}

// A stream handle that names no stream fails phase 2 with the runtime's
// message, and writes nothing.
TEST_F(Phase2, LaunchOnAnUnknownStreamReturns361001AndWritesNothing) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  int not_a_stream = 0;
  ClearRecentErrMsgs();
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, &not_a_stream), ACLNN_ERR_RUNTIME_ERROR);
  const std::string message = TakeRecentErrMsg();
  EXPECT_NE(message.find("aclnnHardsigmoidBackward"), std::string::npos) << message;
  EXPECT_NE(message.find("stream"), std::string::npos) << message;
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte));
}

// An event recorded after the launch completes only after it.
TEST_F(Phase2, EventRecordedAfterLaunchCompletesAfterIt) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {64, 1024});
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  aclrtEvent event = nullptr;
  ASSERT_EQ(aclrtCreateEvent(&event), ACL_SUCCESS);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  Workspace workspace(workspace_size_);
  ASSERT_EQ(aclnnHardsigmoidBackward(workspace.get(), workspace.size(), executor, stream_), ACLNN_SUCCESS)
      << TakeRecentErrMsg();
  ASSERT_EQ(aclrtRecordEvent(event, stream_), ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeEvent(event), ACL_SUCCESS);
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
  EXPECT_EQ(aclrtDestroyEvent(event), ACL_SUCCESS);
}

// The null stream is the default stream of the current device.
TEST_F(Phase2, NullStreamRunsOnDefaultStream) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const std::vector<uint8_t> expected = ReferenceStorage(operands.grad_output, operands.self, operands.out, stream_);
  aclOpExecutor* executor = Prepare(operands);
  ASSERT_NE(executor, nullptr);
  Workspace workspace(workspace_size_);
  ASSERT_EQ(aclnnHardsigmoidBackward(workspace.get(), workspace.size(), executor, nullptr), ACLNN_SUCCESS)
      << TakeRecentErrMsg();
  ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  EXPECT_EQ(operands.out.DownloadStorage(), expected);
}

// Launches on one stream run in order: the later launch's result is what stays.
TEST_F(Phase2, LaunchesOnOneStreamRunInOrder) {
  Operands first(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  Operands second(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kShape);
  const int64_t count = aclcpu_test::NumElements(kShape);
  Upload(second.grad_output, GradValues(count, 4.0f));
  const std::vector<uint8_t> expected = ReferenceStorage(second.grad_output, second.self, second.out, stream_);
  // Both write first.out: the second through its own description of that memory.
  const int64_t storage[1] = {count};
  aclTensor* shared_out = aclCreateTensor(kShape.data(), kShape.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND,
                                          storage, 1, first.out.device());
  ASSERT_NE(shared_out, nullptr);
  const Phase1Result first_call = CallPhase1(first.grad_output.get(), first.self.get(), first.out.get());
  const Phase1Result second_call = CallPhase1(second.grad_output.get(), second.self.get(), shared_out);
  ASSERT_EQ(first_call.status, ACLNN_SUCCESS) << first_call.message;
  ASSERT_EQ(second_call.status, ACLNN_SUCCESS) << second_call.message;
  Workspace first_workspace(first_call.workspace_size);
  Workspace second_workspace(second_call.workspace_size);
  ASSERT_EQ(aclnnHardsigmoidBackward(first_workspace.get(), first_workspace.size(), first_call.executor, stream_),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclnnHardsigmoidBackward(second_workspace.get(), second_workspace.size(), second_call.executor, stream_),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(first.out.DownloadStorage(), expected);
  aclDestroyTensor(shared_out);
}

// ---- ACLCPU_VERBOSE ----------------------------------------------------------------------

// ACLCPU_VERBOSE=1 logs every plan phase 1 makes: dtypes, element count, the
// coalesced shape, the path, the SIMD target and the split. The flag is read
// once per process, so it is tried in a fresh child process (the "threadsafe"
// death-test style re-executes the binary).
TEST_F(Phase2, VerboseLogsEachPlansDtypesShapePathTargetAndThreads) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("ACLCPU_VERBOSE", "1", 1);
  EXPECT_EXIT(
      {
        Operands dense(ACL_FLOAT, ACL_FLOAT16, ACL_FLOAT, {2, 3, 4});  // one flat run of 24
        DeviceTensor::Layout step2 = Contiguous({5});
        step2.strides = {2};  // [::2] inputs, dense out: one strided run of 5
        Operands strided(ACL_FLOAT, step2, ACL_FLOAT, step2, ACL_FLOAT, Contiguous({5}));
        for (Operands* operands : {&dense, &strided}) {
          const Phase1Result result =
              CallPhase1(operands->grad_output.get(), operands->self.get(), operands->out.get());
          if (result.status != ACLNN_SUCCESS) std::_Exit(1);
          if (LaunchAndWait(result.executor, result.workspace_size, stream_) != ACLNN_SUCCESS) std::_Exit(2);
        }
        std::_Exit(0);
      },
      ::testing::ExitedWithCode(0),
      "plan: gradOutput=DT_FLOAT self=DT_FLOAT16 out=DT_FLOAT compute=DT_FLOAT elements=24 coalesced=\\[24\\] "
      "path=contiguous isa=[a-z0-9_]+ threads=1(.|\n)*"
      "plan: gradOutput=DT_FLOAT self=DT_FLOAT out=DT_FLOAT compute=DT_FLOAT elements=5 coalesced=\\[5\\] "
      "path=strided isa=[a-z0-9_]+ threads=1");
  unsetenv("ACLCPU_VERBOSE");
}

// Phase 1 decides where out is stored non-temporally, and the plan line says
// so (ops/shared/elementwise_plan.cc's bars): a contiguous launch of 50 MiB
// streams, the same launch in place over gradOutput does not (its lines are
// read anyway); a transposed launch whose planes each hold 16 MiB of out
// streams from its block kernel, one just below does not. The launches'
// results are the golden and differential tests' concern.
TEST_F(Phase2, VerboseSaysWhichHugeLaunchesStoreNonTemporally) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  setenv("ACLCPU_VERBOSE", "1", 1);
  const auto plan_each = [] {
    const int64_t n = (int64_t{50} << 20) / 12 + 3;  // float32, 50 MiB over the three views
    DeviceTensor grad(ACL_FLOAT, Contiguous({n})), self(ACL_FLOAT, Contiguous({n})), out(ACL_FLOAT, Contiguous({n}));
    if (CallPhase1(grad.get(), self.get(), out.get()).status != ACLNN_SUCCESS) std::_Exit(1);
    if (CallPhase1(grad.get(), self.get(), grad.get()).status != ACLNN_SUCCESS) std::_Exit(1);
    for (int64_t cols : {2048, 2000}) {  // 16 MiB of float32 out a plane, then 15.6 MiB
      const std::vector<int64_t> shape = {2, 2048, cols};
      const DeviceTensor::Layout transposed{shape, {2048 * cols, 1, 2048}};
      DeviceTensor t_grad(ACL_FLOAT, transposed), t_self(ACL_FLOAT, transposed);
      DeviceTensor t_out(ACL_FLOAT, Contiguous(shape));
      if (CallPhase1(t_grad.get(), t_self.get(), t_out.get()).status != ACLNN_SUCCESS) std::_Exit(1);
    }
    std::_Exit(0);
  };
  EXPECT_EXIT(plan_each(), ::testing::ExitedWithCode(0),
              "elements=4369069 coalesced=\\[4369069\\] path=contiguous isa=[a-z0-9_]+ threads=[0-9]+ "
              "non-temporal-stores\n"
              "(.|\n)*elements=4369069 coalesced=\\[4369069\\] path=contiguous isa=[a-z0-9_]+ threads=[0-9]+\n"
              "(.|\n)*elements=8388608 coalesced=\\[2x2048x[0-9]+\\] path=tiled isa=[a-z0-9_]+ threads=[0-9]+ "
              "non-temporal-stores\n"
              "(.|\n)*elements=8192000 coalesced=\\[2x2048x[0-9]+\\] path=tiled isa=[a-z0-9_]+ threads=[0-9]+\n");
  unsetenv("ACLCPU_VERBOSE");
}

}  // namespace
}  // namespace aclcpu_api_test
