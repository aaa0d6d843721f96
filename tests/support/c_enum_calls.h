/* Calls into aclcpu as a C program may make them: any int where CANN's API
 * takes an enum. In C that is well defined; written in C++ the call itself
 * would be undefined behaviour, so these wrappers are compiled as C. */
#ifndef ACLCPU_TESTS_SUPPORT_C_ENUM_CALLS_H_
#define ACLCPU_TESTS_SUPPORT_C_ENUM_CALLS_H_

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"

#ifdef __cplusplus
extern "C" {
#endif

aclTensor* CCreateTensor(const int64_t* view_dims, uint64_t view_dims_num, int32_t dtype, const int64_t* stride,
                         int64_t offset, int32_t format, const int64_t* storage_dims, uint64_t storage_dims_num,
                         void* data);
aclnnStatus CInitTensor(aclTensor* tensor, const int64_t* view_dims, uint64_t view_dims_num, int32_t dtype,
                        const int64_t* stride, int64_t offset, int32_t format, const int64_t* storage_dims,
                        uint64_t storage_dims_num, void* data);
aclnnStatus CGetDataTypeCode(const aclTensor* tensor, int32_t* dtype);
aclnnStatus CGetFormatCode(const aclTensor* tensor, int32_t* format);
size_t CDataTypeSize(int32_t dtype);
aclScalar* CCreateScalar(void* value, int32_t dtype);
aclError CMalloc(void** device, size_t size, int32_t policy);
aclError CMallocAlign32(void** device, size_t size, int32_t policy);
aclError CMallocCached(void** device, size_t size, int32_t policy);
aclError CMemcpy(void* dst, size_t dst_max, const void* src, size_t count, int32_t kind);
aclError CMemcpyAsync(void* dst, size_t dst_max, const void* src, size_t count, int32_t kind, aclrtStream stream);
aclError CGetMemInfo(int32_t attr, size_t* free, size_t* total);
aclError CPeekAtLastError(int32_t level);
aclError CGetLastError(int32_t level);

#ifdef __cplusplus
}
#endif

#endif /* ACLCPU_TESTS_SUPPORT_C_ENUM_CALLS_H_ */
