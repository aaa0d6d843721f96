// aclcpu: vector hardsigmoid-backward kernels, one source compiled by Highway
// for every SIMD target (x86 SSSE3/SSE4/AVX2/AVX-512, Arm NEON/SVE, and the
// portable EMU128/SCALAR), selected at run time (see simd/targets.h).
//
// Each kernel handles a contiguous run with full vectors and hands the tail
// (fewer than one vector of elements) to the scalar definition in
// scalar_kernel.h, which is also the reference these kernels are tested against.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/hardsigmoid_backward/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "ops/hardsigmoid_backward/scalar_kernel.h"
#include "simd/convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid_backward {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using aclcpu::HWY_NAMESPACE::LoadBf16AsF32;
using aclcpu::HWY_NAMESPACE::LoadF16AsF32;
using aclcpu::HWY_NAMESPACE::StoreF32AsBf16;
using aclcpu::HWY_NAMESPACE::StoreF32AsF16;

// Vector loads and stores of each element type, as float32 lanes.
template <class Type>
struct VectorIo;

template <>
struct VectorIo<F32> {
  template <class DF>
  static hn::Vec<DF> Load(DF df, const float* p) { return hn::LoadU(df, p); }
  template <class DF>
  static void Store(DF df, hn::Vec<DF> v, float* p) { hn::StoreU(v, df, p); }
};

template <>
struct VectorIo<F16> {
  template <class DF>
  static hn::Vec<DF> Load(DF df, const uint16_t* p) { return LoadF16AsF32(df, p); }
  template <class DF>
  static void Store(DF df, hn::Vec<DF> v, uint16_t* p) { StoreF32AsF16(df, v, p); }
};

template <>
struct VectorIo<Bf16> {
  template <class DF>
  static hn::Vec<DF> Load(DF df, const uint16_t* p) { return LoadBf16AsF32(df, p); }
  template <class DF>
  static void Store(DF df, hn::Vec<DF> v, uint16_t* p) { StoreF32AsBf16(df, v, p); }
};

template <>
struct VectorIo<F64> {
  template <class DF>
  static void Store(DF /*df*/, hn::Vec<DF> v, double* p) {
    const hn::Rebind<double, DF> dd;
    hn::StoreU(hn::PromoteTo(dd, v), dd, p);
  }
};

// Step 3 of the numerics: round to the promoted type. The identity for float32,
// and skipped when out has the promoted type (rounding twice to the same format
// changes nothing).
template <class Promoted, class Out, class DF>
HWY_INLINE hn::Vec<DF> RoundToPromoted(DF df, hn::Vec<DF> v) {
  if constexpr (std::is_same_v<Promoted, F32> || std::is_same_v<Promoted, Out>) {
    return v;
  } else {
    HWY_ALIGN uint16_t narrow[hn::MaxLanes(df)];
    VectorIo<Promoted>::Store(df, v, narrow);
    return VectorIo<Promoted>::Load(df, narrow);
  }
}

// One vector of results, in float32 lanes, already rounded to the promoted type.
template <class Grad, class Self, class Promoted, class Out, class DF>
HWY_INLINE hn::Vec<DF> ComputeVector(DF df, const typename Grad::Storage* g, const typename Self::Storage* s) {
  const auto grad_f32 = VectorIo<Grad>::Load(df, g);
  const auto self_f32 = VectorIo<Self>::Load(df, s);
  // Ordered compares: a NaN self is outside the window.
  const auto inside = hn::And(hn::Gt(self_f32, hn::Set(df, -kWindow)), hn::Lt(self_f32, hn::Set(df, kWindow)));
  const auto result = hn::IfThenElseZero(inside, hn::Mul(grad_f32, hn::Set(df, kOneSixth)));
  return RoundToPromoted<Promoted, Out>(df, result);
}

template <class Grad, class Self, class Promoted, class Out>
void ContiguousRun(const void* grad, const void* self, void* out, int64_t count);

// Strided runs (slices, transposed views walked in tiles, broadcast inputs):
// gather a block of each operand into contiguous scratch with plain copies, run
// the contiguous vector kernel on it, and scatter the results. The copies are
// branch-free, unlike a scalar select on random data, and the arithmetic stays
// vectorised.
template <class Grad, class Self, class Promoted, class Out>
void StridedRun(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride, void* out,
                int64_t out_stride, int64_t count) {
  constexpr int64_t kBlock = 256;
  HWY_ALIGN typename Grad::Storage grad_block[kBlock];
  HWY_ALIGN typename Self::Storage self_block[kBlock];
  HWY_ALIGN typename Out::Storage out_block[kBlock];
  const auto* g = static_cast<const typename Grad::Storage*>(grad);
  const auto* s = static_cast<const typename Self::Storage*>(self);
  auto* o = static_cast<typename Out::Storage*>(out);
  for (int64_t start = 0; start < count; start += kBlock) {
    const int64_t length = count - start < kBlock ? count - start : kBlock;
    for (int64_t i = 0; i < length; ++i) grad_block[i] = g[(start + i) * grad_stride];
    for (int64_t i = 0; i < length; ++i) self_block[i] = s[(start + i) * self_stride];
    if (out_stride == 1) {
      ContiguousRun<Grad, Self, Promoted, Out>(grad_block, self_block, o + start, length);
    } else {
      ContiguousRun<Grad, Self, Promoted, Out>(grad_block, self_block, out_block, length);
      for (int64_t i = 0; i < length; ++i) o[(start + i) * out_stride] = out_block[i];
    }
  }
}

template <class Grad, class Self, class Promoted, class Out>
void VectorRun(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride, void* out,
               int64_t out_stride, int64_t count) {
  if (grad_stride != 1 || self_stride != 1 || out_stride != 1) {
    StridedRun<Grad, Self, Promoted, Out>(grad, grad_stride, self, self_stride, out, out_stride, count);
    return;
  }
  ContiguousRun<Grad, Self, Promoted, Out>(grad, self, out, count);
}

template <class Grad, class Self, class Promoted, class Out>
void ContiguousRun(const void* grad, const void* self, void* out, int64_t count) {
  // A double output needs as many double lanes as float lanes: use half-width
  // float vectors then.
  using DF = std::conditional_t<std::is_same_v<Out, F64>, hn::Rebind<float, hn::ScalableTag<double>>,
                                hn::ScalableTag<float>>;
  const DF df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto* g = static_cast<const typename Grad::Storage*>(grad);
  const auto* s = static_cast<const typename Self::Storage*>(self);
  auto* o = static_cast<typename Out::Storage*>(out);
  int64_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    VectorIo<Out>::Store(df, ComputeVector<Grad, Self, Promoted, Out>(df, g + i, s + i), o + i);
  }
  ScalarRun<Grad, Self, Promoted, Out>(g + i, 1, s + i, 1, o + i, 1, count - i);
}

// The same for float32 outputs far larger than the last-level cache, with
// non-temporal stores: they skip reading each output line before overwriting it
// (a third of the DRAM traffic) and keep the inputs' lines in cache. Stores need
// vector-aligned addresses, so the first elements up to alignment go through the
// scalar path.
template <class Grad, class Self, class Promoted>
void StreamingRun(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride, void* out,
                  int64_t out_stride, int64_t count) {
  if (grad_stride != 1 || self_stride != 1 || out_stride != 1) {
    StridedRun<Grad, Self, Promoted, F32>(grad, grad_stride, self, self_stride, out, out_stride, count);
    return;
  }
  const hn::ScalableTag<float> df;
  const int64_t lanes = static_cast<int64_t>(hn::Lanes(df));
  const auto* g = static_cast<const typename Grad::Storage*>(grad);
  const auto* s = static_cast<const typename Self::Storage*>(self);
  auto* o = static_cast<float*>(out);
  const uintptr_t vector_bytes = static_cast<uintptr_t>(lanes) * sizeof(float);
  const uintptr_t misalignment = reinterpret_cast<uintptr_t>(o) % vector_bytes;
  int64_t head = misalignment == 0 ? 0 : static_cast<int64_t>((vector_bytes - misalignment) / sizeof(float));
  if (misalignment % sizeof(float) != 0 || head > count) head = count;  // cannot align: all scalar
  ScalarRun<Grad, Self, Promoted, F32>(g, 1, s, 1, o, 1, head);
  int64_t i = head;
  for (; i + lanes <= count; i += lanes) {
    hn::Stream(ComputeVector<Grad, Self, Promoted, F32>(df, g + i, s + i), df, o + i);
  }
  ScalarRun<Grad, Self, Promoted, F32>(g + i, 1, s + i, 1, o + i, 1, count - i);
  // Non-temporal stores are weakly ordered: make them visible before the
  // launch is reported complete.
  hwy::FlushStream();
}

HardsigmoidBackwardRunFn SelectVectorKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                            aclDataType out) {
  return WithComputeType(grad, [&](auto g) {
    return WithComputeType(self, [&](auto s) {
      return WithComputeType(promoted, [&](auto p) -> HardsigmoidBackwardRunFn {
        using G = decltype(g);
        using S = decltype(s);
        using P = decltype(p);
        if (out == ACL_DOUBLE) return &VectorRun<G, S, P, F64>;
        return WithComputeType(out, [](auto o) -> HardsigmoidBackwardRunFn {
          return &VectorRun<G, S, P, decltype(o)>;
        });
      });
    });
  });
}

HardsigmoidBackwardRunFn SelectStreamingKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                               aclDataType out) {
  if (out != ACL_FLOAT) return nullptr;  // float32 outputs only (see StreamingRun)
  return WithComputeType(grad, [&](auto g) {
    return WithComputeType(self, [&](auto s) {
      return WithComputeType(promoted, [&](auto p) -> HardsigmoidBackwardRunFn {
        return &StreamingRun<decltype(g), decltype(s), decltype(p)>;
      });
    });
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace hardsigmoid_backward
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "ops/hardsigmoid_backward/simd_kernel.h"
#include "simd/targets.h"

namespace aclcpu {
namespace hardsigmoid_backward {

// Every compiled target's selector, best first. Highway's own dispatch table
// always follows the CPU; we also need to pick a lower target (ACLCPU_MAX_ISA,
// tests), so the table is ours.
const TargetTable<VectorKernelSelector> kVectorKernelSelectors = {
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectVectorKernel)};
const TargetTable<VectorKernelSelector> kStreamingKernelSelectors = {
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectStreamingKernel)};

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
#endif  // HWY_ONCE
