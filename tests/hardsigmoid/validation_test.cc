// Phase 1 of aclnnHardsigmoid and aclnnInplaceHardsigmoid: one test per
// contract clause, in CANN's order (first failure wins), with CANN's status
// codes and a message naming the entry point and the argument; nothing is
// written to out and no executor is handed out on failure.
#include <cstdint>
#include <vector>

#include "hardsigmoid_api_util.h"

namespace aclcpu_hardsigmoid_test {
namespace {

class Validation : public HardsigmoidApiTest {};

TEST_F(Validation, NullWorkspaceSizeOrExecutorIs161001) {
  DeviceTensor self(ACL_FLOAT, {2, 3});
  DeviceTensor out(ACL_FLOAT, Contiguous({2, 3}), kSentinelByte);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnHardsigmoidGetWorkspaceSize(self.get(), out.get(), nullptr, &executor), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(NamesIdentifier(TakeRecentErrMsg(), "workspaceSize"));
  EXPECT_EQ(aclnnHardsigmoidGetWorkspaceSize(self.get(), out.get(), &workspace_size, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(NamesIdentifier(TakeRecentErrMsg(), "executor"));
  EXPECT_EQ(aclnnInplaceHardsigmoidGetWorkspaceSize(self.get(), nullptr, &executor), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceHardsigmoidGetWorkspaceSize(self.get(), &workspace_size, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  // Checked first: even with null tensors.
  EXPECT_EQ(aclnnHardsigmoidGetWorkspaceSize(nullptr, nullptr, nullptr, &executor), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(NamesIdentifier(TakeRecentErrMsg(), "workspaceSize"));
  EXPECT_TRUE(AllBytesAre(out.DownloadStorage(), kSentinelByte));
}

TEST_F(Validation, NullSelfThenNullOutIs161001) {
  DeviceTensor self(ACL_FLOAT, {4});
  DeviceTensor out(ACL_FLOAT, Contiguous({4}), kSentinelByte);
  ExpectRejected(CallPhase1(nullptr, out.get()), ACLNN_ERR_PARAM_NULLPTR, {"self"}, &out);
  ExpectRejected(CallPhase1(self.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR, {"out"}, nullptr);
  ExpectRejected(CallPhase1(nullptr, nullptr), ACLNN_ERR_PARAM_NULLPTR, {"self"}, nullptr);
  ExpectRejected(CallInplacePhase1(nullptr), ACLNN_ERR_PARAM_NULLPTR, {"self"}, nullptr,
                 "aclnnInplaceHardsigmoidGetWorkspaceSize");
}

// The default SoC (Ascend910B2, Atlas A2) takes FLOAT, FLOAT16, INT32 and
// BFLOAT16; every other dtype is 161002 (the per-SoC lists: soc_test.cc).
TEST_F(Validation, SelfDtypeOutsideTheSocListIs161002) {
  for (aclDataType dtype : {ACL_DOUBLE, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT64, ACL_BOOL, ACL_COMPLEX64}) {
    DeviceTensor self(dtype, {3});
    DeviceTensor out(dtype, Contiguous({3}), kSentinelByte);
    ExpectRejected(CallPhase1(self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, &out);
    ExpectRejected(CallInplacePhase1(self.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, nullptr,
                   "aclnnInplaceHardsigmoidGetWorkspaceSize");
  }
}

TEST_F(Validation, SupportedDtypesAreAcceptedOnTheDefaultSoc) {
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BF16}) {
    DeviceTensor self(dtype, {3});
    DeviceTensor out(dtype, Contiguous({3}), kSentinelByte);
    const Phase1Result result = CallPhase1(self.get(), out.get());
    EXPECT_EQ(result.status, ACLNN_SUCCESS) << result.message;
    EXPECT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS);
  }
}

TEST_F(Validation, RankAboveEightIs161002) {
  const std::vector<int64_t> nine(9, 1);
  DeviceTensor self9(ACL_FLOAT, nine);
  DeviceTensor out9(ACL_FLOAT, Contiguous(nine), kSentinelByte);
  ExpectRejected(CallPhase1(self9.get(), out9.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, &out9);
  ExpectRejected(CallInplacePhase1(self9.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, nullptr,
                 "aclnnInplaceHardsigmoidGetWorkspaceSize");
  DeviceTensor self1(ACL_FLOAT, {1});
  ExpectRejected(CallPhase1(self1.get(), out9.get()), ACLNN_ERR_PARAM_INVALID, {"out"}, &out9);
}

TEST_F(Validation, ShapeOfSelfDifferentFromOutIs161002) {
  DeviceTensor self(ACL_FLOAT, {2, 3});
  DeviceTensor out(ACL_FLOAT, Contiguous({3, 2}), kSentinelByte);
  ExpectRejected(CallPhase1(self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"self", "out"}, &out);
  DeviceTensor out_rank(ACL_FLOAT, Contiguous({1, 2, 3}), kSentinelByte);
  ExpectRejected(CallPhase1(self.get(), out_rank.get()), ACLNN_ERR_PARAM_INVALID, {"self", "out"}, &out_rank);
}

// No casting: out must have self's dtype, even where a cast would be exact.
TEST_F(Validation, DtypeOfSelfDifferentFromOutIs161002) {
  const aclDataType pairs[][2] = {{ACL_FLOAT16, ACL_FLOAT}, {ACL_FLOAT, ACL_FLOAT16}, {ACL_INT32, ACL_FLOAT},
                                  {ACL_BF16, ACL_FLOAT}, {ACL_FLOAT, ACL_DOUBLE}};
  for (const auto& pair : pairs) {
    DeviceTensor self(pair[0], {3});
    DeviceTensor out(pair[1], Contiguous({3}), kSentinelByte);
    ExpectRejected(CallPhase1(self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"out", "self"}, &out);
  }
}

// Equality only: any format passes when self and out agree (torch_npu's NCHW/NCL).
TEST_F(Validation, StorageFormatOfSelfDifferentFromOutIs161002) {
  DeviceTensor self(ACL_FLOAT, Contiguous({1, 2, 3, 4}, ACL_FORMAT_NCHW));
  DeviceTensor out(ACL_FLOAT, Contiguous({1, 2, 3, 4}, ACL_FORMAT_ND), kSentinelByte);
  ExpectRejected(CallPhase1(self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"out", "self"}, &out);
  DeviceTensor same(ACL_FLOAT, Contiguous({1, 2, 3, 4}, ACL_FORMAT_NCHW), kSentinelByte);
  const Phase1Result result = CallPhase1(self.get(), same.get());
  EXPECT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  EXPECT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS);
}

// First failure wins: each pair breaks two rules and the earlier one is reported.
TEST_F(Validation, ChecksRunInCannsOrder) {
  DeviceTensor double_self(ACL_DOUBLE, {2, 3});
  DeviceTensor float_out(ACL_FLOAT, Contiguous({3, 2}, ACL_FORMAT_NCHW), kSentinelByte);
  // dtype list before shape, dtype equality and format
  Phase1Result result = CallPhase1(double_self.get(), float_out.get());
  EXPECT_EQ(result.status, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(Contains(result.message, "does not support")) << result.message;
  // shape before dtype equality and format
  DeviceTensor half_self(ACL_FLOAT16, {2, 3});
  result = CallPhase1(half_self.get(), float_out.get());
  EXPECT_TRUE(Contains(result.message, "shape")) << result.message;
  // dtype equality before format
  DeviceTensor float_out_same_shape(ACL_FLOAT, Contiguous({2, 3}, ACL_FORMAT_NCHW), kSentinelByte);
  result = CallPhase1(half_self.get(), float_out_same_shape.get());
  EXPECT_TRUE(Contains(result.message, "dtype")) << result.message;
  // null before everything
  result = CallPhase1(nullptr, float_out.get());
  EXPECT_EQ(result.status, ACLNN_ERR_PARAM_NULLPTR);
}

// Our own checks after CANN's, as for the backward op.
TEST_F(Validation, NegativeDimsStridesOrOffsetsAre161002) {
  DeviceTensor out(ACL_FLOAT, Contiguous({4}), kSentinelByte);
  const int64_t dims[] = {4};
  const int64_t negative_stride[] = {-1};
  const int64_t storage[] = {8};
  aclTensor* bad_stride =
      aclCreateTensor(dims, 1, ACL_FLOAT, negative_stride, 3, ACL_FORMAT_ND, storage, 1, out.device());
  ExpectRejected(CallPhase1(bad_stride, out.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, &out);
  const int64_t strides[] = {1};
  aclTensor* bad_offset = aclCreateTensor(dims, 1, ACL_FLOAT, strides, -1, ACL_FORMAT_ND, storage, 1, out.device());
  ExpectRejected(CallPhase1(bad_offset, out.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, &out);
  ExpectRejected(CallInplacePhase1(bad_offset), ACLNN_ERR_PARAM_INVALID, {"self"}, nullptr,
                 "aclnnInplaceHardsigmoidGetWorkspaceSize");
  aclDestroyTensor(bad_stride);
  aclDestroyTensor(bad_offset);
}

TEST_F(Validation, ViewBeyondTheStorageShapeIs161002) {
  DeviceTensor::Layout layout = Contiguous({4});
  layout.strides = {2};
  layout.storage_elements = 7;  // the view reaches element 6... and one more with offset 1
  layout.offset = 1;
  DeviceTensor self(ACL_FLOAT, layout);
  DeviceTensor out(ACL_FLOAT, Contiguous({4}), kSentinelByte);
  ExpectRejected(CallPhase1(self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, &out);
}

// An empty tensor: workspace 0 and an executor that does nothing, in both forms.
TEST_F(Validation, EmptyTensorGivesWorkspaceZeroAndAnExecutorThatDoesNothing) {
  DeviceTensor::Layout empty = Contiguous({3, 0, 2});
  empty.storage_elements = 4;
  DeviceTensor self(ACL_FLOAT, empty);
  DeviceTensor out(ACL_FLOAT, empty, kSentinelByte);
  Phase1Result result = CallPhase1(self.get(), out.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  EXPECT_EQ(result.workspace_size, 0u);
  ASSERT_NE(result.executor, nullptr);
  EXPECT_EQ(LaunchAndWait(result.executor, 0, stream_), ACLNN_SUCCESS);
  EXPECT_TRUE(AllBytesAre(out.DownloadStorage(), kSentinelByte));
  result = CallInplacePhase1(out.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  EXPECT_EQ(result.workspace_size, 0u);
  EXPECT_EQ(LaunchAndWait(result.executor, 0, stream_, /*in_place=*/true), ACLNN_SUCCESS);
  EXPECT_TRUE(AllBytesAre(out.DownloadStorage(), kSentinelByte));
}

// Every failure leaves a message for aclGetRecentErrMsg naming the entry point.
TEST_F(Validation, EveryFailureRecordsAMessage) {
  DeviceTensor self(ACL_FLOAT, {2});
  DeviceTensor out(ACL_FLOAT16, Contiguous({2}), kSentinelByte);
  const Phase1Result result = CallPhase1(self.get(), out.get());
  EXPECT_NE(result.status, ACLNN_SUCCESS);
  EXPECT_TRUE(Contains(result.message, "aclnnHardsigmoidGetWorkspaceSize")) << result.message;
  EXPECT_TRUE(Contains(result.message, "EZ")) << result.message;
}

}  // namespace
}  // namespace aclcpu_hardsigmoid_test
