#include "c_enum_calls.h"

aclTensor* CCreateTensor(const int64_t* view_dims, uint64_t view_dims_num, int32_t dtype, const int64_t* stride,
                         int64_t offset, int32_t format, const int64_t* storage_dims, uint64_t storage_dims_num,
                         void* data) {
  return aclCreateTensor(view_dims, view_dims_num, (aclDataType)dtype, stride, offset, (aclFormat)format,
                         storage_dims, storage_dims_num, data);
}

aclnnStatus CInitTensor(aclTensor* tensor, const int64_t* view_dims, uint64_t view_dims_num, int32_t dtype,
                        const int64_t* stride, int64_t offset, int32_t format, const int64_t* storage_dims,
                        uint64_t storage_dims_num, void* data) {
  return aclInitTensor(tensor, view_dims, view_dims_num, (aclDataType)dtype, stride, offset, (aclFormat)format,
                       storage_dims, storage_dims_num, data);
}

aclnnStatus CGetDataTypeCode(const aclTensor* tensor, int32_t* dtype) {
  aclDataType value = ACL_FLOAT;
  const aclnnStatus status = aclGetDataType(tensor, &value);
  *dtype = (int32_t)value;
  return status;
}

aclnnStatus CGetFormatCode(const aclTensor* tensor, int32_t* format) {
  aclFormat value = ACL_FORMAT_ND;
  const aclnnStatus status = aclGetFormat(tensor, &value);
  *format = (int32_t)value;
  return status;
}

size_t CDataTypeSize(int32_t dtype) { return aclDataTypeSize((aclDataType)dtype); }

aclScalar* CCreateScalar(void* value, int32_t dtype) { return aclCreateScalar(value, (aclDataType)dtype); }

aclError CMalloc(void** device, size_t size, int32_t policy) {
  return aclrtMalloc(device, size, (aclrtMemMallocPolicy)policy);
}

aclError CMallocAlign32(void** device, size_t size, int32_t policy) {
  return aclrtMallocAlign32(device, size, (aclrtMemMallocPolicy)policy);
}

aclError CMallocCached(void** device, size_t size, int32_t policy) {
  return aclrtMallocCached(device, size, (aclrtMemMallocPolicy)policy);
}

aclError CMemcpy(void* dst, size_t dst_max, const void* src, size_t count, int32_t kind) {
  return aclrtMemcpy(dst, dst_max, src, count, (aclrtMemcpyKind)kind);
}

aclError CMemcpyAsync(void* dst, size_t dst_max, const void* src, size_t count, int32_t kind, aclrtStream stream) {
  return aclrtMemcpyAsync(dst, dst_max, src, count, (aclrtMemcpyKind)kind, stream);
}

aclError CGetMemInfo(int32_t attr, size_t* free, size_t* total) {
  return aclrtGetMemInfo((aclrtMemAttr)attr, free, total);
}

aclError CPeekAtLastError(int32_t level) { return aclrtPeekAtLastError((aclrtLastErrLevel)level); }

aclError CGetLastError(int32_t level) { return aclrtGetLastError((aclrtLastErrLevel)level); }
