// The test cases CANN's own repository (hicann/ops-nn) has for
// aclnnHardsigmoidBackward, as listed in cann-api.md §4: the op_api unit tests
// (§4.1), the v3 unit tests (§4.2), the system-test json (§4.3) and the two
// examples (§4.4). Each test is named after its case and checks the exact
// phase-1 status; where the case succeeds it also runs phase 2 and compares the
// result bit for bit with PyTorch's values from tests/golden/data (the inputs
// of data-carrying cases are fixed there: seeded random values in [-10, 10], or
// the literal inputs of the examples).
//
// The ops-nn unit tests run on their stub's default SoC, Ascend910B; aclcpu's
// default (Ascend910B2) is in the same family, so bf16 is accepted.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "device_tensor.h"
#include "golden_file.h"
#include "golden_run.h"

namespace aclcpu_test {
namespace {

// Phase-1 status codes (cann-api.md §5.5). CANN programs compare against these
// numbers; the public headers do not name them.
constexpr aclnnStatus kSuccess = 0;
constexpr aclnnStatus kParamNullptr = 161001;  // ACLNN_ERR_PARAM_NULLPTR
constexpr aclnnStatus kParamInvalid = 161002;  // ACLNN_ERR_PARAM_INVALID

// Runs phase 1 and returns its status. On success the executor is handed back
// by running phase 2, as a CANN program must, and `workspace_size` (if given)
// receives phase 1's answer.
aclnnStatus Phase1Status(const aclTensor* grad, const aclTensor* self, aclTensor* out,
                         uint64_t* workspace_size_out = nullptr) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = aclnnHardsigmoidBackwardGetWorkspaceSize(grad, self, out, &workspace_size, &executor);
  if (workspace_size_out != nullptr) *workspace_size_out = workspace_size;
  if (status != kSuccess) return status;
  void* workspace = nullptr;
  if (workspace_size > 0) {
    EXPECT_EQ(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  EXPECT_EQ(aclnnHardsigmoidBackward(workspace, workspace_size, executor, RuntimeFixture::Stream()), kSuccess);
  EXPECT_EQ(aclrtSynchronizeStream(RuntimeFixture::Stream()), ACL_SUCCESS);
  if (workspace != nullptr) aclrtFree(workspace);
  return status;
}

// A contiguous operand declaring its view shape as storage shape, as the ops-nn
// unit-test harness and CANN's example create tensors.
Operand Dense(const std::vector<int64_t>& shape) {
  Operand operand = Contiguous(shape);
  operand.storage_dims = shape;
  return operand;
}

// Runs a data-carrying case from its golden file case_<name>.bin.
::testing::AssertionResult RunCase(const std::string& name, const std::vector<int64_t>& shape, const Operand& grad,
                                   const Operand& self, const Operand& out) {
  const GoldenFile golden = GoldenFile::Load("case_" + name);
  if (golden.shape() != shape) return ::testing::AssertionFailure() << "golden file " << name << " has another shape";
  return RunOnGolden(golden, golden.AllIndices(), grad, self, out);
}

::testing::AssertionResult RunDenseCase(const std::string& name, const std::vector<int64_t>& shape) {
  return RunCase(name, shape, Dense(shape), Dense(shape), Dense(shape));
}

// ---------------------------------------------------------------------------------------
// §4.1 activation/hard_sigmoid_grad/tests/ut/op_host/op_api/test_aclnn_hardsigmoid_backward.cpp

TEST(OpsNnUt, grad_nullptr) {
  DeviceTensor self(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(nullptr, self.get(), out.get()), kParamNullptr);
}

TEST(OpsNnUt, self_nullptr) {
  DeviceTensor grad(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), nullptr, out.get()), kParamNullptr);
}

TEST(OpsNnUt, out_nullptr) {
  DeviceTensor grad(ACL_FLOAT, {2, 3}), self(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), nullptr), kParamNullptr);
}

TEST(OpsNnUt, gradOutput_invalid_dtype) {
  DeviceTensor grad(ACL_INT32, {2, 3}), self(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnUt, self_invalid_dtype_int32) {
  DeviceTensor grad(ACL_FLOAT, {2, 3}), self(ACL_INT32, {2, 3}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnUt, self_invalid_dtype_bool) {
  DeviceTensor grad(ACL_FLOAT, {2, 3}), self(ACL_BOOL, {2, 3}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnUt, self_invalid_shape_9_dim) {
  DeviceTensor grad(ACL_FLOAT, {2, 3}), self(ACL_FLOAT, {2, 3, 1, 1, 1, 1, 1, 1, 1}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnUt, gradOutput_invalid_shape_9_dim) {
  DeviceTensor grad(ACL_FLOAT, {2, 3, 1, 1, 1, 1, 1, 1, 1}), self(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnUt, gradOutput_self_shape_not_equal) {
  DeviceTensor grad(ACL_FLOAT, {2, 3, 1}), self(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnUt, self_out_shape_not_equal) {
  DeviceTensor grad(ACL_FLOAT, {2, 3}), self(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3, 1});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnUt, empty_tensor) {
  DeviceTensor grad(ACL_FLOAT, {0}), self(ACL_FLOAT, {0}), out(ACL_FLOAT, {0});
  uint64_t workspace_size = 1;
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get(), &workspace_size), kSuccess);
  EXPECT_EQ(workspace_size, 0u);
}

TEST(OpsNnUt, empty_tensor_2_0_3) {
  DeviceTensor grad(ACL_FLOAT, {2, 0, 3}), self(ACL_FLOAT, {2, 0, 3}), out(ACL_FLOAT, {2, 0, 3});
  uint64_t workspace_size = 1;
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get(), &workspace_size), kSuccess);
  EXPECT_EQ(workspace_size, 0u);
}

TEST(OpsNnUt, float32_nd) { EXPECT_TRUE(RunDenseCase("ut_float32_nd", {2, 3})); }

TEST(OpsNnUt, float16_nd) { EXPECT_TRUE(RunDenseCase("ut_float16_nd", {2, 3})); }

TEST(OpsNnUt, ascend910B2_bfloat16_nd) { EXPECT_TRUE(RunDenseCase("ut_ascend910B2_bfloat16_nd", {2, 3})); }

TEST(OpsNnUt, grad_float16_self_float_nd) { EXPECT_TRUE(RunDenseCase("ut_grad_float16_self_float_nd", {2, 3})); }

TEST(OpsNnUt, self_transpose) {
  // self: view {2,3}, strides {2,1}, offset 0 over a {3,2} storage; its
  // elements (0,2) and (1,0) alias, and the golden inputs agree there.
  Operand self;
  self.layout.shape = {2, 3};
  self.layout.strides = {2, 1};
  self.layout.storage_elements = 6;
  self.storage_dims = {3, 2};
  EXPECT_TRUE(RunCase("ut_self_transpose", {2, 3}, Dense({2, 3}), self, Dense({2, 3})));
}

// ---------------------------------------------------------------------------------------
// §4.2 experimental/activation/hard_sigmoid_grad_v3/tests/ut/op_api/test_aclnn_hardsigmoid_backward.cpp

TEST(OpsNnV3Ut, case_001_float) { EXPECT_TRUE(RunDenseCase("v3_case_001_float", {2, 4})); }

TEST(OpsNnV3Ut, case_002_float16) { EXPECT_TRUE(RunDenseCase("v3_case_002_float16", {2, 5})); }

TEST(OpsNnV3Ut, case_003_bfloat16) {
  // Status 0 on the Ascend910B / 910_93 / 910E families (the default SoC); the
  // golden comparison also runs phase 2.
  EXPECT_TRUE(RunDenseCase("v3_case_003_bfloat16", {2, 5}));
}

TEST(OpsNnV3Ut, case_004_mixed_dtype) { EXPECT_TRUE(RunDenseCase("v3_case_004_mixed_dtype", {2, 4})); }

TEST(OpsNnV3Ut, case_005_empty_tensor) {
  DeviceTensor grad(ACL_FLOAT, {2, 0}), self(ACL_FLOAT, {2, 0}), out(ACL_FLOAT, {2, 0});
  uint64_t workspace_size = 1;
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get(), &workspace_size), kSuccess);
  EXPECT_EQ(workspace_size, 0u);
}

TEST(OpsNnV3Ut, case_006_not_contiguous) {
  // All three: view {5,4}, strides {1,5}, offset 0, storage {4,5} (a transpose).
  Operand transposed;
  transposed.layout.shape = {5, 4};
  transposed.layout.strides = {1, 5};
  transposed.layout.storage_elements = 20;
  transposed.storage_dims = {4, 5};
  EXPECT_TRUE(RunCase("v3_case_006_not_contiguous", {5, 4}, transposed, transposed, transposed));
}

TEST(OpsNnV3Ut, case_007_scalar_input) { EXPECT_TRUE(RunDenseCase("v3_case_007_scalar_input", {})); }

TEST(OpsNnV3Ut, case_008_invalid_grad_dtype) {
  DeviceTensor grad(ACL_INT32, {2, 3}), self(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnV3Ut, case_009_invalid_out_dtype) {
  DeviceTensor grad(ACL_FLOAT, {2, 3}), self(ACL_FLOAT, {2, 3}), out(ACL_INT32, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnV3Ut, case_010_shape_mismatch) {
  DeviceTensor grad(ACL_FLOAT, {2, 3, 1}), self(ACL_FLOAT, {2, 3}), out(ACL_FLOAT, {2, 3});
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnV3Ut, case_011_invalid_dim) {
  const std::vector<int64_t> nine_dims = {2, 4, 5, 2, 3, 4, 8, 1, 1};
  DeviceTensor grad(ACL_FLOAT, nine_dims), self(ACL_FLOAT, nine_dims), out(ACL_FLOAT, nine_dims);
  EXPECT_EQ(Phase1Status(grad.get(), self.get(), out.get()), kParamInvalid);
}

TEST(OpsNnV3Ut, case_012_nullptr) {
  DeviceTensor self(ACL_FLOAT, {2, 4}), out(ACL_FLOAT, {2, 4});
  EXPECT_EQ(Phase1Status(nullptr, self.get(), out.get()), kParamNullptr);
}

// ---------------------------------------------------------------------------------------
// §4.3 experimental/.../hard_sigmoid_grad_v3/tests/st/aclnnHardsigmoidBackward/all_aclnnHardsigmoidBackward.json
// (its golden is torch.ops.aten.hardsigmoid_backward, as ours is).

TEST(OpsNnSt, fp16) { EXPECT_TRUE(RunDenseCase("st_fp16", {128})); }

TEST(OpsNnSt, bf16) { EXPECT_TRUE(RunDenseCase("st_bf16", {32, 256})); }

TEST(OpsNnSt, fp32_scalar) { EXPECT_TRUE(RunDenseCase("st_fp32_scalar", {})); }

// ---------------------------------------------------------------------------------------
// §4.4 the examples: CANN's documented call example (self = grad = 0..7, f32
// {4,2}) and the v3 example (grad 1..8, self {-4,-2,-1,0,1,2,3,4}).

TEST(OpsNnExample, doc_example) { EXPECT_TRUE(RunDenseCase("doc_example", {4, 2})); }

TEST(OpsNnExample, v3_example) { EXPECT_TRUE(RunDenseCase("v3_example", {4, 2})); }

}  // namespace
}  // namespace aclcpu_test
