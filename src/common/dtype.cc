#include "common/dtype.h"

#include <cstdio>

namespace aclcpu {

const char* DtypeName(int32_t dtype) {
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

}  // namespace aclcpu
