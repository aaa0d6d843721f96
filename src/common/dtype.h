// aclcpu: facts about aclDataType — names, sizes, classes, and CANN's type
// promotion and castability rules for the types aclnn operators accept.
#ifndef ACLCPU_COMMON_DTYPE_H_
#define ACLCPU_COMMON_DTYPE_H_

#include <cstddef>

#include "acl/acl_base.h"

namespace aclcpu {

// CANN's spelling in messages: "DT_FLOAT", "DT_BF16", ...; "DT_UNKNOWN(<n>)" otherwise.
const char* DtypeName(aclDataType dtype);

// Bytes per element, 0 if the type has no fixed element size (undefined, string,
// sub-byte types report 1 as CANN's aclDataTypeSize does).
size_t DtypeSize(aclDataType dtype);

bool IsFloatingDtype(aclDataType dtype);  // FLOAT16, FLOAT, DOUBLE, BF16
bool IsComplexDtype(aclDataType dtype);   // COMPLEX32, COMPLEX64, COMPLEX128
bool IsIntegralDtype(aclDataType dtype);  // INT8..UINT64 (not BOOL, INT4, UINT1)

// The type two floating operands are computed in (CANN's table for tensor-tensor
// ops): equal types stay; FLOAT16 with BF16 gives FLOAT; DOUBLE wins over all;
// FLOAT wins over the 16-bit types. ACL_DT_UNDEFINED for non-floating inputs.
aclDataType PromoteFloatingTypes(aclDataType a, aclDataType b);

// CANN's CanCast: false only for complex -> non-complex, floating -> integral, and
// anything but BOOL -> BOOL.
bool CanCast(aclDataType from, aclDataType to);

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_DTYPE_H_
