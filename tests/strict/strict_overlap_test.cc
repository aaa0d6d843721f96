// Strict mode and aliasing: out overlapping an input other than in place is the
// likely bug it usually is, so strict mode reports it where default mode stages
// the input (README "Aliasing"); in place stays allowed.
#include "strict_test_util.h"

namespace aclcpu_strict_test {
namespace {

using Overlap = StrictTest;

// An aclTensor over `count` floats at `device` (memory someone else owns).
aclTensor* FloatView(void* device, int64_t count, int64_t storage_elements) {
  const int64_t dims[1] = {count};
  const int64_t strides[1] = {1};
  const int64_t storage[1] = {storage_elements};
  return aclCreateTensor(dims, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, device);
}

TEST_F(Overlap, OutPartlyOverlappingAnInputIsReportedInPhase1) {
  FloatOperands operands(64);
  // out: gradOutput's memory two elements further on (62 elements).
  char* shifted = static_cast<char*>(operands.grad.device()) + 2 * sizeof(float);
  aclTensor* grad = FloatView(operands.grad.device(), 62, 62);
  aclTensor* out = FloatView(shifted, 62, 62);
  aclTensor* self = FloatView(operands.self.device(), 62, 62);
  ASSERT_NE(grad, nullptr);
  ASSERT_NE(out, nullptr);
  ASSERT_NE(self, nullptr);
  const std::vector<float> before = operands.grad.DownloadElements<float>();
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(Phase1(grad, self, out, &executor), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(executor, nullptr);
  EXPECT_THAT(message_, AllOf(HasSubstr("out's view"), HasSubstr("overlaps gradOutput's view"),
                              HasSubstr("strict mode")));
  EXPECT_EQ(operands.grad.DownloadElements<float>(), before);
  aclDestroyTensor(grad);
  aclDestroyTensor(out);
  aclDestroyTensor(self);
}

TEST_F(Overlap, OutReboundOntoPartOfAnInputIsReportedInPhase2) {
  FloatOperands operands(64);
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.out.get(), &executor), ACLNN_SUCCESS)
      << message_;
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(executor), ACLNN_SUCCESS);
  // The device allocations round 64 floats up, so 63 floats of self fit after
  // one element of it.
  DeviceTensor wide_self(ACL_FLOAT, {128});
  ASSERT_EQ(aclSetInputTensorAddr(executor, 1, operands.self.get(), wide_self.device()), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetOutputTensorAddr(executor, 0, operands.out.get(),
                                   static_cast<char*>(wide_self.device()) + sizeof(float)),
            ACLNN_SUCCESS);
  TakeMessages();
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_ERR_PARAM_INVALID);
  EXPECT_THAT(TakeMessages(), AllOf(HasSubstr("aclnnHardsigmoidBackward"), HasSubstr("overlaps self's view")));
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(executor), ACLNN_SUCCESS);
}

TEST_F(Overlap, OutInPlaceOverGradOutputIsAllowed) {
  FloatOperands operands(64);
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(Phase1(operands.grad.get(), operands.self.get(), operands.grad.get(), &executor), ACLNN_SUCCESS)
      << message_;
  ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, stream_), ACLNN_SUCCESS) << TakeMessages();
  ASSERT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_EQ(operands.grad.DownloadElements<float>(), FloatOperands::Expected(64));
}

}  // namespace
}  // namespace aclcpu_strict_test
