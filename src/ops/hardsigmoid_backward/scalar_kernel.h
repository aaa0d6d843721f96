// aclcpu: the scalar definition of hardsigmoid backward for every dtype path —
// the reference every SIMD target is tested against, and the loop for runs no
// vector path applies to (strided runs, vector tails).
//
// Numerics (the contract, bit-exact with PyTorch's hardsigmoid_backward):
//   1. widen gradOutput and self exactly to float32;
//   2. r = (-3 < self < 3) ? grad * (1.0f / 6.0f) : +0.0f, in float32;
//   3. round r to the promoted dtype (what CANN's kernel writes), RNE;
//   4. convert to out's dtype, RNE (exact when widening).
// Why a select and not grad * mask: a NaN or infinite grad outside the window must
// give 0, as in PyTorch; a NaN self fails both comparisons and gives 0. Why
// 1.0f/6.0f and not 0.16666666f: PyTorch multiplies by float(1/6) and CANN's
// current op_api passes 1.0f/6.0f; the two differ by one ulp. Why a multiply and not
// a division by 6: both references multiply; the results differ in ~20% of inputs.
#ifndef ACLCPU_OPS_HARDSIGMOID_BACKWARD_SCALAR_KERNEL_H_
#define ACLCPU_OPS_HARDSIGMOID_BACKWARD_SCALAR_KERNEL_H_

#include <cstdint>
#include <type_traits>

#include "common/dtype.h"
#include "common/float16.h"
#include "ops/shared/element_types.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "simd/keep_scalar.h"

namespace aclcpu {
namespace hardsigmoid_backward {

constexpr float kOneSixth = 1.0f / 6.0f;
constexpr float kWindow = 3.0f;  // the gradient passes for -kWindow < self < kWindow

using element::Bf16;
using element::F16;
using element::F32;
using element::F64;

// 3.0 in each 16-bit float type's bits: |self| < 3 is tested on the bits
// (simd/kernels-inl.h, simd/grad_f16.cc, simd/grad_bf16.cc).
template <class Half>
struct WindowBits;
template <>
struct WindowBits<F16> {
  static constexpr uint16_t kValue = 0x4200;
};
template <>
struct WindowBits<Bf16> {
  static constexpr uint16_t kValue = 0x4040;
};

inline float HardsigmoidGrad(float grad, float self) {
  return (self > -kWindow && self < kWindow) ? grad * kOneSixth : 0.0f;
}

// Steps 3 and 4: round to the promoted type, then convert to out's type.
template <typename Promoted, typename Out>
inline typename Out::Storage ToOut(float value) {
  return Out::Store(Promoted::Load(Promoted::Store(value)));
}

// Calls pick(Tag{}) with the element type of a compute dtype (element_types.h);
// Fn is the kind of kernel selected (a run or a tile kernel).
template <typename Fn = HardsigmoidBackwardRunFn, typename Pick>
Fn WithComputeType(aclDataType dtype, Pick pick) {
  return element::WithFloatType<Fn>(dtype, pick);
}

// The element type of a floating compute dtype known at compile time (float32
// for any other: WithSelfAndPromotedType asserts it is never asked one).
template <aclDataType kDtype>
using ComputeTypeOf = std::conditional_t<kDtype == ACL_FLOAT16, F16, std::conditional_t<kDtype == ACL_BF16, Bf16, F32>>;

// The element type (grad, self) compute in: PromoteFloatingTypes itself, at
// compile time.
template <typename Grad, typename Self>
using PromotedType = ComputeTypeOf<PromoteFloatingTypes(Grad::kDtype, Self::kDtype)>;

// Calls pick(Self{}, PromotedType<Grad, Self>{}) with the element type of self;
// nullptr when `promoted` is not the dtype (grad, self) compute in. Phase 1
// derives promoted from grad and self, so kernels exist for that pair only: a
// third of every (self, promoted) pair, and a third of the kernels' compile
// time and code.
template <typename Grad, typename Fn = HardsigmoidBackwardRunFn, typename Pick>
Fn WithSelfAndPromotedType(aclDataType self, aclDataType promoted, Pick pick) {
  return WithComputeType<Fn>(self, [&](auto s) -> Fn {
    using Promoted = PromotedType<Grad, decltype(s)>;
    static_assert(Promoted::kDtype == PromoteFloatingTypes(Grad::kDtype, decltype(s)::kDtype));
    if (promoted != Promoted::kDtype) return nullptr;
    return pick(s, Promoted{});
  });
}

// Calls pick(Tag{}) with the element type of out's dtype: a compute dtype or
// DOUBLE, an output type only (CANN casts the result to it).
template <typename Fn = HardsigmoidBackwardRunFn, typename Pick>
Fn WithOutType(aclDataType out, Pick pick) {
  if (out == ACL_DOUBLE) return pick(F64{});
  return WithComputeType<Fn>(out, pick);
}

template <typename Grad, typename Self, typename Promoted, typename Out>
void ScalarRun(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride, void* out,
               int64_t out_stride, int64_t count) {
  const auto* g = static_cast<const typename Grad::Storage*>(grad);
  const auto* s = static_cast<const typename Self::Storage*>(self);
  auto* o = static_cast<typename Out::Storage*>(out);
  // Kept scalar: vectorised, the strided accesses would be gathers and
  // scatters (simd/keep_scalar.h). One opaque value keeps the whole loop scalar.
  for (int64_t i = 0; i < count; ++i) {
    o[i * out_stride] = ToOut<Promoted, Out>(
        HardsigmoidGrad(Grad::Load(KeepScalar(g[i * grad_stride])), Self::Load(s[i * self_stride])));
  }
}

}  // namespace hardsigmoid_backward
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_BACKWARD_SCALAR_KERNEL_H_
