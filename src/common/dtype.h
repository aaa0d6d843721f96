// aclcpu: facts about aclDataType — names, sizes, classes, and CANN's type
// promotion and castability rules for the types aclnn operators accept.
#ifndef ACLCPU_COMMON_DTYPE_H_
#define ACLCPU_COMMON_DTYPE_H_

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace aclcpu {

// Every function here takes a dtype as its integer code (common/raw_enum.h): a
// tensor's dtype is whatever int its creator passed, known value or not.

// A set of dtype codes as one 64-bit mask (every aclDataType value is below 64):
// membership is a shift and a test instead of a chain of compares, which phase 1
// asks several times per call (a chain of four compares cost ~36 of a tiny call's
// instructions). Codes outside 0..63 — ACL_DT_UNDEFINED, or any int a C caller
// passed — are in no set.
struct DtypeSet {
  uint64_t bits = 0;

  constexpr DtypeSet() = default;
  template <class... Dtypes>
  constexpr explicit DtypeSet(Dtypes... dtypes) : bits(((uint64_t{1} << static_cast<int>(dtypes)) | ...)) {}

  constexpr bool Has(int32_t dtype) const {
    return static_cast<uint32_t>(dtype) < 64 && ((bits >> static_cast<uint32_t>(dtype)) & 1) != 0;
  }
};

// CANN's spelling in messages: "DT_FLOAT", "DT_BF16", ...; "DT_UNKNOWN(<n>)" otherwise.
const char* DtypeName(int32_t dtype);

// Bytes per element, 0 if the type has no fixed element size (undefined, string,
// sub-byte types report 1 as CANN's aclDataTypeSize does).
inline size_t DtypeSize(int32_t dtype);

// True if `dtype` is one of aclDataType's values (then it may be held as one).
inline bool IsKnownDtype(int32_t dtype);

constexpr bool IsFloatingDtype(int32_t dtype);  // FLOAT16, FLOAT, DOUBLE, BF16
inline bool IsComplexDtype(int32_t dtype);      // COMPLEX32, COMPLEX64, COMPLEX128
inline bool IsIntegralDtype(int32_t dtype);     // INT8..UINT64 (not BOOL, INT4, UINT1)

// The type two floating operands are computed in (CANN's table for tensor-tensor
// ops): equal types stay; FLOAT16 with BF16 gives FLOAT; DOUBLE wins over all;
// FLOAT wins over the 16-bit types. ACL_DT_UNDEFINED for non-floating inputs.
constexpr aclDataType PromoteFloatingTypes(int32_t a, int32_t b);

// CANN's CanCast: false only for complex -> non-complex, floating -> integral, and
// anything but BOOL -> BOOL.
inline bool CanCast(int32_t from, int32_t to);

// Defined here so that phase 1, which asks these of every call's three
// tensors, inlines them (each was an out-of-line call into another file).
inline size_t DtypeSize(int32_t dtype) {
  switch (dtype) {
    case ACL_BOOL:
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
    case ACL_INT4:
    case ACL_UINT1:
    case ACL_FLOAT6_E3M2:
    case ACL_FLOAT6_E2M3:
    case ACL_FLOAT4_E2M1:
    case ACL_FLOAT4_E1M2:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    case ACL_DT_UNDEFINED:
    case ACL_STRING:
      return 0;
  }
  return 0;
}

inline bool IsKnownDtype(int32_t dtype) {
  return DtypeSize(dtype) != 0 || dtype == ACL_DT_UNDEFINED || dtype == ACL_STRING;
}

constexpr bool IsFloatingDtype(int32_t dtype) {
  return DtypeSet{ACL_FLOAT16, ACL_FLOAT, ACL_DOUBLE, ACL_BF16}.Has(dtype);
}

inline bool IsComplexDtype(int32_t dtype) { return DtypeSet{ACL_COMPLEX32, ACL_COMPLEX64, ACL_COMPLEX128}.Has(dtype); }

inline bool IsIntegralDtype(int32_t dtype) {
  return DtypeSet{ACL_INT8, ACL_INT16, ACL_INT32, ACL_INT64, ACL_UINT8, ACL_UINT16, ACL_UINT32, ACL_UINT64}.Has(dtype);
}

constexpr aclDataType PromoteFloatingTypes(int32_t a, int32_t b) {
  if (a == b) return IsFloatingDtype(a) ? static_cast<aclDataType>(a) : ACL_DT_UNDEFINED;  // the common case first
  if (!IsFloatingDtype(a) || !IsFloatingDtype(b)) return ACL_DT_UNDEFINED;
  if (a == ACL_DOUBLE || b == ACL_DOUBLE) return ACL_DOUBLE;
  // Any other mix (FLOAT with a 16-bit type, or FLOAT16 with BF16) computes in FLOAT:
  // neither 16-bit format can represent the other.
  return ACL_FLOAT;
}

inline bool CanCast(int32_t from, int32_t to) {
  if (from == to) return true;  // every rule below allows it; the common case first
  if (IsComplexDtype(from) && !IsComplexDtype(to)) return false;
  if (IsFloatingDtype(from) && IsIntegralDtype(to)) return false;
  if (to == ACL_BOOL && from != ACL_BOOL) return false;
  return true;
}

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_DTYPE_H_
