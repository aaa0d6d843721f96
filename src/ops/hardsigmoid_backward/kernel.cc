// aclcpu: scalar hardsigmoid-backward kernels for every dtype path.
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
#include "ops/hardsigmoid_backward/kernel.h"

#include "common/float16.h"

namespace aclcpu {
namespace {

constexpr float kOneSixth = 1.0f / 6.0f;

// Element types: how each is stored and how it converts to and from float32.
struct F32 {
  using Storage = float;
  static float Load(Storage v) { return v; }
  static Storage Store(float v) { return v; }
};
struct F16 {
  using Storage = uint16_t;
  static float Load(Storage v) { return HalfToFloat(v); }
  static Storage Store(float v) { return FloatToHalf(v); }
};
struct Bf16 {
  using Storage = uint16_t;
  static float Load(Storage v) { return Bf16ToFloat(v); }
  static Storage Store(float v) { return FloatToBf16(v); }
};
struct F64 {
  using Storage = double;
  static Storage Store(float v) { return static_cast<double>(v); }
};

inline float HardsigmoidGrad(float grad, float self) {
  return (self > -3.0f && self < 3.0f) ? grad * kOneSixth : 0.0f;
}

// Steps 3 and 4: round to the promoted type, then convert to out's type.
template <typename Promoted, typename Out>
inline typename Out::Storage ToOut(float value) {
  return Out::Store(Promoted::Load(Promoted::Store(value)));
}
// With a float32 promoted type step 3 is the identity.
template <>
inline float ToOut<F32, F32>(float value) { return value; }

template <typename Grad, typename Self, typename Promoted, typename Out>
void Run(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride, void* out,
         int64_t out_stride, int64_t count) {
  const auto* g = static_cast<const typename Grad::Storage*>(grad);
  const auto* s = static_cast<const typename Self::Storage*>(self);
  auto* o = static_cast<typename Out::Storage*>(out);
  if (grad_stride == 1 && self_stride == 1 && out_stride == 1) {
    // The common case, written with unit strides so the compiler can vectorise it.
    for (int64_t i = 0; i < count; ++i) {
      o[i] = ToOut<Promoted, Out>(HardsigmoidGrad(Grad::Load(g[i]), Self::Load(s[i])));
    }
    return;
  }
  for (int64_t i = 0; i < count; ++i) {
    o[i * out_stride] =
        ToOut<Promoted, Out>(HardsigmoidGrad(Grad::Load(g[i * grad_stride]), Self::Load(s[i * self_stride])));
  }
}

// Calls pick(Tag{}) with the element type of a compute dtype (FLOAT, FLOAT16,
// BF16); nullptr for any other dtype.
template <typename Pick>
HardsigmoidBackwardRunFn WithComputeType(aclDataType dtype, Pick pick) {
  switch (dtype) {
    case ACL_FLOAT: return pick(F32{});
    case ACL_FLOAT16: return pick(F16{});
    case ACL_BF16: return pick(Bf16{});
    default: return nullptr;
  }
}

}  // namespace

HardsigmoidBackwardRunFn SelectKernel(aclDataType grad, aclDataType self, aclDataType promoted, aclDataType out) {
  return WithComputeType(grad, [&](auto g) {
    return WithComputeType(self, [&](auto s) {
      return WithComputeType(promoted, [&](auto p) -> HardsigmoidBackwardRunFn {
        using G = decltype(g);
        using S = decltype(s);
        using P = decltype(p);
        // DOUBLE is an output type only (CANN casts the result to it).
        if (out == ACL_DOUBLE) return &Run<G, S, P, F64>;
        return WithComputeType(out, [](auto o) -> HardsigmoidBackwardRunFn { return &Run<G, S, P, decltype(o)>; });
      });
    });
  });
}

}  // namespace aclcpu
