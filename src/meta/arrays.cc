// aclcpu: aclScalar, aclIntArray, aclFloatArray, aclBoolArray, aclTensorList and
// aclScalarList (CANN's acl_meta.h). This operator takes none of them, but
// frameworks create and destroy them through the same library, so they are real.
#include <cstring>
#include <memory>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "common/dtype.h"
#include "common/raw_enum.h"
#include "common/error_report.h"
#include "common/fault_injection.h"
#include "meta/arrays.h"

using aclcpu::ReportError;

namespace {

// new Container{values[0..size)}, or nullptr (with a message) if `values` is null
// while size > 0 or memory runs out.
template <typename Container, typename Value>
Container* CreateArray(const Value* values, uint64_t size, const char* api) {
  if (values == nullptr && size > 0) {
    ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: value is null but size is %llu.", api,
                static_cast<unsigned long long>(size));
    return nullptr;
  }
  try {
    // Owned until complete: a failing assign must not leak the container.
    if (aclcpu::InjectFault(aclcpu::FaultSite::kArrayCreate)) throw std::bad_alloc();
    auto array = std::make_unique<Container>();
    if (aclcpu::InjectFault(aclcpu::FaultSite::kArrayCreate)) throw std::bad_alloc();
    array->values.assign(values, values + size);
    return array.release();
  } catch (const std::exception&) {
    ReportError(ACLNN_ERR_INNER, "%s: cannot hold %llu values.", api, static_cast<unsigned long long>(size));
    return nullptr;
  }
}

template <typename Container>
aclnnStatus GetArraySize(const Container* array, uint64_t* size, const char* api) {
  if (array == nullptr || size == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: the array and size must not be null.", api);
  }
  *size = array->values.size();
  return ACLNN_SUCCESS;
}

template <typename Object>
aclnnStatus DestroyObject(const Object* object) {
  delete object;  // deleting nullptr is a no-op, as CANN's destroy functions are
  return ACLNN_SUCCESS;
}

}  // namespace

aclTensorList::~aclTensorList() {
  for (const aclTensor* tensor : values) aclDestroyTensor(tensor);
}

aclScalarList::~aclScalarList() {
  for (const aclScalar* scalar : values) aclDestroyScalar(scalar);
}

extern "C" {

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  const int32_t dtype = aclcpu::RawEnum(dataType);
  const size_t size = aclcpu::DtypeSize(dtype);
  if (value == nullptr) {
    ReportError(ACLNN_ERR_PARAM_NULLPTR, "aclCreateScalar: value is null.");
    return nullptr;
  }
  if (size == 0 || size > sizeof(aclScalar::bytes)) {
    ReportError(ACLNN_ERR_PARAM_INVALID, "aclCreateScalar: %s has no scalar representation.",
                aclcpu::DtypeName(dtype));
    return nullptr;
  }
  aclScalar* scalar =
      aclcpu::InjectFault(aclcpu::FaultSite::kArrayCreate) ? nullptr : new (std::nothrow) aclScalar{static_cast<aclDataType>(dtype), {}};  // a known dtype: it has a size
  if (scalar == nullptr) {
    ReportError(ACLNN_ERR_INNER, "aclCreateScalar: out of memory.");
    return nullptr;
  }
  std::memcpy(scalar->bytes, value, size);
  return scalar;
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  return CreateArray<aclIntArray>(value, size, "aclCreateIntArray");
}
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  return CreateArray<aclFloatArray>(value, size, "aclCreateFloatArray");
}
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  return CreateArray<aclBoolArray>(value, size, "aclCreateBoolArray");
}
aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  return CreateArray<aclTensorList>(value, size, "aclCreateTensorList");
}
aclScalarList* aclCreateScalarList(const aclScalar* const* value, uint64_t size) {
  return CreateArray<aclScalarList>(value, size, "aclCreateScalarList");
}

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  return GetArraySize(array, size, "aclGetIntArraySize");
}
aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  return GetArraySize(array, size, "aclGetFloatArraySize");
}
aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  return GetArraySize(array, size, "aclGetBoolArraySize");
}
aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  return GetArraySize(tensorList, size, "aclGetTensorListSize");
}
aclnnStatus aclGetScalarListSize(const aclScalarList* scalarList, uint64_t* size) {
  return GetArraySize(scalarList, size, "aclGetScalarListSize");
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) { return DestroyObject(scalar); }
aclnnStatus aclDestroyIntArray(const aclIntArray* array) { return DestroyObject(array); }
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) { return DestroyObject(array); }
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) { return DestroyObject(array); }
aclnnStatus aclDestroyTensorList(const aclTensorList* array) { return DestroyObject(array); }
aclnnStatus aclDestroyScalarList(const aclScalarList* array) { return DestroyObject(array); }

}  // extern "C"
