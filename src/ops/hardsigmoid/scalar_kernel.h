// aclcpu: the scalar definition of hardsigmoid for every dtype — the reference
// every SIMD target is tested against, and the loop for runs no vector path
// applies to (vector tails, the elements before an aligned address).
//
// Numerics (the contract):
//   FLOAT, FLOAT16, BFLOAT16: widen self exactly to float32;
//     r = min(max(self + 3, 0), 6) / 6 in float32 — PyTorch 1.13's formula and
//     order of operations, bit-exact with torch.nn.functional.hardsigmoid. A
//     division by 6, not a multiplication by float(1/6): the two differ in about
//     a quarter of float32 results. max and min keep a NaN (std::max(a, b) is
//     a < b ? b : a), so NaN propagates; ±inf give 1 and 0; -0 gives 0.5;
//   then round r once to self's type (RNE), as PyTorch does for bf16 (its 1.13
//     CPU has no f16 kernel; f16 follows the same rule).
//   INT32: CANN's piecewise formula, 0 for self <= -3, 1 for self > 3 and
//     self / 6 + 1/2 otherwise, is a value in [0, 1] that we convert to int32 by
//     truncation toward zero (C++'s and PyTorch's float-to-int conversion): it
//     is 1 only where the exact value is 1, that is for self >= 3, else 0.
#ifndef ACLCPU_OPS_HARDSIGMOID_SCALAR_KERNEL_H_
#define ACLCPU_OPS_HARDSIGMOID_SCALAR_KERNEL_H_

#include <cstdint>

#include "ops/hardsigmoid/kernel.h"
#include "ops/shared/element_types.h"
#include "simd/keep_scalar.h"

namespace aclcpu {
namespace hardsigmoid {

using element::Bf16;
using element::F16;
using element::F32;

struct I32 {
  using Storage = int32_t;
};

constexpr float kShift = 3.0f;  // self + 3
constexpr float kRange = 6.0f;  // clamped to [0, 6], divided by 6
// float(1/6): the vector kernels' division by 6 is built on it, exact for
// float32 results, and a multiply-add by it stands for the addition and
// division where the result is rounded to f16 or bf16 (simd/kernels-inl.h,
// HardsigmoidVector and DivideClampedBySix).
constexpr float kOneSixth = 1.0f / 6.0f;
// float(1/6 - float(1/6)): with kOneSixth, the vector kernels' float32
// division by 6 (DivideClampedBySix), checked exhaustively with this value.
constexpr float kOneSixthRemainder = static_cast<float>(1.0 / 6.0 - static_cast<double>(kOneSixth));
static_assert(kOneSixthRemainder == -0x1.555556p-28f, "the remainder the division by 6 was checked with");
// INT32: the smallest self whose exact result is 1 (self / 6 + 1/2 at self = 3).
constexpr int32_t kFirstIntegerAtOne = 3;

inline float HardsigmoidF32(float self) {
  const float shifted = self + kShift;
  const float above_zero = shifted < 0.0f ? 0.0f : shifted;          // std::max(shifted, 0): NaN kept
  const float clamped = kRange < above_zero ? kRange : above_zero;  // std::min(above_zero, 6): NaN kept
  return clamped / kRange;
}

inline int32_t HardsigmoidI32(int32_t self) { return self >= kFirstIntegerAtOne ? 1 : 0; }

template <class Type>
inline typename Type::Storage HardsigmoidElement(typename Type::Storage self) {
  return Type::Store(HardsigmoidF32(Type::Load(self)));
}
template <>
inline int32_t HardsigmoidElement<I32>(int32_t self) {
  return HardsigmoidI32(self);
}

template <class Type>
void ScalarRun(const void* self, int64_t self_stride, void* out, int64_t out_stride, int64_t count) {
  const auto* s = static_cast<const typename Type::Storage*>(self);
  auto* o = static_cast<typename Type::Storage*>(out);
  // Kept scalar: vectorised, the strided accesses would be gathers and
  // scatters (simd/keep_scalar.h).
  for (int64_t i = 0; i < count; ++i) o[i * out_stride] = HardsigmoidElement<Type>(KeepScalar(s[i * self_stride]));
}

// Calls pick(Tag{}) with the element type of a dtype this operator computes;
// nullptr for any other dtype.
template <typename Fn, typename Pick>
Fn WithSelfType(aclDataType dtype, Pick pick) {
  if (dtype == ACL_INT32) return pick(I32{});
  return element::WithFloatType<Fn>(dtype, pick);
}

}  // namespace hardsigmoid
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_SCALAR_KERNEL_H_
