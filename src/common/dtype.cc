#include "common/dtype.h"

#include <cstdio>

namespace aclcpu {

const char* DtypeName(aclDataType dtype) {
  switch (dtype) {
    case ACL_DT_UNDEFINED: return "DT_UNDEFINED";
    case ACL_FLOAT: return "DT_FLOAT";
    case ACL_FLOAT16: return "DT_FLOAT16";
    case ACL_INT8: return "DT_INT8";
    case ACL_INT32: return "DT_INT32";
    case ACL_UINT8: return "DT_UINT8";
    case ACL_INT16: return "DT_INT16";
    case ACL_UINT16: return "DT_UINT16";
    case ACL_UINT32: return "DT_UINT32";
    case ACL_INT64: return "DT_INT64";
    case ACL_UINT64: return "DT_UINT64";
    case ACL_DOUBLE: return "DT_DOUBLE";
    case ACL_BOOL: return "DT_BOOL";
    case ACL_STRING: return "DT_STRING";
    case ACL_COMPLEX64: return "DT_COMPLEX64";
    case ACL_COMPLEX128: return "DT_COMPLEX128";
    case ACL_BF16: return "DT_BF16";
    case ACL_INT4: return "DT_INT4";
    case ACL_UINT1: return "DT_UINT1";
    case ACL_COMPLEX32: return "DT_COMPLEX32";
    case ACL_HIFLOAT8: return "DT_HIFLOAT8";
    case ACL_FLOAT8_E5M2: return "DT_FLOAT8_E5M2";
    case ACL_FLOAT8_E4M3FN: return "DT_FLOAT8_E4M3FN";
    case ACL_FLOAT8_E8M0: return "DT_FLOAT8_E8M0";
    case ACL_FLOAT6_E3M2: return "DT_FLOAT6_E3M2";
    case ACL_FLOAT6_E2M3: return "DT_FLOAT6_E2M3";
    case ACL_FLOAT4_E2M1: return "DT_FLOAT4_E2M1";
    case ACL_FLOAT4_E1M2: return "DT_FLOAT4_E1M2";
  }
  // An out-of-range value: name it by number. One buffer per thread keeps the
  // returned pointer valid while the caller formats its message.
  thread_local char unknown[32];
  std::snprintf(unknown, sizeof unknown, "DT_UNKNOWN(%d)", static_cast<int>(dtype));
  return unknown;
}

size_t DtypeSize(aclDataType dtype) {
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

bool IsFloatingDtype(aclDataType dtype) {
  return dtype == ACL_FLOAT16 || dtype == ACL_FLOAT || dtype == ACL_DOUBLE || dtype == ACL_BF16;
}

bool IsComplexDtype(aclDataType dtype) {
  return dtype == ACL_COMPLEX32 || dtype == ACL_COMPLEX64 || dtype == ACL_COMPLEX128;
}

bool IsIntegralDtype(aclDataType dtype) {
  switch (dtype) {
    case ACL_INT8:
    case ACL_INT16:
    case ACL_INT32:
    case ACL_INT64:
    case ACL_UINT8:
    case ACL_UINT16:
    case ACL_UINT32:
    case ACL_UINT64:
      return true;
    default:
      return false;
  }
}

aclDataType PromoteFloatingTypes(aclDataType a, aclDataType b) {
  if (!IsFloatingDtype(a) || !IsFloatingDtype(b)) return ACL_DT_UNDEFINED;
  if (a == b) return a;
  if (a == ACL_DOUBLE || b == ACL_DOUBLE) return ACL_DOUBLE;
  // Any other mix (FLOAT with a 16-bit type, or FLOAT16 with BF16) computes in FLOAT:
  // neither 16-bit format can represent the other.
  return ACL_FLOAT;
}

bool CanCast(aclDataType from, aclDataType to) {
  if (IsComplexDtype(from) && !IsComplexDtype(to)) return false;
  if (IsFloatingDtype(from) && IsIntegralDtype(to)) return false;
  if (to == ACL_BOOL && from != ACL_BOOL) return false;
  return true;
}

}  // namespace aclcpu
