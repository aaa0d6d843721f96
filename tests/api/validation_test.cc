// Phase 1 of aclnnHardsigmoidBackward: the argument checks, their order, their
// status codes and messages, and what a rejected call must not do (write to out,
// hand out a usable executor). Runs on the default SoC (Ascend910B2, Atlas A2);
// the SoC-dependent clauses are in soc_test.cc.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "api_test_util.h"

namespace aclcpu_api_test {
namespace {

class Phase1 : public ApiTest {
 protected:
  // Phase 1 must accept `operands`; phase 2 then runs and must succeed too.
  void ExpectAcceptedAndRunnable(Operands& operands) {
    const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
    ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
    ASSERT_NE(result.executor, nullptr);
    EXPECT_NE(result.workspace_size, kUntouchedWorkspaceSize) << "phase 1 did not set *workspaceSize";
    EXPECT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
  }
};

// ---- 1. workspaceSize / executor pointers ------------------------------------------

TEST_F(Phase1, NullWorkspaceSizeReturns161001) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(operands.grad_output.get(), operands.self.get(),
                                                     operands.out.get(), nullptr, &executor),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(executor, nullptr);
  EXPECT_TRUE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte));
}

TEST_F(Phase1, NullExecutorReturns161001) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  uint64_t workspace_size = kUntouchedWorkspaceSize;
  EXPECT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(operands.grad_output.get(), operands.self.get(),
                                                     operands.out.get(), &workspace_size, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte));
}

TEST_F(Phase1, NullWorkspaceSizeReturns161001EvenWithNullTensors) {
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(nullptr, nullptr, nullptr, nullptr, &executor),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(executor, nullptr);
}

TEST_F(Phase1, NullExecutorReturns161001EvenWithNullTensors) {
  uint64_t workspace_size = kUntouchedWorkspaceSize;
  EXPECT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(nullptr, nullptr, nullptr, &workspace_size, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
}

// The pointer check comes first: tensors that would fail a later check (dtype and
// shape) must not change the status to 161002.
TEST_F(Phase1, NullWorkspaceSizeCheckedBeforeDtypeAndShape) {
  Operands operands(ACL_INT32, Contiguous({2, 3}), ACL_INT64, Contiguous({3, 2}), ACL_BOOL, Contiguous({6}));
  aclOpExecutor* executor = nullptr;
  EXPECT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(operands.grad_output.get(), operands.self.get(),
                                                     operands.out.get(), nullptr, &executor),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(executor, nullptr);
}

TEST_F(Phase1, NullExecutorCheckedBeforeDtypeAndShape) {
  Operands operands(ACL_INT32, Contiguous({2, 3}), ACL_INT64, Contiguous({3, 2}), ACL_BOOL, Contiguous({6}));
  uint64_t workspace_size = kUntouchedWorkspaceSize;
  EXPECT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(operands.grad_output.get(), operands.self.get(),
                                                     operands.out.get(), &workspace_size, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
}

// ---- 2. null tensors, in the order gradOutput, self, out --------------------------

TEST_F(Phase1, NullGradOutputReturns161001NamingIt) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  ExpectRejected(CallPhase1(nullptr, operands.self.get(), operands.out.get()), ACLNN_ERR_PARAM_NULLPTR,
                 {"gradOutput"}, &operands.out);
}

TEST_F(Phase1, NullSelfReturns161001NamingIt) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  ExpectRejected(CallPhase1(operands.grad_output.get(), nullptr, operands.out.get()), ACLNN_ERR_PARAM_NULLPTR,
                 {"self"}, &operands.out);
}

TEST_F(Phase1, NullOutReturns161001NamingIt) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR,
                 {"out"}, nullptr);
}

TEST_F(Phase1, NullGradOutputCheckedBeforeNullSelfAndOut) {
  const Phase1Result result = CallPhase1(nullptr, nullptr, nullptr);
  ExpectRejected(result, ACLNN_ERR_PARAM_NULLPTR, {"gradOutput"}, nullptr);
}

TEST_F(Phase1, NullSelfCheckedBeforeNullOut) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  const Phase1Result result = CallPhase1(operands.grad_output.get(), nullptr, nullptr);
  ExpectRejected(result, ACLNN_ERR_PARAM_NULLPTR, {"self"}, nullptr);
  EXPECT_FALSE(NamesIdentifier(result.message, "out")) << "blamed out although self is checked first: "
                                                       << result.message;
}

// A null tensor wins over an unsupported dtype of another tensor.
TEST_F(Phase1, NullTensorCheckedBeforeDtype) {
  Operands operands(ACL_INT32, ACL_INT32, ACL_INT32);
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR,
                 {"out"}, nullptr);
}

// ---- 3. input dtypes ------------------------------------------------------------

struct DtypeCase {
  aclDataType dtype;
  const char* name;  // how messages spell it
};

std::string DtypeCaseName(const ::testing::TestParamInfo<DtypeCase>& info) {
  std::string name = info.param.name;
  if (name.rfind("DT_", 0) == 0) name = name.substr(3);
  return name;
}

// Dtypes no SoC supports for gradOutput / self.
const DtypeCase kUnsupportedInputDtypes[] = {
    {ACL_INT8, "DT_INT8"},   {ACL_INT16, "DT_INT16"},   {ACL_INT32, "DT_INT32"},     {ACL_INT64, "DT_INT64"},
    {ACL_UINT8, "DT_UINT8"}, {ACL_BOOL, "DT_BOOL"},     {ACL_DOUBLE, "DT_DOUBLE"},   {ACL_COMPLEX64, "DT_COMPLEX64"},
};

class Phase1UnsupportedInputDtype : public Phase1, public ::testing::WithParamInterface<DtypeCase> {};

TEST_P(Phase1UnsupportedInputDtype, GradOutputReturns161002NamingItAndDtype) {
  Operands operands(GetParam().dtype, ACL_FLOAT, ACL_FLOAT);
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"gradOutput", GetParam().name}, &operands.out);
}

TEST_P(Phase1UnsupportedInputDtype, SelfReturns161002NamingItAndDtype) {
  Operands operands(ACL_FLOAT, GetParam().dtype, ACL_FLOAT);
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self", GetParam().name}, &operands.out);
}

INSTANTIATE_TEST_SUITE_P(Phase1, Phase1UnsupportedInputDtype, ::testing::ValuesIn(kUnsupportedInputDtypes),
                         DtypeCaseName);

TEST_F(Phase1, GradOutputDtypeCheckedBeforeSelfDtype) {
  Operands operands(ACL_INT8, ACL_INT32, ACL_FLOAT);
  const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
  ExpectRejected(result, ACLNN_ERR_PARAM_INVALID, {"gradOutput", "DT_INT8"}, &operands.out);
  EXPECT_FALSE(Contains(result.message, "DT_INT32")) << result.message;
}

TEST_F(Phase1, SelfDtypeCheckedBeforeOutDtype) {
  Operands operands(ACL_FLOAT, ACL_INT32, ACL_INT64);
  const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
  ExpectRejected(result, ACLNN_ERR_PARAM_INVALID, {"self", "DT_INT32"}, &operands.out);
  EXPECT_FALSE(Contains(result.message, "DT_INT64")) << result.message;
}

TEST_F(Phase1, DtypeCheckedBeforeShape) {
  Operands operands(ACL_INT32, Contiguous({2, 3}), ACL_FLOAT, Contiguous({3, 2}), ACL_FLOAT, Contiguous({3, 2}));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"gradOutput", "DT_INT32"}, &operands.out);
}

// Default SoC (Atlas A2): FLOAT, FLOAT16 and BF16 in any combination; the
// promoted type is castable to a FLOAT out.
TEST_F(Phase1, FloatFloat16Bf16InputsAcceptedInAnyCombination) {
  for (aclDataType grad_dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (aclDataType self_dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      SCOPED_TRACE(testing::Message() << "gradOutput dtype " << grad_dtype << ", self dtype " << self_dtype);
      Operands operands(grad_dtype, self_dtype, ACL_FLOAT);
      ExpectAcceptedAndRunnable(operands);
    }
  }
}

// ---- 4. promoted type must be castable to out's dtype -----------------------------

const DtypeCase kIntegralAndBoolDtypes[] = {
    {ACL_INT8, "DT_INT8"},     {ACL_INT16, "DT_INT16"},   {ACL_INT32, "DT_INT32"},   {ACL_INT64, "DT_INT64"},
    {ACL_UINT8, "DT_UINT8"},   {ACL_UINT16, "DT_UINT16"}, {ACL_UINT32, "DT_UINT32"}, {ACL_UINT64, "DT_UINT64"},
    {ACL_BOOL, "DT_BOOL"},
};

class Phase1IntegralOrBoolOut : public Phase1, public ::testing::WithParamInterface<DtypeCase> {};

TEST_P(Phase1IntegralOrBoolOut, Returns161002NamingOut) {
  for (aclDataType input_dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    SCOPED_TRACE(testing::Message() << "input dtype " << input_dtype);
    Operands operands(input_dtype, input_dtype, GetParam().dtype);
    ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                   ACLNN_ERR_PARAM_INVALID, {"out"}, &operands.out);
  }
}

INSTANTIATE_TEST_SUITE_P(Phase1, Phase1IntegralOrBoolOut, ::testing::ValuesIn(kIntegralAndBoolDtypes),
                         DtypeCaseName);

const DtypeCase kFloatingOutDtypes[] = {
    {ACL_DOUBLE, "DT_DOUBLE"}, {ACL_FLOAT, "DT_FLOAT"}, {ACL_FLOAT16, "DT_FLOAT16"}, {ACL_BF16, "DT_BF16"}};

class Phase1FloatingOut : public Phase1, public ::testing::WithParamInterface<DtypeCase> {};

// Every element of out is written (none keeps the sentinel pattern; the results
// are small numbers, never that bit pattern).
TEST_P(Phase1FloatingOut, AcceptedAndEveryElementWritten) {
  for (aclDataType input_dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    SCOPED_TRACE(testing::Message() << "input dtype " << input_dtype);
    Operands operands(input_dtype, input_dtype, GetParam().dtype);
    ExpectAcceptedAndRunnable(operands);
    const std::vector<uint8_t> storage = operands.out.DownloadStorage();
    const size_t element_size = aclDataTypeSize(GetParam().dtype);
    ASSERT_GT(element_size, 0u);
    for (size_t offset = 0; offset < storage.size(); offset += element_size) {
      const std::vector<uint8_t> element(storage.begin() + offset, storage.begin() + offset + element_size);
      EXPECT_FALSE(AllBytesAre(element, kSentinelByte)) << "element " << offset / element_size << " not written";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Phase1, Phase1FloatingOut, ::testing::ValuesIn(kFloatingOutDtypes), DtypeCaseName);

// Out dtypes that pass CANN's cast rule but that aclcpu cannot write: the pair of
// calls must never report success, must say why, and must leave out alone.
const DtypeCase kUnwritableOutDtypes[] = {
    {ACL_COMPLEX64, "DT_COMPLEX64"}, {ACL_COMPLEX128, "DT_COMPLEX128"}, {ACL_STRING, "DT_STRING"},
    {ACL_INT4, "DT_INT4"},           {ACL_UINT1, "DT_UINT1"},           {ACL_DT_UNDEFINED, "DT_UNDEFINED"},
};

class Phase1UnwritableOut : public Phase1, public ::testing::WithParamInterface<DtypeCase> {};

TEST_P(Phase1UnwritableOut, NeverReportsSuccess) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, GetParam().dtype);
  const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
  aclnnStatus status = result.status;
  std::string message = result.message;
  if (status == ACLNN_SUCCESS) {
    // Refusing in phase 2 is acceptable too, as long as it is refused.
    ASSERT_NE(result.executor, nullptr);
    status = LaunchAndWait(result.executor, result.workspace_size, stream_);
    message = TakeRecentErrMsg();
  }
  EXPECT_NE(status, ACLNN_SUCCESS) << "out dtype " << GetParam().name << " reported success";
  EXPECT_FALSE(message.empty()) << "status " << status << " came without a message";
  EXPECT_TRUE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte)) << "a refused call wrote to out";
}

INSTANTIATE_TEST_SUITE_P(Phase1, Phase1UnwritableOut, ::testing::ValuesIn(kUnwritableOutDtypes), DtypeCaseName);

// ---- 5. rank and shape --------------------------------------------------------------

const std::vector<int64_t> kRank8Shape = {1, 2, 1, 2, 1, 1, 2, 1};
const std::vector<int64_t> kRank9Shape = {1, 2, 1, 2, 1, 1, 2, 1, 1};

TEST_F(Phase1, Rank8Accepted) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kRank8Shape);
  ExpectAcceptedAndRunnable(operands);
}

// Equal shapes, so only the rank limit can reject them.
TEST_F(Phase1, Rank9OnAllThreeReturns161002) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, kRank9Shape);
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"gradOutput"}, &operands.out);
}

TEST_F(Phase1, Rank9GradOutputReturns161002NamingIt) {
  Operands operands(ACL_FLOAT, Contiguous(kRank9Shape), ACL_FLOAT, Contiguous(kRank8Shape), ACL_FLOAT,
                    Contiguous(kRank8Shape));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"gradOutput"}, &operands.out);
}

TEST_F(Phase1, Rank9SelfReturns161002NamingIt) {
  Operands operands(ACL_FLOAT, Contiguous(kRank8Shape), ACL_FLOAT, Contiguous(kRank9Shape), ACL_FLOAT,
                    Contiguous(kRank8Shape));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self"}, &operands.out);
}

TEST_F(Phase1, Rank9OutReturns161002NamingIt) {
  Operands operands(ACL_FLOAT, Contiguous(kRank8Shape), ACL_FLOAT, Contiguous(kRank8Shape), ACL_FLOAT,
                    Contiguous(kRank9Shape));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"out"}, &operands.out);
}

TEST_F(Phase1, SelfGradOutputShapeMismatchReturns161002NamingBoth) {
  Operands operands(ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, Contiguous({3, 2}), ACL_FLOAT, Contiguous({3, 2}));
  const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
  ExpectRejected(result, ACLNN_ERR_PARAM_INVALID, {"self", "gradOutput"}, &operands.out);
  EXPECT_TRUE(Contains(result.message, "self [3,2]") && Contains(result.message, "gradOutput [2,3]")) << result.message;
}

TEST_F(Phase1, SelfOutShapeMismatchReturns161002NamingBoth) {
  Operands operands(ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, Contiguous({3, 2}));
  const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
  ExpectRejected(result, ACLNN_ERR_PARAM_INVALID, {"self", "out"}, &operands.out);
  EXPECT_TRUE(Contains(result.message, "self [2,3]") && Contains(result.message, "out [3,2]")) << result.message;
}

// Same element count, different rank: shapes are compared rank included.
TEST_F(Phase1, RankMismatchWithSameElementCountReturns161002) {
  Operands operands(ACL_FLOAT, Contiguous({6}), ACL_FLOAT, Contiguous({1, 6}), ACL_FLOAT, Contiguous({1, 6}));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self", "gradOutput"}, &operands.out);
}

TEST_F(Phase1, ZeroDimVersusOneElementReturns161002) {
  Operands operands(ACL_FLOAT, Contiguous({}), ACL_FLOAT, Contiguous({1}), ACL_FLOAT, Contiguous({1}));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self", "gradOutput"}, &operands.out);
}

TEST_F(Phase1, BroadcastableGradOutputReturns161002) {
  Operands operands(ACL_FLOAT, Contiguous({1, 3}), ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, Contiguous({2, 3}));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self", "gradOutput"}, &operands.out);
}

TEST_F(Phase1, BroadcastableOutReturns161002) {
  Operands operands(ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, Contiguous({2, 1, 3}));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self", "out"}, &operands.out);
}

// Only view shapes are compared: strides, offsets and storage sizes may differ.
TEST_F(Phase1, ShapeCheckComparesViewShapesOnly) {
  DeviceTensor::Layout transposed;  // a 2x3 view of a 3x2 row-major buffer
  transposed.shape = {2, 3};
  transposed.strides = {1, 2};
  DeviceTensor::Layout offset_view;  // a 2x3 view starting 5 elements into 40
  offset_view.shape = {2, 3};
  offset_view.strides = {8, 2};
  offset_view.offset = 5;
  offset_view.storage_elements = 40;
  Operands operands(ACL_FLOAT, transposed, ACL_FLOAT, offset_view, ACL_FLOAT, Contiguous({2, 3}));
  ExpectAcceptedAndRunnable(operands);
}

// ---- 6. no format check -------------------------------------------------------------

struct FormatCase {
  aclFormat format;
  std::vector<int64_t> shape;
  const char* label;
};

class Phase1Format : public Phase1, public ::testing::WithParamInterface<FormatCase> {};

// Accepted, and the format changes nothing: out equals a run on ND tensors.
TEST_P(Phase1Format, AcceptedAndSameResultAsNd) {
  const FormatCase& param = GetParam();
  Operands formatted(ACL_FLOAT, Contiguous(param.shape, param.format), ACL_FLOAT,
                     Contiguous(param.shape, param.format), ACL_FLOAT, Contiguous(param.shape, param.format));
  Operands nd(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, param.shape);
  const std::vector<uint8_t> expected = ReferenceStorage(nd.grad_output, nd.self, nd.out, stream_);
  ExpectAcceptedAndRunnable(formatted);
  EXPECT_EQ(formatted.out.DownloadStorage(), expected);
}

INSTANTIATE_TEST_SUITE_P(
    Phase1, Phase1Format,
    ::testing::Values(FormatCase{ACL_FORMAT_NCHW, {2, 3, 2, 2}, "NCHW_4d"},
                      FormatCase{ACL_FORMAT_NCL, {2, 3, 4}, "NCL_3d"},
                      FormatCase{ACL_FORMAT_NCDHW, {1, 2, 3, 2, 2}, "NCDHW_5d"},
                      FormatCase{ACL_FORMAT_NHWC, {2, 2, 2, 3}, "NHWC_4d"},
                      FormatCase{ACL_FORMAT_ND, {4, 6}, "ND_2d"},
                      FormatCase{ACL_FORMAT_NCHW, {4, 6}, "NCHW_on_2d"}),
    [](const ::testing::TestParamInfo<FormatCase>& info) { return std::string(info.param.label); });

TEST_F(Phase1, DifferentFormatsPerTensorAccepted) {
  const std::vector<int64_t> shape = {2, 3, 2, 2};
  Operands operands(ACL_FLOAT, Contiguous(shape, ACL_FORMAT_NCHW), ACL_FLOAT, Contiguous(shape, ACL_FORMAT_ND),
                    ACL_FLOAT, Contiguous(shape, ACL_FORMAT_NHWC));
  ExpectAcceptedAndRunnable(operands);
}

// ---- 7. empty and 0-d tensors --------------------------------------------------------

class Phase1EmptyTensor : public Phase1, public ::testing::WithParamInterface<std::vector<int64_t>> {};

TEST_P(Phase1EmptyTensor, ZeroWorkspaceAndAnExecutorThatWritesNothing) {
  DeviceTensor::Layout out_layout = Contiguous(GetParam());
  out_layout.storage_elements = 8;  // room the launch could scribble on
  Operands operands(ACL_FLOAT, Contiguous(GetParam()), ACL_FLOAT, Contiguous(GetParam()), ACL_FLOAT, out_layout);
  const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  EXPECT_EQ(result.workspace_size, 0u);
  ASSERT_NE(result.executor, nullptr);
  EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, result.executor, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
  EXPECT_EQ(aclrtSynchronizeStream(stream_), ACL_SUCCESS);
  EXPECT_TRUE(AllBytesAre(operands.out.DownloadStorage(), kSentinelByte)) << "an empty launch wrote to out";
}

INSTANTIATE_TEST_SUITE_P(Phase1, Phase1EmptyTensor,
                         ::testing::Values(std::vector<int64_t>{0}, std::vector<int64_t>{2, 0, 3},
                                           std::vector<int64_t>{4, 0}, std::vector<int64_t>{0, 0},
                                           std::vector<int64_t>{1, 2, 1, 2, 1, 1, 2, 0}),
                         [](const ::testing::TestParamInfo<std::vector<int64_t>>& info) {
                           std::string name = "shape";
                           for (int64_t dim : info.param) name += "_" + std::to_string(dim);
                           return name;
                         });

// Emptiness does not skip the checks before it.
TEST_F(Phase1, EmptyTensorStillChecksDtype) {
  Operands operands(ACL_INT32, ACL_FLOAT, ACL_FLOAT, {0, 3});
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"gradOutput", "DT_INT32"}, &operands.out);
}

TEST_F(Phase1, EmptyTensorStillChecksShapes) {
  Operands operands(ACL_FLOAT, Contiguous({0, 3}), ACL_FLOAT, Contiguous({3, 0}), ACL_FLOAT, Contiguous({3, 0}));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self", "gradOutput"}, &operands.out);
}

// viewDimsNum = 0 is a scalar: one element, computed like a 1-element tensor.
TEST_F(Phase1, ZeroDimTensorIsOneElementNotEmpty) {
  Operands scalar(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {});
  Operands single(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT, {1});
  // Inside the (-3, 3) window, so the expected result is not zero.
  for (Operands* operands : {&scalar, &single}) {
    Upload(operands->grad_output, {3.0f});
    Upload(operands->self, {1.5f});
  }
  const std::vector<uint8_t> expected = ReferenceStorage(single.grad_output, single.self, single.out, stream_);
  const Phase1Result result = CallPhase1(scalar.grad_output.get(), scalar.self.get(), scalar.out.get());
  ASSERT_EQ(result.status, ACLNN_SUCCESS) << result.message;
  ASSERT_NE(result.executor, nullptr);
  EXPECT_EQ(LaunchAndWait(result.executor, result.workspace_size, stream_), ACLNN_SUCCESS) << TakeRecentErrMsg();
  const std::vector<uint8_t> written = scalar.out.DownloadStorage();
  EXPECT_FALSE(AllBytesAre(written, kSentinelByte)) << "the 0-d out was not written";
  EXPECT_EQ(written, expected);
}

// ---- 8. view geometry (beyond CANN's list: CANN documents dims, strides and
// offsets as non-negative and the storage as what the data address points to) --

// A view described directly with aclCreateTensor over a small real buffer: the
// geometry checks must refuse it before anything is read or written.
class RawView {
 public:
  RawView(std::vector<int64_t> dims, std::vector<int64_t> strides, int64_t offset, std::vector<int64_t> storage) {
    EXPECT_EQ(aclrtMalloc(&memory_, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    tensor_ = aclCreateTensor(dims.data(), dims.size(), ACL_FLOAT, strides.data(), offset, ACL_FORMAT_ND,
                              storage.data(), storage.size(), memory_);
  }
  RawView(const RawView&) = delete;
  RawView& operator=(const RawView&) = delete;
  ~RawView() {
    aclDestroyTensor(tensor_);
    aclrtFree(memory_);
  }
  aclTensor* get() const { return tensor_; }

 private:
  void* memory_ = nullptr;
  aclTensor* tensor_ = nullptr;
};

TEST_F(Phase1, ViewReachingBeyondItsStorageShapeReturns161002NamingIt) {
  // {2,3} contiguous needs 6 elements; offset 1 makes it reach element 6 of 6.
  DeviceTensor::Layout beyond = Contiguous({2, 3});
  beyond.offset = 1;
  beyond.storage_elements = 6;
  Operands operands(ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, beyond, ACL_FLOAT, Contiguous({2, 3}));
  ExpectRejected(CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"self"}, &operands.out);
}

TEST_F(Phase1, OutViewReachingBeyondItsStorageShapeReturns161002NamingIt) {
  DeviceTensor::Layout beyond = Contiguous({2, 3});
  beyond.strides = {4, 1};  // reaches element 6 of a 6-element storage
  beyond.storage_elements = 6;
  Operands with_bad_out(ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, Contiguous({2, 3}), ACL_FLOAT, beyond);
  ExpectRejected(CallPhase1(with_bad_out.grad_output.get(), with_bad_out.self.get(), with_bad_out.out.get()),
                 ACLNN_ERR_PARAM_INVALID, {"out"}, &with_bad_out.out);
}

TEST_F(Phase1, ViewFillingItsStorageExactlyIsAccepted) {
  DeviceTensor::Layout exact = Contiguous({2, 3});
  exact.offset = 2;
  exact.storage_elements = 8;
  Operands operands(ACL_FLOAT, exact, ACL_FLOAT, exact, ACL_FLOAT, exact);
  ExpectAcceptedAndRunnable(operands);
}

TEST_F(Phase1, NegativeDimReturns161002) {
  RawView grad({-2, 3}, {3, 1}, 0, {6}), self({-2, 3}, {3, 1}, 0, {6}), out({-2, 3}, {3, 1}, 0, {6});
  ExpectRejected(CallPhase1(grad.get(), self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"out"}, nullptr);
}

// Phase 1 judges a tensor's view as last described: aclInitTensor re-describes
// it in place, and the next phase 1 sees the new view, valid or not.
TEST_F(Phase1, ViewRedescribedByInitTensorIsJudgedAsRedescribed) {
  // out's view (offset 1) reaches element 6 of a 6-element storage.
  RawView grad({2, 3}, {3, 1}, 0, {6}), self({2, 3}, {3, 1}, 0, {6}), out({2, 3}, {3, 1}, 1, {6});
  ExpectRejected(CallPhase1(grad.get(), self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"out"}, nullptr);
  void* out_data = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(out.get(), &out_data), ACLNN_SUCCESS);
  const int64_t dims[2] = {2, 3}, strides[2] = {3, 1}, storage[1] = {6};
  ASSERT_EQ(aclInitTensor(out.get(), dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, storage, 1, out_data),
            ACLNN_SUCCESS);
  const Phase1Result accepted = CallPhase1(grad.get(), self.get(), out.get());
  ASSERT_EQ(accepted.status, ACLNN_SUCCESS) << accepted.message;
  EXPECT_EQ(aclDestroyAclOpExecutor(accepted.executor), ACLNN_SUCCESS);
  void* self_data = nullptr;
  ASSERT_EQ(aclGetRawTensorAddr(self.get(), &self_data), ACLNN_SUCCESS);
  const int64_t negative_strides[2] = {-3, 1};
  ASSERT_EQ(aclInitTensor(self.get(), dims, 2, ACL_FLOAT, negative_strides, 3, ACL_FORMAT_ND, storage, 1, self_data),
            ACLNN_SUCCESS);
  ExpectRejected(CallPhase1(grad.get(), self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, nullptr);
}

TEST_F(Phase1, NegativeStrideReturns161002NamingTheTensor) {
  RawView grad({2, 3}, {3, 1}, 0, {6}), self({2, 3}, {-3, 1}, 3, {6}), out({2, 3}, {3, 1}, 0, {6});
  ExpectRejected(CallPhase1(grad.get(), self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"self"}, nullptr);
}

TEST_F(Phase1, NegativeOffsetReturns161002NamingTheTensor) {
  RawView grad({2, 3}, {3, 1}, -1, {6}), self({2, 3}, {3, 1}, 0, {6}), out({2, 3}, {3, 1}, 0, {6});
  ExpectRejected(CallPhase1(grad.get(), self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"gradOutput"}, nullptr);
}

TEST_F(Phase1, ViewExtentOverflowing64BitsReturns161002) {
  const int64_t huge = int64_t{1} << 40;
  RawView grad({huge, huge}, {huge, 1}, 0, {}), self({huge, huge}, {huge, 1}, 0, {}),
      out({huge, huge}, {huge, 1}, 0, {});
  ExpectRejected(CallPhase1(grad.get(), self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"out"}, nullptr);
}

TEST_F(Phase1, ElementCountOverflowing64BitsWithZeroStridesReturns161002) {
  // Zero strides keep the extent at one element; the count is 2^80.
  const int64_t huge = int64_t{1} << 40;
  RawView grad({huge, huge}, {0, 0}, 0, {1}), self({huge, huge}, {0, 0}, 0, {1}), out({huge, huge}, {0, 0}, 0, {1});
  ExpectRejected(CallPhase1(grad.get(), self.get(), out.get()), ACLNN_ERR_PARAM_INVALID, {"out"}, nullptr);
}

}  // namespace
}  // namespace aclcpu_api_test
