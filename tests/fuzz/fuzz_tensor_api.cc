// Fuzz harness: aclCreateTensor / aclInitTensor / the getters / aclDestroyTensor,
// and the other aclCreate* objects of acl_meta.h, with arbitrary dims, strides,
// offsets, dtypes, formats, null pointers and element counts.
//
// Clauses: aclCreateTensor returns nullptr only for a null array with a non-zero
// count (cann-api.md §5.6) and otherwise records exactly what it was given
// (stride == nullptr gives row-major strides); getters return copies and 161001
// on null arguments; nothing crashes, overflows a signed integer or leaks.
#include <string>
#include <vector>

#include "fuzz_support.h"

namespace aclcpu_fuzz {
namespace {

std::vector<int64_t> DecodeArray(ByteReader& in, size_t count) {
  std::vector<int64_t> values(count);
  for (auto& value : values) value = in.Interesting(9);
  return values;
}

void CheckArray(aclnnStatus status, int64_t* array, uint64_t count, const std::vector<int64_t>& expected,
                const char* what) {
  FUZZ_CHECK(status == ACLNN_SUCCESS, "%s returned %d", what, status);
  FUZZ_CHECK(count == expected.size(), "%s returned %llu values, expected %zu", what,
             static_cast<unsigned long long>(count), expected.size());
  for (size_t i = 0; i < expected.size(); ++i) {
    FUZZ_CHECK(array[i] == expected[i], "%s value %zu is %lld, expected %lld", what, i,
               static_cast<long long>(array[i]), static_cast<long long>(expected[i]));
  }
  delete[] array;
}

// Row-major strides as CANN computes them for stride == nullptr: dims <= 0 count as 1.
// Returns false if the product overflows (then any stride is acceptable).
bool ContiguousStrides(const std::vector<int64_t>& dims, std::vector<int64_t>* strides) {
  strides->assign(dims.size(), 1);
  int64_t stride = 1;
  for (size_t d = dims.size(); d-- > 0;) {
    (*strides)[d] = stride;
    if (d > 0 && __builtin_mul_overflow(stride, dims[d] > 0 ? dims[d] : 1, &stride)) return false;
  }
  return true;
}

void CheckDescribes(const aclTensor* tensor, const std::vector<int64_t>& dims, const std::vector<int64_t>* strides,
                    int64_t offset, int dtype, int format, const std::vector<int64_t>& storage, void* data) {
  // (each getter runs before its results are read: argument order is unspecified)
  int64_t* array = nullptr;
  uint64_t count = 0;
  aclnnStatus status = aclGetViewShape(tensor, &array, &count);
  CheckArray(status, array, count, dims, "aclGetViewShape");
  array = nullptr;
  status = aclGetStorageShape(tensor, &array, &count);
  CheckArray(status, array, count, storage, "aclGetStorageShape");
  array = nullptr;
  status = aclGetViewStrides(tensor, &array, &count);
  if (strides != nullptr) {
    CheckArray(status, array, count, *strides, "aclGetViewStrides");
  } else {
    FUZZ_CHECK(status == ACLNN_SUCCESS && count == dims.size(), "aclGetViewStrides with computed strides");
    delete[] array;
  }
  int64_t got_offset = -7;
  FUZZ_CHECK(aclGetViewOffset(tensor, &got_offset) == ACLNN_SUCCESS && got_offset == offset, "aclGetViewOffset");
  // Read back as raw integers: an out-of-range value in an enum-typed variable
  // would be undefined behaviour in the harness itself.
  int32_t got_format = -7, got_dtype = -7;
  static_assert(sizeof(aclFormat) == sizeof(int32_t) && sizeof(aclDataType) == sizeof(int32_t), "enum sizes");
  FUZZ_CHECK(aclGetFormat(tensor, reinterpret_cast<aclFormat*>(&got_format)) == ACLNN_SUCCESS && got_format == format,
             "aclGetFormat");
  FUZZ_CHECK(aclGetDataType(tensor, reinterpret_cast<aclDataType*>(&got_dtype)) == ACLNN_SUCCESS &&
                 got_dtype == dtype,
             "aclGetDataType");
  void* got_data = nullptr;
  FUZZ_CHECK(aclGetRawTensorAddr(tensor, &got_data) == ACLNN_SUCCESS && got_data == data, "aclGetRawTensorAddr");
}

void CheckNullArguments(const aclTensor* tensor) {
  int64_t* array = nullptr;
  uint64_t count = 0;
  FUZZ_CHECK(aclGetViewShape(tensor, nullptr, &count) == ACLNN_ERR_PARAM_NULLPTR, "aclGetViewShape null array");
  FUZZ_CHECK(aclGetViewShape(nullptr, &array, &count) == ACLNN_ERR_PARAM_NULLPTR, "aclGetViewShape null tensor");
  FUZZ_CHECK(aclGetStorageShape(tensor, &array, nullptr) == ACLNN_ERR_PARAM_NULLPTR, "aclGetStorageShape null count");
  FUZZ_CHECK(aclGetViewStrides(nullptr, &array, &count) == ACLNN_ERR_PARAM_NULLPTR, "aclGetViewStrides null");
  FUZZ_CHECK(aclGetViewOffset(tensor, nullptr) == ACLNN_ERR_PARAM_NULLPTR, "aclGetViewOffset null");
  FUZZ_CHECK(aclGetFormat(nullptr, nullptr) == ACLNN_ERR_PARAM_NULLPTR, "aclGetFormat null");
  FUZZ_CHECK(aclGetDataType(tensor, nullptr) == ACLNN_ERR_PARAM_NULLPTR, "aclGetDataType null");
  FUZZ_CHECK(aclGetRawTensorAddr(tensor, nullptr) == ACLNN_ERR_PARAM_NULLPTR, "aclGetRawTensorAddr null");
  FUZZ_CHECK(array == nullptr, "a refused getter returned an array");
}

void RunOne(ByteReader& in) {
  ClearMessages();
  const uint8_t shape_flags = in.Byte();
  const size_t rank = in.Below(12);
  const std::vector<int64_t> dims = DecodeArray(in, rank);
  const std::vector<int64_t> strides = DecodeArray(in, rank);
  const std::vector<int64_t> storage = DecodeArray(in, in.Below(10));
  const int64_t offset = in.Interesting(9);
  const int dtype = in.Below(4) == 0 ? EnumValue(in.I32()) : static_cast<int>(in.Below(42)) - 1;
  const int format = in.Below(4) == 0 ? EnumValue(in.I32()) : static_cast<int>(in.Below(56)) - 1;
  void* data = reinterpret_cast<void*>(static_cast<uintptr_t>(in.U64()));  // never dereferenced by the meta API
  const bool null_dims = (shape_flags & 1) != 0;
  const bool null_strides = (shape_flags & 2) != 0;
  const bool null_storage = (shape_flags & 4) != 0;
  // A null array with a count: the count may be absurd, nothing may read it.
  const uint64_t dims_count = null_dims ? (in.Bool() ? in.U64() : 0) : dims.size();
  const uint64_t storage_count = null_storage ? (in.Bool() ? in.U64() : 0) : storage.size();

  aclTensor* tensor = CCreateTensor(null_dims ? nullptr : dims.data(), dims_count, dtype,
                                    null_strides ? nullptr : strides.data(), offset, format,
                                    null_storage ? nullptr : storage.data(), storage_count, data);
  const bool refusable = (null_dims && dims_count > 0) || (null_storage && storage_count > 0);
  if (refusable) {
    FUZZ_CHECK(tensor == nullptr, "aclCreateTensor accepted a null array with count > 0");
    const char* message = aclGetRecentErrMsg();
    FUZZ_CHECK(message != nullptr, "aclCreateTensor refused without a message");
  } else {
    FUZZ_CHECK(tensor != nullptr, "aclCreateTensor refused a well-formed call");
    const std::vector<int64_t> view_dims = null_dims ? std::vector<int64_t>() : dims;
    std::vector<int64_t> expected_strides;
    const std::vector<int64_t>* check_strides = &strides;
    if (null_dims) {
      expected_strides.clear();
      check_strides = &expected_strides;
    } else if (null_strides) {
      check_strides = ContiguousStrides(dims, &expected_strides) ? &expected_strides : nullptr;
    }
    CheckDescribes(tensor, view_dims, check_strides, offset, dtype, format,
                   null_storage ? std::vector<int64_t>() : storage, data);
    CheckNullArguments(tensor);

    // Re-describe the same object with other values, then move its address.
    const std::vector<int64_t> dims2 = DecodeArray(in, in.Below(9));
    const std::vector<int64_t> strides2 = DecodeArray(in, dims2.size());
    const int64_t offset2 = in.Interesting(9);
    const aclnnStatus init = aclInitTensor(tensor, dims2.data(), dims2.size(), ACL_FLOAT16, strides2.data(), offset2,
                                           ACL_FORMAT_NCHW, dims2.data(), dims2.size(), nullptr);
    FUZZ_CHECK(init == ACLNN_SUCCESS, "aclInitTensor returned %d", init);
    CheckDescribes(tensor, dims2, &strides2, offset2, ACL_FLOAT16, ACL_FORMAT_NCHW, dims2, nullptr);
    FUZZ_CHECK(aclInitTensor(tensor, nullptr, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, nullptr) ==
                   ACLNN_ERR_PARAM_NULLPTR,
               "aclInitTensor with null dims and a count");
    void* moved = reinterpret_cast<void*>(static_cast<uintptr_t>(in.U64()));
    FUZZ_CHECK(aclSetRawTensorAddr(tensor, moved) == ACLNN_SUCCESS, "aclSetRawTensorAddr");
    void* got = nullptr;
    FUZZ_CHECK(aclGetRawTensorAddr(tensor, &got) == ACLNN_SUCCESS && got == moved, "raw address round trip");
  }
  FUZZ_CHECK(aclInitTensor(nullptr, dims.data(), dims.size(), ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0,
                           nullptr) == ACLNN_ERR_PARAM_NULLPTR,
             "aclInitTensor(nullptr)");
  FUZZ_CHECK(aclSetRawTensorAddr(nullptr, nullptr) == ACLNN_ERR_PARAM_NULLPTR, "aclSetRawTensorAddr(nullptr)");

  // The other meta objects: arrays of fuzzed sizes (from real arrays), lists holding
  // the tensor, a scalar of a fuzzed dtype read from a buffer wide enough for any.
  const std::vector<int64_t> ints = DecodeArray(in, in.Below(16));
  aclIntArray* int_array = aclCreateIntArray(ints.empty() ? nullptr : ints.data(), ints.size());
  if (int_array != nullptr) {
    uint64_t size = 99;
    FUZZ_CHECK(aclGetIntArraySize(int_array, &size) == ACLNN_SUCCESS && size == ints.size(), "aclGetIntArraySize");
  }
  const std::vector<float> floats(in.Below(16), 0.5f);
  aclFloatArray* float_array = aclCreateFloatArray(floats.empty() ? nullptr : floats.data(), floats.size());
  bool bools[8] = {};
  const uint64_t bool_count = in.Below(9);
  aclBoolArray* bool_array = aclCreateBoolArray(bool_count == 0 ? nullptr : bools, bool_count);
  uint8_t scalar_bytes[32] = {};
  for (auto& b : scalar_bytes) b = in.Byte();
  aclScalar* scalar = aclCreateScalar(in.Bool() ? nullptr : scalar_bytes,
                                      static_cast<aclDataType>(static_cast<int>(in.Below(42)) - 1));
  const aclScalar* scalars[2] = {scalar, scalar};
  aclScalarList* scalar_list =
      scalar != nullptr && in.Bool() ? aclCreateScalarList(scalars, 1) : nullptr;
  aclTensorList* tensor_list = nullptr;
  if (tensor != nullptr && in.Bool()) {
    const aclTensor* tensors[1] = {tensor};
    tensor_list = aclCreateTensorList(tensors, 1);
    FUZZ_CHECK(tensor_list != nullptr, "aclCreateTensorList refused one tensor");
    uint64_t size = 0;
    FUZZ_CHECK(aclGetTensorListSize(tensor_list, &size) == ACLNN_SUCCESS && size == 1, "aclGetTensorListSize");
  }
  FUZZ_CHECK(aclDestroyIntArray(int_array) == ACLNN_SUCCESS, "aclDestroyIntArray");
  FUZZ_CHECK(aclDestroyFloatArray(float_array) == ACLNN_SUCCESS, "aclDestroyFloatArray");
  FUZZ_CHECK(aclDestroyBoolArray(bool_array) == ACLNN_SUCCESS, "aclDestroyBoolArray");
  FUZZ_CHECK(aclDestroyScalarList(scalar_list) == ACLNN_SUCCESS, "aclDestroyScalarList");
  if (scalar_list == nullptr) FUZZ_CHECK(aclDestroyScalar(scalar) == ACLNN_SUCCESS, "aclDestroyScalar");
  // A tensor list owns its tensors (CANN destroys them with the list).
  if (tensor_list != nullptr) {
    FUZZ_CHECK(aclDestroyTensorList(tensor_list) == ACLNN_SUCCESS, "aclDestroyTensorList");
  } else {
    FUZZ_CHECK(aclDestroyTensor(tensor) == ACLNN_SUCCESS, "aclDestroyTensor");
  }
  ClearMessages();
}

}  // namespace
}  // namespace aclcpu_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  aclcpu_fuzz::ByteReader in(data, size);
  aclcpu_fuzz::RunOne(in);
  return 0;
}
