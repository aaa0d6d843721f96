// aclnnHardsigmoid and aclnnInplaceHardsigmoid in strict mode (ACLCPU_STRICT=1,
// set by CTest for this binary): the misuses README "Strict mode" lists that
// reach the operator are reported at the faulty call with 161002 and a message
// naming the call and the argument — host memory as tensor data, a view
// reaching outside its device allocation, memory aclrtFree released, an out
// overlapping self other than in place (phase 1, and after rebinding in phase
// 2), a spent one-shot executor. (The runtime's own misuses — copies, frees,
// streams — are the operator-independent tests/strict suite's.)
#include <cstdint>
#include <vector>

#include "hardsigmoid_api_util.h"

namespace aclcpu_hardsigmoid_test {
namespace {

class Strict : public HardsigmoidApiTest {
 protected:
  void SetUp() override {
    HardsigmoidApiTest::SetUp();
    ASSERT_TRUE(aclcpu_api_test::StrictModeRequested()) << "registered with ACLCPU_STRICT=1";
  }

  // A view of `elements` float32 at `data` (any address), storage shape `storage`.
  static aclTensor* ViewAt(void* data, int64_t elements, int64_t storage, int64_t offset = 0) {
    const int64_t dims[] = {elements};
    const int64_t strides[] = {1};
    const int64_t storage_dims[] = {storage};
    return aclCreateTensor(dims, 1, ACL_FLOAT, strides, offset, ACL_FORMAT_ND, storage_dims, 1, data);
  }
};

TEST_F(Strict, HostPointerAsSelfOrOutIs161002InPhase1) {
  std::vector<float> host(16, 1.0f);
  DeviceTensor device(ACL_FLOAT, Contiguous({16}), kSentinelByte);
  aclTensor* host_view = ViewAt(host.data(), 16, 16);
  ExpectRejected(CallPhase1(host_view, device.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, &device);
  ExpectRejected(CallPhase1(device.get(), host_view), ACLNN_ERR_PARAM_INVALID, {"out"}, nullptr);
  ExpectRejected(CallInplacePhase1(host_view), ACLNN_ERR_PARAM_INVALID, {"self"}, nullptr,
                 "aclnnInplaceHardsigmoidGetWorkspaceSize");
  aclDestroyTensor(host_view);
}

TEST_F(Strict, ViewReachingOutsideItsAllocationIs161002InPhase1) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclTensor* too_long = ViewAt(memory, 64, 80, 16);  // storage shape claims more than was allocated
  DeviceTensor out(ACL_FLOAT, Contiguous({64}), kSentinelByte);
  ExpectRejected(CallPhase1(too_long, out.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, &out);
  ExpectRejected(CallInplacePhase1(too_long), ACLNN_ERR_PARAM_INVALID, {"self"}, nullptr,
                 "aclnnInplaceHardsigmoidGetWorkspaceSize");
  aclDestroyTensor(too_long);
  aclrtFree(memory);
}

TEST_F(Strict, FreedMemoryAsSelfIs161002InPhase1) {
  void* memory = nullptr;
  ASSERT_EQ(aclrtMalloc(&memory, 64 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  aclTensor* view = ViewAt(memory, 64, 64);
  ASSERT_EQ(aclrtFree(memory), ACL_SUCCESS);
  ExpectRejected(CallInplacePhase1(view), ACLNN_ERR_PARAM_INVALID, {"self"}, nullptr,
                 "aclnnInplaceHardsigmoidGetWorkspaceSize");
  aclDestroyTensor(view);
}

TEST_F(Strict, OutOverlappingSelfOtherThanInPlaceIs161002InPhase1) {
  DeviceTensor buffer(ACL_FLOAT, Contiguous({65}));
  aclTensor* self = ViewAt(buffer.device(), 64, 65);
  aclTensor* shifted = ViewAt(buffer.device(), 64, 65, 1);
  ExpectRejected(CallPhase1(self, shifted), ACLNN_ERR_PARAM_INVALID, {"out", "self"}, nullptr);
  // In place is not an overlap.
  const Phase1Result in_place = CallPhase1(self, self);
  EXPECT_EQ(in_place.status, ACLNN_SUCCESS) << in_place.message;
  EXPECT_EQ(LaunchAndWait(in_place.executor, 0, stream_), ACLNN_SUCCESS);
  aclDestroyTensor(self);
  aclDestroyTensor(shifted);
}

TEST_F(Strict, RebindingOutOntoSelfOtherThanInPlaceIs161002InPhase2) {
  DeviceTensor self(ACL_FLOAT, {64});
  DeviceTensor out(ACL_FLOAT, Contiguous({64}), kSentinelByte);
  const Phase1Result result = CallPhase1(self.get(), out.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(result.executor), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(result.executor, 0, out.get(), static_cast<char*>(self.device()) + 4),
            ACLNN_SUCCESS);
  ClearRecentErrMsgs();
  EXPECT_EQ(aclnnHardsigmoid(nullptr, 0, result.executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NamesIdentifier(TakeRecentErrMsg(), "aclnnHardsigmoid"));
  aclDestroyAclOpExecutor(result.executor);
}

TEST_F(Strict, SpentOneShotExecutorIs161002InPhase2) {
  DeviceTensor self(ACL_FLOAT, {64});
  const Phase1Result result = CallInplacePhase1(self.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS);
  ASSERT_EQ(LaunchAndWait(result.executor, 0, stream_, /*in_place=*/true), ACLNN_SUCCESS);
  ClearRecentErrMsgs();
  EXPECT_EQ(aclnnInplaceHardsigmoid(nullptr, 0, result.executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_FALSE(TakeRecentErrMsg().empty());
}

}  // namespace
}  // namespace aclcpu_hardsigmoid_test
