// The aclnn meta API (acl_meta.h, aclnn_base.h): creating and describing
// aclTensor and its siblings, their getters and destroyers, aclnnInit /
// aclnnFinalize, and aclGetRecentErrMsg after a failed operator call.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "api_test_util.h"

namespace aclcpu_api_test {
namespace {

// Arrays the getters return are new[]-allocated and owned by the caller.
std::vector<int64_t> TakeArray(int64_t* values, uint64_t count) {
  std::vector<int64_t> copy(values, values + (values != nullptr ? count : 0));
  delete[] values;
  return copy;
}

std::vector<int64_t> ViewShape(const aclTensor* tensor) {
  int64_t* dims = nullptr;
  uint64_t count = 0;
  EXPECT_EQ(aclGetViewShape(tensor, &dims, &count), ACLNN_SUCCESS);
  return TakeArray(dims, count);
}
std::vector<int64_t> StorageShape(const aclTensor* tensor) {
  int64_t* dims = nullptr;
  uint64_t count = 0;
  EXPECT_EQ(aclGetStorageShape(tensor, &dims, &count), ACLNN_SUCCESS);
  return TakeArray(dims, count);
}
std::vector<int64_t> ViewStrides(const aclTensor* tensor) {
  int64_t* strides = nullptr;
  uint64_t count = 0;
  EXPECT_EQ(aclGetViewStrides(tensor, &strides, &count), ACLNN_SUCCESS);
  return TakeArray(strides, count);
}

// Destroys an aclTensor made directly with aclCreateTensor.
struct TensorDeleter {
  void operator()(aclTensor* tensor) const { aclDestroyTensor(tensor); }
};
using TensorPtr = std::unique_ptr<aclTensor, TensorDeleter>;

class MetaApi : public ApiTest {};

// ---- aclCreateTensor --------------------------------------------------------------

TEST_F(MetaApi, CreateTensorWithNullViewDimsAndNonZeroCountReturnsNull) {
  const int64_t storage[1] = {6};
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, nullptr), nullptr);
}

TEST_F(MetaApi, CreateTensorWithNullStorageDimsAndNonZeroCountReturnsNull) {
  const int64_t view[2] = {2, 3};
  EXPECT_EQ(aclCreateTensor(view, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 1, nullptr), nullptr);
}

// Null dims with a zero count describe a 0-d tensor: that is not an error.
TEST_F(MetaApi, CreateTensorWithNullDimsAndZeroCountsIsZeroDim) {
  TensorPtr tensor(aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr));
  ASSERT_NE(tensor, nullptr);
  EXPECT_TRUE(ViewShape(tensor.get()).empty());
  EXPECT_TRUE(StorageShape(tensor.get()).empty());
}

TEST_F(MetaApi, CreateTensorWithNullStrideUsesContiguousStrides) {
  const int64_t view[3] = {2, 3, 4};
  const int64_t storage[1] = {24};
  TensorPtr tensor(aclCreateTensor(view, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, storage, 1, nullptr));
  ASSERT_NE(tensor, nullptr);
  EXPECT_EQ(ViewStrides(tensor.get()), (std::vector<int64_t>{12, 4, 1}));
}

TEST_F(MetaApi, CreateTensorAcceptsNullData) {
  const int64_t view[2] = {2, 3};
  TensorPtr tensor(aclCreateTensor(view, 2, ACL_FLOAT16, nullptr, 0, ACL_FORMAT_ND, view, 2, nullptr));
  ASSERT_NE(tensor, nullptr);
  void* address = reinterpret_cast<void*>(0x1);
  EXPECT_EQ(aclGetRawTensorAddr(tensor.get(), &address), ACLNN_SUCCESS);
  EXPECT_EQ(address, nullptr);
}

// ---- getters ------------------------------------------------------------------------

// A deliberately unusual description: strided, offset, bf16, NCHW, 1-D storage.
class DescribedTensor : public MetaApi {
 protected:
  void SetUp() override {
    MetaApi::SetUp();
    tensor_.reset(aclCreateTensor(view_.data(), view_.size(), ACL_BF16, strides_.data(), offset_, ACL_FORMAT_NCHW,
                                  storage_.data(), storage_.size(), data_));
    ASSERT_NE(tensor_, nullptr);
  }

  const std::vector<int64_t> view_ = {2, 1, 3, 2};
  const std::vector<int64_t> strides_ = {1, 40, 2, 12};
  const int64_t offset_ = 5;
  const std::vector<int64_t> storage_ = {100};
  alignas(64) uint8_t storage_bytes_[256] = {};
  void* data_ = storage_bytes_;
  TensorPtr tensor_;
};

TEST_F(DescribedTensor, ViewShapeRoundTrips) { EXPECT_EQ(ViewShape(tensor_.get()), view_); }

TEST_F(DescribedTensor, StorageShapeRoundTrips) { EXPECT_EQ(StorageShape(tensor_.get()), storage_); }

TEST_F(DescribedTensor, ViewStridesRoundTrip) { EXPECT_EQ(ViewStrides(tensor_.get()), strides_); }

TEST_F(DescribedTensor, ViewOffsetRoundTrips) {
  int64_t offset = -1;
  EXPECT_EQ(aclGetViewOffset(tensor_.get(), &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, offset_);
}

TEST_F(DescribedTensor, FormatRoundTrips) {
  aclFormat format = ACL_FORMAT_UNDEFINED;
  EXPECT_EQ(aclGetFormat(tensor_.get(), &format), ACLNN_SUCCESS);
  EXPECT_EQ(format, ACL_FORMAT_NCHW);
}

TEST_F(DescribedTensor, DataTypeRoundTrips) {
  aclDataType dtype = ACL_DT_UNDEFINED;
  EXPECT_EQ(aclGetDataType(tensor_.get(), &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, ACL_BF16);
}

TEST_F(DescribedTensor, RawAddressRoundTrips) {
  void* address = nullptr;
  EXPECT_EQ(aclGetRawTensorAddr(tensor_.get(), &address), ACLNN_SUCCESS);
  EXPECT_EQ(address, data_);
  uint8_t elsewhere[32];
  EXPECT_EQ(aclSetRawTensorAddr(tensor_.get(), elsewhere), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetRawTensorAddr(tensor_.get(), &address), ACLNN_SUCCESS);
  EXPECT_EQ(address, static_cast<void*>(elsewhere));
}

TEST_F(DescribedTensor, ShapeGettersWithNullArgumentsReturn161001) {
  int64_t* values = nullptr;
  uint64_t count = 0;
  EXPECT_EQ(aclGetViewShape(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewShape(tensor_.get(), nullptr, &count), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewShape(tensor_.get(), &values, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetStorageShape(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetStorageShape(tensor_.get(), nullptr, &count), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetStorageShape(tensor_.get(), &values, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewStrides(nullptr, &values, &count), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewStrides(tensor_.get(), nullptr, &count), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewStrides(tensor_.get(), &values, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  // No failed call may have allocated anything for the caller.
  EXPECT_EQ(values, nullptr);
}

TEST_F(DescribedTensor, ScalarGettersWithNullArgumentsReturn161001) {
  int64_t offset = 0;
  aclFormat format = ACL_FORMAT_ND;
  aclDataType dtype = ACL_FLOAT;
  void* address = nullptr;
  EXPECT_EQ(aclGetViewOffset(nullptr, &offset), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetViewOffset(tensor_.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetFormat(nullptr, &format), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetFormat(tensor_.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetDataType(nullptr, &dtype), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetDataType(tensor_.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetRawTensorAddr(nullptr, &address), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetRawTensorAddr(tensor_.get(), nullptr), ACLNN_ERR_PARAM_NULLPTR);
}

TEST_F(MetaApi, SetRawTensorAddrOnNullTensorReturns161001) {
  uint8_t data[16];
  EXPECT_EQ(aclSetRawTensorAddr(nullptr, data), ACLNN_ERR_PARAM_NULLPTR);
}

// ---- aclInitTensor --------------------------------------------------------------------

TEST_F(DescribedTensor, InitTensorRedescribesInPlace) {
  const std::vector<int64_t> view = {4, 5};
  const std::vector<int64_t> strides = {10, 2};
  const std::vector<int64_t> storage = {8, 6};
  uint8_t other_data[512];
  ASSERT_EQ(aclInitTensor(tensor_.get(), view.data(), view.size(), ACL_FLOAT16, strides.data(), 3, ACL_FORMAT_NHWC,
                          storage.data(), storage.size(), other_data),
            ACLNN_SUCCESS);
  EXPECT_EQ(ViewShape(tensor_.get()), view);
  EXPECT_EQ(ViewStrides(tensor_.get()), strides);
  EXPECT_EQ(StorageShape(tensor_.get()), storage);
  int64_t offset = -1;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  aclDataType dtype = ACL_DT_UNDEFINED;
  void* address = nullptr;
  EXPECT_EQ(aclGetViewOffset(tensor_.get(), &offset), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetFormat(tensor_.get(), &format), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetDataType(tensor_.get(), &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(aclGetRawTensorAddr(tensor_.get(), &address), ACLNN_SUCCESS);
  EXPECT_EQ(offset, 3);
  EXPECT_EQ(format, ACL_FORMAT_NHWC);
  EXPECT_EQ(dtype, ACL_FLOAT16);
  EXPECT_EQ(address, static_cast<void*>(other_data));
}

TEST_F(DescribedTensor, InitTensorWithNullStrideUsesContiguousStrides) {
  const std::vector<int64_t> view = {3, 2, 5};
  ASSERT_EQ(aclInitTensor(tensor_.get(), view.data(), view.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view.data(),
                          view.size(), data_),
            ACLNN_SUCCESS);
  EXPECT_EQ(ViewStrides(tensor_.get()), (std::vector<int64_t>{10, 5, 1}));
}

TEST_F(MetaApi, InitTensorOnNullTensorReturns161001) {
  const int64_t view[1] = {4};
  EXPECT_EQ(aclInitTensor(nullptr, view, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view, 1, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
}

// ---- scalars, arrays and lists ---------------------------------------------------------

TEST_F(MetaApi, CreateScalarAndDestroy) {
  float value = 2.5f;
  aclScalar* scalar = aclCreateScalar(&value, ACL_FLOAT);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(aclDestroyScalar(scalar), ACLNN_SUCCESS);
}

TEST_F(MetaApi, IntArraySizeRoundTrips) {
  const int64_t values[4] = {3, -1, 7, 0};
  aclIntArray* array = aclCreateIntArray(values, 4);
  ASSERT_NE(array, nullptr);
  uint64_t size = 0;
  EXPECT_EQ(aclGetIntArraySize(array, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 4u);
  EXPECT_EQ(aclGetIntArraySize(array, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetIntArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);
}

TEST_F(MetaApi, FloatArraySizeRoundTrips) {
  const float values[3] = {0.5f, -2.0f, 1e9f};
  aclFloatArray* array = aclCreateFloatArray(values, 3);
  ASSERT_NE(array, nullptr);
  uint64_t size = 0;
  EXPECT_EQ(aclGetFloatArraySize(array, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(aclGetFloatArraySize(array, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetFloatArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyFloatArray(array), ACLNN_SUCCESS);
}

TEST_F(MetaApi, BoolArraySizeRoundTrips) {
  const bool values[5] = {true, false, false, true, true};
  aclBoolArray* array = aclCreateBoolArray(values, 5);
  ASSERT_NE(array, nullptr);
  uint64_t size = 0;
  EXPECT_EQ(aclGetBoolArraySize(array, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 5u);
  EXPECT_EQ(aclGetBoolArraySize(array, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetBoolArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyBoolArray(array), ACLNN_SUCCESS);
}

// The list owns its tensors: destroying the list destroys them (they are not
// destroyed separately here; a leak checker would report them otherwise).
TEST_F(MetaApi, TensorListSizeRoundTripsAndListOwnsItsTensors) {
  const int64_t view[2] = {2, 2};
  const aclTensor* tensors[3];
  for (const aclTensor*& tensor : tensors) {
    tensor = aclCreateTensor(view, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view, 2, nullptr);
    ASSERT_NE(tensor, nullptr);
  }
  aclTensorList* list = aclCreateTensorList(tensors, 3);
  ASSERT_NE(list, nullptr);
  uint64_t size = 0;
  EXPECT_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(aclGetTensorListSize(list, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetTensorListSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
}

TEST_F(MetaApi, ScalarListSizeRoundTrips) {
  float first = 1.0f;
  int64_t second = 7;
  const aclScalar* scalars[2] = {aclCreateScalar(&first, ACL_FLOAT), aclCreateScalar(&second, ACL_INT64)};
  ASSERT_NE(scalars[0], nullptr);
  ASSERT_NE(scalars[1], nullptr);
  aclScalarList* list = aclCreateScalarList(scalars, 2);
  ASSERT_NE(list, nullptr);
  uint64_t size = 0;
  EXPECT_EQ(aclGetScalarListSize(list, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(aclGetScalarListSize(list, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetScalarListSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyScalarList(list), ACLNN_SUCCESS);
}

TEST_F(MetaApi, DestroyingNullptrReturns0) {
  EXPECT_EQ(aclDestroyTensor(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalar(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyIntArray(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensorList(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyScalarList(nullptr), ACLNN_SUCCESS);
}

// ---- destroyed tensors (every mode; tests/strict covers strict mode's longer quarantine) --

// A tensor destroyed twice is reported, not a double free: the thread keeps its
// last few destroyed tensors, marked dead (meta/recently_destroyed_tensors.h).
TEST_F(MetaApi, DestroyingATensorTwiceReturns161002NotAHeapCorruption) {
  const int64_t view[] = {4};
  aclTensor* tensor = aclCreateTensor(view, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view, 1, nullptr);
  ASSERT_NE(tensor, nullptr);
  ASSERT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_ERR_PARAM_INVALID);
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_TRUE(Contains(message, "destroyed")) << message;
}

TEST_F(MetaApi, GettersAndSettersOnADestroyedTensorReturn161002) {
  const int64_t view[] = {4};
  aclTensor* tensor = aclCreateTensor(view, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view, 1, nullptr);
  ASSERT_NE(tensor, nullptr);
  ASSERT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
  int64_t* dims = nullptr;
  uint64_t count = 0;
  int64_t offset = 0;
  aclFormat format = ACL_FORMAT_ND;
  aclDataType dtype = ACL_FLOAT;
  void* address = nullptr;
  EXPECT_EQ(aclGetViewShape(tensor, &dims, &count), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclGetStorageShape(tensor, &dims, &count), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclGetViewStrides(tensor, &dims, &count), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(dims, nullptr) << "nothing is handed out for a destroyed tensor";
  EXPECT_EQ(aclGetViewOffset(tensor, &offset), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclGetFormat(tensor, &format), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclGetDataType(tensor, &dtype), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclGetRawTensorAddr(tensor, &address), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclSetRawTensorAddr(tensor, &offset), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclInitTensor(tensor, view, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view, 1, nullptr),
            ACLNN_ERR_PARAM_INVALID);
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  EXPECT_TRUE(Contains(message, "aclInitTensor")) << message;
}

TEST_F(MetaApi, Phase1WithADestroyedTensorReturns161002NamingIt) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  const int64_t view[] = {2, 3, 4};
  aclTensor* self = aclCreateTensor(view, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view, 3, nullptr);
  ASSERT_NE(self, nullptr);
  ASSERT_EQ(aclDestroyTensor(self), ACLNN_SUCCESS);
  const Phase1Result result = CallPhase1(operands.grad_output.get(), self, operands.out.get());
  EXPECT_EQ(result.status, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NamesIdentifier(result.message, "self")) << result.message;
  EXPECT_TRUE(Contains(result.message, "destroyed")) << result.message;
}

// ---- aclGetRecentErrMsg after a failed operator call ---------------------------------

TEST_F(MetaApi, RecentErrMsgAfterFailedPhase1HasClassTagAndArgumentThenClears) {
  Operands operands(ACL_FLOAT, ACL_FLOAT, ACL_FLOAT);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  ASSERT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(operands.grad_output.get(), nullptr, operands.out.get(),
                                                     &workspace_size, &executor),
            ACLNN_ERR_PARAM_NULLPTR);
  const char* message = aclGetRecentErrMsg();
  ASSERT_NE(message, nullptr);
  const std::string text = message;  // only valid until the next call
  EXPECT_TRUE(Contains(text, "EZ1001")) << text;
  EXPECT_TRUE(NamesIdentifier(text, "self")) << text;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr) << "the message was not cleared by reading it";
}

TEST_F(MetaApi, RecentErrMsgAfterInvalidDtypeHasClassTag) {
  Operands operands(ACL_FLOAT, ACL_INT32, ACL_FLOAT);
  const Phase1Result result = CallPhase1(operands.grad_output.get(), operands.self.get(), operands.out.get());
  ASSERT_EQ(result.status, ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(Contains(result.message, "EZ1001")) << result.message;
  EXPECT_EQ(aclGetRecentErrMsg(), nullptr);
}

// ---- aclnnInit / aclnnFinalize -------------------------------------------------------------

// Last in the file: finalising may end what other tests rely on when the whole
// binary runs in one process (ctest runs each test in its own).
TEST(AclnnInit, NonexistentConfigFileFails) {
  aclcpu_test::RuntimeFixture::Stream();
  EXPECT_NE(aclnnInit("/nonexistent/aclcpu/aclnn_config.json"), ACLNN_SUCCESS);
  ClearRecentErrMsgs();
}

TEST(AclnnInit, NullConfigInitAndFinalizeReturn0) {
  aclcpu_test::RuntimeFixture::Stream();
  EXPECT_EQ(aclnnInit(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnFinalize(), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace aclcpu_api_test
