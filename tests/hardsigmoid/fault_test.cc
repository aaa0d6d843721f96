// aclnnHardsigmoid and aclnnInplaceHardsigmoid with an allocation failed at each
// site their calls pass through (docs/reliability.md, "Fault injection"): the
// documented status and a message from the failing call, no executor or other
// object left by it, a one-shot executor spent and a repeatable one still
// launchable, and the next call working with a correct result.
#include <cstdint>
#include <vector>

#include "hardsigmoid_api_util.h"

// Test controls exported by libascendcl.so (src/runtime/fault_injection.h).
extern "C" {
aclError aclcpuSetFaultInjection(const char* site, int64_t nth);
int64_t aclcpuFaultInjectionFired(void);
}

namespace aclcpu_hardsigmoid_test {
namespace {

// Above the launches that run straight from the executor (4096 elements): phase
// 2 then builds and queues a launch, the path with an allocation that can fail.
constexpr int64_t kElements = 8192;

class FaultInjection : public HardsigmoidApiTest {
 protected:
  void TearDown() override { aclcpuSetFaultInjection(nullptr, 0); }

  // Phase 1 of the chosen form on `self` (and `out`), with `site` failing on its
  // first pass. A thread keeps the slot of its last retired executor as a spare
  // (meta/executor_slots.h) and takes it without passing the site, so two
  // executors are held first: the call under test then needs a new slot.
  Phase1Result Phase1WithFault(const char* site, bool in_place, DeviceTensor& self, DeviceTensor& out) {
    const Phase1Result held[2] = {CallPhase1(self.get(), out.get()), CallPhase1(self.get(), out.get())};
    for (const Phase1Result& h : held) EXPECT_EQ(aclSetAclOpExecutorRepeatable(h.executor), ACLNN_SUCCESS);
    EXPECT_EQ(aclcpuSetFaultInjection(site, 1), ACL_SUCCESS);
    Phase1Result result = in_place ? CallInplacePhase1(self.get()) : CallPhase1(self.get(), out.get());
    fired_ = aclcpuFaultInjectionFired();
    aclcpuSetFaultInjection(nullptr, 0);
    for (const Phase1Result& h : held) EXPECT_EQ(aclDestroyAclOpExecutor(h.executor), ACLNN_SUCCESS);
    return result;
  }

  int64_t fired_ = 0;  // whether the fault of the last Phase1WithFault fired
};

TEST_F(FaultInjection, ExecutorCreateFailureReturns561101AndNoExecutorInBothForms) {
  for (bool in_place : {false, true}) {
    DeviceTensor self(ACL_FLOAT, {kElements});
    UploadSelf(self);
    DeviceTensor out(ACL_FLOAT, Contiguous({kElements}), kSentinelByte);
    const std::vector<uint8_t> expected = ReferenceStorage(self, out, stream_);
    const Phase1Result failed = Phase1WithFault("ExecutorCreate", in_place, self, out);
    EXPECT_EQ(fired_, 1);
    EXPECT_EQ(failed.status, ACLNN_ERR_INNER_CREATE_EXECUTOR) << failed.message;
    EXPECT_FALSE(failed.message.empty());
    EXPECT_EQ(failed.executor, nullptr);
    // The next call works.
    const Phase1Result result = in_place ? CallInplacePhase1(self.get()) : CallPhase1(self.get(), out.get());
    ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
    ASSERT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_, in_place), ACLNN_SUCCESS);
    EXPECT_EQ(in_place ? self.DownloadStorage() : out.DownloadStorage(), expected);
  }
}

// Arguments the plan refuses are reported as such whatever the memory.
TEST_F(FaultInjection, ExecutorCreateFailureStillReportsInvalidArguments) {
  DeviceTensor broadcast(ACL_FLOAT, DeviceTensor::Layout{{8}, {0}, 0, 1, ACL_FORMAT_ND});
  DeviceTensor self(ACL_FLOAT, {8});
  DeviceTensor out(ACL_FLOAT, {8});
  const Phase1Result held[2] = {CallPhase1(self.get(), out.get()), CallPhase1(self.get(), out.get())};
  for (const Phase1Result& h : held) EXPECT_EQ(aclSetAclOpExecutorRepeatable(h.executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclcpuSetFaultInjection("ExecutorCreate", 1), ACL_SUCCESS);
  const Phase1Result failed = CallInplacePhase1(broadcast.get());
  EXPECT_EQ(aclcpuFaultInjectionFired(), 1);
  aclcpuSetFaultInjection(nullptr, 0);
  for (const Phase1Result& h : held) EXPECT_EQ(aclDestroyAclOpExecutor(h.executor), ACLNN_SUCCESS);
  EXPECT_EQ(failed.status, ACLNN_ERR_PARAM_INVALID) << failed.message;
}

TEST_F(FaultInjection, LaunchCreateFailureReturns561000AndSpendsTheOneShotExecutor) {
  for (bool in_place : {false, true}) {
    DeviceTensor self(ACL_FLOAT16, {kElements});
    UploadSelf(self);
    DeviceTensor out(ACL_FLOAT16, Contiguous({kElements}), kSentinelByte);
    const Phase1Result result = in_place ? CallInplacePhase1(self.get()) : CallPhase1(self.get(), out.get());
    ASSERT_EQ(result.status, ACLNN_SUCCESS);
    ASSERT_EQ(aclcpuSetFaultInjection("LaunchCreate", 1), ACL_SUCCESS);
    EXPECT_EQ(LaunchAndWait(result.executor, 0, stream_, in_place), ACLNN_ERR_INNER);
    EXPECT_EQ(aclcpuFaultInjectionFired(), 1);
    EXPECT_FALSE(TakeRecentErrMsg().empty());
    aclcpuSetFaultInjection(nullptr, 0);
    EXPECT_EQ(LaunchAndWait(result.executor, 0, stream_, in_place), ACLNN_ERR_PARAM_INVALID)
        << "a one-shot executor is spent even when its launch failed";
    EXPECT_TRUE(AllBytesAre(out.DownloadStorage(), kSentinelByte));
  }
}

TEST_F(FaultInjection, LaunchCreateFailureLeavesARepeatableExecutorLaunchable) {
  DeviceTensor self(ACL_BF16, {kElements});
  UploadSelf(self);
  DeviceTensor out(ACL_BF16, Contiguous({kElements}), kSentinelByte);
  const std::vector<uint8_t> expected = ReferenceStorage(self, out, stream_);
  const Phase1Result result = CallPhase1(self.get(), out.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(result.executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclcpuSetFaultInjection("LaunchCreate", 1), ACL_SUCCESS);
  EXPECT_EQ(LaunchAndWait(result.executor, 0, stream_), ACLNN_ERR_INNER);
  aclcpuSetFaultInjection(nullptr, 0);
  ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_), ACLNN_SUCCESS);
  EXPECT_EQ(out.DownloadStorage(), expected);
  EXPECT_EQ(aclDestroyAclOpExecutor(result.executor), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace aclcpu_hardsigmoid_test
