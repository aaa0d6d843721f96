// aclcpu: the element types elementwise kernels are instantiated for — how each
// is stored and how it converts to and from float32 (exact widening; narrowing
// rounds to nearest even, keeps NaN and subnormals: common/float16.h) — and the
// dispatch from a dtype code to one of them. Each names its dtype (kDtype), so
// rules over dtypes (PromoteFloatingTypes) apply to the types unrestated.
#ifndef ACLCPU_OPS_SHARED_ELEMENT_TYPES_H_
#define ACLCPU_OPS_SHARED_ELEMENT_TYPES_H_

#include <cstdint>

#include "acl/acl_base.h"
#include "common/float16.h"

namespace aclcpu {
namespace element {

struct F32 {
  static constexpr aclDataType kDtype = ACL_FLOAT;
  using Storage = float;
  static float Load(Storage v) { return v; }
  static Storage Store(float v) { return v; }
};
struct F16 {
  static constexpr aclDataType kDtype = ACL_FLOAT16;
  using Storage = uint16_t;
  static float Load(Storage v) { return HalfToFloat(v); }
  static Storage Store(float v) { return FloatToHalf(v); }
};
struct Bf16 {
  static constexpr aclDataType kDtype = ACL_BF16;
  using Storage = uint16_t;
  static float Load(Storage v) { return Bf16ToFloat(v); }
  static Storage Store(float v) { return FloatToBf16(v); }
};
struct F64 {  // an output type only
  static constexpr aclDataType kDtype = ACL_DOUBLE;
  using Storage = double;
  static Storage Store(float v) { return static_cast<double>(v); }
};

// Calls pick(Tag{}) with the element type of a floating compute dtype (FLOAT,
// FLOAT16, BF16); nullptr for any other dtype. Kernel selection nests it per
// operand; Fn is the kind of kernel selected.
template <typename Fn, typename Pick>
Fn WithFloatType(aclDataType dtype, Pick pick) {
  switch (dtype) {
    case ACL_FLOAT: return pick(F32{});
    case ACL_FLOAT16: return pick(F16{});
    case ACL_BF16: return pick(Bf16{});
    default: return nullptr;
  }
}

}  // namespace element
}  // namespace aclcpu

#endif  // ACLCPU_OPS_SHARED_ELEMENT_TYPES_H_
