// Strict mode, lifetimes, workspaces and synchronisation: use after aclrtFree,
// double free, freeing memory queued work uses, destroying a busy stream,
// context or device,
// retired executors, destroyed tensors, short or host workspaces, and a
// synchronous copy racing with a pending launch — each reported at the faulty
// call, with the state left intact.
#include <memory>
#include <new>
#include <thread>

#include "meta/executor.h"
#include "strict_test_util.h"

namespace aclcpu_strict_test {
namespace {

// ---- Lifetimes of device memory -------------------------------------------

using Lifetimes = StrictTest;

TEST_F(Lifetimes, UseAfterFreeInACopyIsReported) {
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
  std::vector<unsigned char> host(64, 0);
  for (aclrtMemcpyKind kind : {ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_DEFAULT}) {
    EXPECT_EQ(aclrtMemcpy(host.data(), 64, device, 64, kind), ACL_ERROR_RT_PARAM_INVALID) << kind;
    EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclrtMemcpy: src " + Hex(device)),
                                      HasSubstr("aclrtFree already released"), HasSubstr("use after free")));
  }
  EXPECT_EQ(aclrtMemset(device, 64, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("use after free"));
}

TEST_F(Lifetimes, FreedMemoryAsTensorDataIsRejectedInPhase1) {
  FloatOperands operands;
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t dims[1] = {64};
  aclTensor* grad = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, device);
  ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(Phase1(grad, operands.self.get(), operands.out.get(), &executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(message_, AllOf(HasSubstr("gradOutput's data address " + Hex(device)), HasSubstr("use after free")));
  aclDestroyTensor(grad);
}

TEST_F(Lifetimes, MemoryFreedBetweenPhase1AndPhase2IsRejectedInPhase2) {
  FloatOperands operands;
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t dims[1] = {64};
  aclTensor* out = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, device);
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), out, &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclnnHardsigmoidBackward: out: device address " + Hex(device)),
                                    HasSubstr("use after free")));
  aclDestroyTensor(out);
}

TEST_F(Lifetimes, DoubleFreeIsReported) {
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(device), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtFree: devPtr " + Hex(device) + " was already freed: double free"));
  EXPECT_EQ(aclrtFree(static_cast<char*>(device) + 64), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("points inside the already freed device allocation " + Hex(device)));
}

TEST_F(Lifetimes, FreeingMemoryAQueuedLaunchUsesIsRefusedAndTheLaunchStillRuns) {
  FloatOperands operands;
  Gate gate;
  BlockStream(stream_, &gate);
  ASSERT_EQ(aclcpu_test::RunHardsigmoidBackward(operands.grad.get(), operands.self.get(), operands.out.get(), nullptr),
            ACLNN_SUCCESS);  // on the default stream: not blocked
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.out.get(), &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS);  // queued behind the gate
  EXPECT_EQ(aclrtFree(operands.self.device()), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclrtFree: devPtr " + Hex(operands.self.device())),
                                    HasSubstr("is still read by aclnnHardsigmoidBackward, pending on stream " +
                                              Hex(stream_)),
                                    HasSubstr("the memory was not freed")));
  EXPECT_EQ(aclrtFree(operands.out.device()), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("is still written by aclnnHardsigmoidBackward"));
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(operands.out.DownloadElements<float>(), FloatOperands::Expected(64));
  // Done: nothing pending any more; the DeviceTensor destructors free it all.
}

TEST_F(Lifetimes, DestroyingAStreamWithPendingWorkIsRefusedAndLeavesItIntact) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  FloatOperands operands;
  Gate gate;
  BlockStream(stream, &gate);
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.out.get(), &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_ERROR_RT_PARAM_INVALID);
  // The launch is queued; the gate task may or may not have started yet.
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("EE1001"), HasSubstr("aclrtDestroyStream: stream " + Hex(stream) +
                                                                   " still has "),
                                    HasSubstr("queued task(s) (pending, oldest first: GateTask, "
                                              "aclnnHardsigmoidBackward)"),
                                    HasSubstr("the stream was left intact")));
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);  // still alive, and its work ran
  EXPECT_EQ(operands.out.DownloadElements<float>(), FloatOperands::Expected(64));
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_F(Lifetimes, DestroyingAContextWithQueuedWorkIsRefusedAndLeavesItIntact) {
  aclrtContext primary = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&primary), ACL_SUCCESS);
  aclrtContext context = nullptr;
  ASSERT_EQ(aclrtCreateContext(&context, 0), ACL_SUCCESS);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Gate gate;
  // Two: the first may already be running (not "queued"); the second waits behind it.
  BlockStream(stream, &gate);
  BlockStream(stream, &gate);
  TakeMessages();
  EXPECT_EQ(aclrtDestroyContext(context), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclrtDestroyContext:"), HasSubstr("stream " + Hex(stream)),
                                    HasSubstr("queued task(s) (pending, oldest first: GateTask, GateTask)"),
                                    HasSubstr("nothing was destroyed")));
  gate.Open();
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);  // the stream, and so the context, is alive
  EXPECT_EQ(aclrtDestroyContext(context), ACL_SUCCESS);
  EXPECT_EQ(aclrtSetCurrentContext(primary), ACL_SUCCESS);
}

TEST_F(Lifetimes, TheLastResetOfADeviceWithQueuedWorkIsRefusedAndLeavesItSet) {
  // A thread of its own, which holds the device's only reference.
  std::thread([] {
    ASSERT_EQ(aclrtSetDevice(1), ACL_SUCCESS);
    Gate gate;
    // Two: the first may already be running (not "queued"); the second waits behind it.
    BlockStream(nullptr, &gate);
    BlockStream(nullptr, &gate);
    TakeMessages();
    EXPECT_EQ(aclrtResetDevice(1), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclrtResetDevice:"), HasSubstr("the default stream"),
                                      HasSubstr("nothing was destroyed")));
    gate.Open();
    EXPECT_EQ(aclrtSynchronizeDevice(), ACL_SUCCESS);  // still set
    EXPECT_EQ(aclrtResetDevice(1), ACL_SUCCESS);
  }).join();
}

// ---- Lifetimes of executors and tensors -------------------------------------

TEST_F(Lifetimes, Phase2OnASpentOneShotExecutorIsRejected) {
  FloatOperands operands;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.out.get(), &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("Phase 2: executor " + Hex(executor) + " was already launched"),
                                    HasSubstr("aclSetAclOpExecutorRepeatable")));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(Lifetimes, RepeatableExecutorUsedAfterAclDestroyAclOpExecutorIsRejected) {
  FloatOperands operands;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.out.get(), &executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
  ASSERT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
  const std::string destroyed = "executor " + Hex(executor) + " was destroyed by aclDestroyAclOpExecutor";
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("Phase 2: " + destroyed));
  EXPECT_EQ(aclSetInputTensorAddr(executor, 0, operands.grad.get(), operands.grad.device()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclSetInputTensorAddr: " + destroyed));
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclDestroyAclOpExecutor: " + destroyed));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
}

TEST_F(Lifetimes, DestroyedTensorUsedInPhase1IsRejected) {
  FloatOperands operands;
  const int64_t dims[1] = {64};
  aclTensor* self = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, operands.self.device());
  ASSERT_EQ(aclDestroyTensor(self), ACLNN_SUCCESS);
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(Phase1(operands.grad.get(), self, operands.out.get(), &executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(message_, HasSubstr("aclnnHardsigmoidBackwardGetWorkspaceSize: self (aclTensor " + Hex(self) +
                                  ") was destroyed by aclDestroyTensor"));
  // Null arguments still come first, in CANN's order.
  EXPECT_EQ(Phase1(nullptr, self, operands.out.get(), &executor), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_THAT(message_, HasSubstr("argument gradOutput but got null"));
  EXPECT_EQ(aclDestroyTensor(self), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclDestroyTensor: tensor " + Hex(self) + " was already destroyed"));
}

// ---- Workspace ----------------------------------------------------------------

// An executor asking for a workspace, as an NPU operator's phase 1 may (ours
// asks for none); phase 2 is the operator-independent one of libnnopbase.
class WorkspaceExecutor final : public aclOpExecutor {
 public:
  explicit WorkspaceExecutor(uint64_t size) : aclOpExecutor("aclnnWorkspaceUser", 0, 0) { workspace_size = size; }
  aclnnStatus MakeLaunch(void*, std::unique_ptr<aclcpu::Task>* task) const override {
    task->reset();
    return ACLNN_SUCCESS;
  }
};

class Workspace : public StrictTest {
 protected:
  aclnnStatus RunWith(uint64_t asked, void* workspace, uint64_t size) {
    const aclcpu::MetaServices* meta = aclcpuMetaServices(aclcpu::kMetaServicesAbi);
    auto* executor = new (meta->allocate_executor(sizeof(WorkspaceExecutor))) WorkspaceExecutor(asked);
    return meta->run_executor(workspace, size, meta->adopt_executor(executor), stream_);
  }
};

TEST_F(Workspace, SmallerThanPhase1AskedForIsRejected) {
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(RunWith(256, device, 128), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclnnWorkspaceUser: workspaceSize (128) is smaller than the 256 bytes phase 1 "
                                        "asked for"));
  EXPECT_EQ(RunWith(256, device, 256), ACLNN_ERR_PARAM_INVALID);  // claims more than the 160-byte allocation has
  EXPECT_THAT(TakeMessages(), HasSubstr("runs past the end of its device allocation " + Hex(device)));
  EXPECT_EQ(RunWith(128, device, 128), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

TEST_F(Workspace, HostMemoryIsRejected) {
  std::vector<unsigned char> host(256);
  EXPECT_EQ(RunWith(256, host.data(), 256), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclnnWorkspaceUser: workspace " + Hex(host.data()) +
                                        " is not device memory (aclrtMalloc did not return it)"));
  // The same for the real operator, which asks for none but is handed one.
  FloatOperands operands;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.out.get(), &executor), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnHardsigmoidBackward(host.data(), 256, executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclnnHardsigmoidBackward: workspace " + Hex(host.data()) +
                                        " is not device memory"));
}

// ---- Synchronisation ----------------------------------------------------------

class Synchronisation : public StrictTest {
 protected:
  // Blocks stream_ on `gate` and queues a launch on `operands` behind it: the
  // launch stays pending (out written, inputs read) until the gate opens.
  void LaunchBehindBlockedStream(FloatOperands& operands, Gate* gate) {
    BlockStream(stream_, gate);
    aclOpExecutor* executor = nullptr;
    ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.out.get(), &executor), ACLNN_SUCCESS);
    ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS);
  }
};

TEST_F(Synchronisation, SynchronousDeviceToHostCopyOfPendingOutputIsRejected) {
  FloatOperands operands;
  Gate gate;
  ASSERT_NO_FATAL_FAILURE(LaunchBehindBlockedStream(operands, &gate));
  std::vector<float> host(64, -1.0f);
  for (aclrtMemcpyKind kind : {ACL_MEMCPY_DEVICE_TO_HOST, ACL_MEMCPY_DEFAULT}) {
    EXPECT_EQ(aclrtMemcpy(host.data(), 256, operands.out.device(), 256, kind), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("EE1001"),
                                      HasSubstr("aclrtMemcpy: src [" + Hex(operands.out.device()) +
                                                ", +256 bytes) is written by aclnnHardsigmoidBackward, still "
                                                "pending on stream " + Hex(stream_)),
                                      HasSubstr("synchronise that stream")));
  }
  EXPECT_EQ(host, std::vector<float>(64, -1.0f));
  // Reading an input of the pending launch is no race.
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, operands.grad.device(), 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(host.data(), 256, operands.out.device(), 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(host, FloatOperands::Expected(64));
}

TEST_F(Synchronisation, SynchronousWriteOfAPendingLaunchsInputIsRejected) {
  FloatOperands operands;
  Gate gate;
  ASSERT_NO_FATAL_FAILURE(LaunchBehindBlockedStream(operands, &gate));
  std::vector<float> zeros(64, 0.0f);
  EXPECT_EQ(aclrtMemcpy(operands.self.device(), 256, zeros.data(), 256, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemcpy: dst [" + Hex(operands.self.device()) +
                                        ", +256 bytes) is read by aclnnHardsigmoidBackward, still pending on stream"));
  EXPECT_EQ(aclrtMemset(operands.grad.device(), 256, 0, 4), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("aclrtMemset: devPtr"));
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(operands.out.DownloadElements<float>(), FloatOperands::Expected(64));  // the inputs were left alone
}

TEST_F(Synchronisation, SynchronousCopyOfMemoryAPendingAsyncCopyWritesIsRejected) {
  void* device = nullptr;
  ASSERT_EQ(aclrtMalloc(&device, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::vector<unsigned char> source(64, 7), target(64, 0);
  Gate gate;
  BlockStream(stream_, &gate);
  ASSERT_EQ(aclrtMemcpyAsync(device, 64, source.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(target.data(), 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), HasSubstr("is written by aclrtMemcpyAsync, still pending on stream " + Hex(stream_)));
  gate.Open();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(target.data(), 64, device, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(target, source);
  EXPECT_EQ(aclrtFree(device), ACL_SUCCESS);
}

}  // namespace
}  // namespace aclcpu_strict_test
