// Enum arguments outside their enum's range, passed as a C program may (issue
// "Hardening the edges", clause 1): the library reads them as integers
// (common/raw_enum.h), answers with the documented status, and never loads
// them as its enum types (the sanitizer stage runs this under UBSan, whose
// -fsanitize=enum reports such a load). The calls come from C
// (tests/support/c_enum_calls.c).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "api_test_util.h"
#include "c_enum_calls.h"

namespace aclcpu_api_test {
namespace {

// Outside every CANN enum's range (aclDataType's is -64..63), and one inside it
// that names no value.
constexpr int32_t kOutOfRange[] = {1000, -1000, 999999, INT32_MIN, INT32_MAX};
constexpr int32_t kUnknownInRange = 50;

class OutOfRangeEnums : public ApiTest {};

// A tensor without data described with the given codes, storage = view.
aclTensor* CCreateTensorWithCodes(const int64_t* dims, uint64_t rank, int32_t dtype, int32_t format) {
  return CCreateTensor(dims, rank, dtype, nullptr, 0, format, dims, rank, nullptr);
}

TEST_F(OutOfRangeEnums, CreateTensorKeepsAnyDtypeAndFormatCodeAndGettersReturnIt) {
  const int64_t dims[] = {2, 3};
  for (const int32_t code : kOutOfRange) {
    aclTensor* tensor = CCreateTensorWithCodes(dims, 2, code, code);
    ASSERT_NE(tensor, nullptr) << code;
    int32_t dtype = 0, format = 0;
    EXPECT_EQ(CGetDataTypeCode(tensor, &dtype), ACLNN_SUCCESS);
    EXPECT_EQ(CGetFormatCode(tensor, &format), ACLNN_SUCCESS);
    EXPECT_EQ(dtype, code);
    EXPECT_EQ(format, code);
    const int32_t other = code == INT32_MIN ? INT32_MAX : -code;  // another code outside the range
    EXPECT_EQ(CInitTensor(tensor, dims, 2, other, nullptr, 0, other, dims, 2, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(CGetDataTypeCode(tensor, &dtype), ACLNN_SUCCESS);
    EXPECT_EQ(dtype, other);
    EXPECT_EQ(aclDestroyTensor(tensor), ACLNN_SUCCESS);
  }
}

TEST_F(OutOfRangeEnums, Phase1RefusesAnInputDtypeCodeOutsideTheEnumWith161002NamingIt) {
  const int64_t dims[] = {2, 3};
  for (const int32_t code : kOutOfRange) {
    aclTensor* grad = CCreateTensorWithCodes(dims, 2, ACL_FLOAT, ACL_FORMAT_ND);
    aclTensor* self = CCreateTensorWithCodes(dims, 2, code, ACL_FORMAT_ND);
    aclTensor* out = CCreateTensorWithCodes(dims, 2, ACL_FLOAT, code);
    const Phase1Result result = CallPhase1(grad, self, out);
    EXPECT_EQ(result.status, ACLNN_ERR_PARAM_INVALID) << code;
    EXPECT_TRUE(NamesIdentifier(result.message, "self")) << result.message;
    EXPECT_TRUE(Contains(result.message, "DT_UNKNOWN(" + std::to_string(code) + ")")) << result.message;
    for (aclTensor* t : {grad, self, out}) aclDestroyTensor(t);
  }
}

// An out dtype code outside the enum gets what one inside its range that names
// no dtype gets: CANN's cast rule lets both through and no kernel writes them.
TEST_F(OutOfRangeEnums, Phase1AnswersAnOutDtypeCodeOutsideTheEnumAsAnUnknownOneInside) {
  const int64_t dims[] = {2, 3};
  auto status_for_out = [&](int32_t code) {
    aclTensor* grad = CCreateTensorWithCodes(dims, 2, ACL_FLOAT, ACL_FORMAT_ND);
    aclTensor* self = CCreateTensorWithCodes(dims, 2, ACL_FLOAT, ACL_FORMAT_ND);
    aclTensor* out = CCreateTensorWithCodes(dims, 2, code, ACL_FORMAT_ND);
    const Phase1Result result = CallPhase1(grad, self, out);
    for (aclTensor* t : {grad, self, out}) aclDestroyTensor(t);
    EXPECT_FALSE(result.message.empty()) << code;
    return result.status;
  };
  const aclnnStatus inside = status_for_out(kUnknownInRange);
  ASSERT_NE(inside, ACLNN_SUCCESS);
  for (const int32_t code : kOutOfRange) EXPECT_EQ(status_for_out(code), inside) << code;
}

TEST_F(OutOfRangeEnums, DataTypeSizeOfACodeOutsideTheEnumIs0) {
  for (const int32_t code : kOutOfRange) EXPECT_EQ(CDataTypeSize(code), 0u) << code;
}

TEST_F(OutOfRangeEnums, CreateScalarWithADtypeCodeOutsideTheEnumReturnsNullWithMessage) {
  float value = 1.0f;
  for (const int32_t code : kOutOfRange) {
    ClearRecentErrMsgs();
    EXPECT_EQ(CCreateScalar(&value, code), nullptr) << code;
    EXPECT_TRUE(Contains(TakeRecentErrMsg(), "DT_UNKNOWN")) << code;
  }
}

TEST_F(OutOfRangeEnums, MallocRefusesAPolicyOutsideTheEnumWithInvalidParam) {
  for (const int32_t code : kOutOfRange) {
    void* device = nullptr;
    EXPECT_EQ(CMalloc(&device, 64, code), ACL_ERROR_INVALID_PARAM) << code;
    EXPECT_EQ(CMallocAlign32(&device, 64, code), ACL_ERROR_INVALID_PARAM) << code;
    EXPECT_EQ(CMallocCached(&device, 64, code), ACL_ERROR_INVALID_PARAM) << code;
    EXPECT_EQ(device, nullptr);
  }
}

TEST_F(OutOfRangeEnums, MemcpyRefusesAKindOutsideTheEnumWithInvalidParam) {
  char source[16] = {1}, destination[16] = {};
  for (const int32_t code : kOutOfRange) {
    EXPECT_EQ(CMemcpy(destination, sizeof destination, source, sizeof source, code), ACL_ERROR_INVALID_PARAM) << code;
    EXPECT_EQ(CMemcpyAsync(destination, sizeof destination, source, sizeof source, code, stream_),
              ACL_ERROR_INVALID_PARAM)
        << code;
  }
  EXPECT_EQ(destination[0], 0) << "a refused copy copied";
}

TEST_F(OutOfRangeEnums, LastErrorRefusesALevelOutsideTheEnumWithInvalidParam) {
  for (const int32_t code : kOutOfRange) {
    EXPECT_EQ(CPeekAtLastError(code), ACL_ERROR_INVALID_PARAM) << code;
    EXPECT_EQ(CGetLastError(code), ACL_ERROR_INVALID_PARAM) << code;
  }
}

}  // namespace
}  // namespace aclcpu_api_test
