// aclcpu: the per-target tables of kernel selectors (simd_kernel.h). The
// kernels themselves are compiled in one translation unit per grad dtype
// (simd/grad_*.cc, templates in simd/kernels-inl.h); the grad dtype picks which.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/hardsigmoid_backward/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "ops/hardsigmoid_backward/scalar_kernel.h"
#include "ops/hardsigmoid_backward/simd_kernel.h"
#include "ops/hardsigmoid_backward/simd/select_by_grad-inl.h"
#include "simd/targets.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid_backward {
namespace HWY_NAMESPACE {

HardsigmoidBackwardRunFn SelectVectorKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                            aclDataType out) {
  return WithComputeType(grad, [&](auto g) { return SelectVectorKernelForGrad<decltype(g)>(self, promoted, out); });
}

HardsigmoidBackwardRunFn SelectStreamingKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                               aclDataType out) {
  return WithComputeType(grad,
                         [&](auto g) { return SelectStreamingKernelForGrad<decltype(g)>(self, promoted, out); });
}

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// Our x86 targets (simd/targets.h) add a kernel of their own for launches whose
// every dtype is kType, and take `kOthers`'s choice for the rest.
template <aclDataType kType, HardsigmoidBackwardRunFn kOwn, VectorKernelSelector kOthers>
HardsigmoidBackwardRunFn SelectOwnKernelForOneDtype(aclDataType grad, aclDataType self, aclDataType promoted,
                                                    aclDataType out) {
  if (grad == kType && self == kType && promoted == kType && out == kType) return kOwn;
  return kOthers(grad, self, promoted, out);
}

// avx512_bf16: its all-bf16 kernel, AVX-512's for the rest.
constexpr VectorKernelSelector kSelectVectorKernelWithBf16Instructions =
    &SelectOwnKernelForOneDtype<ACL_BF16, &VectorRunWithBf16Instructions, &SelectVectorKernel>;
constexpr VectorKernelSelector kSelectStreamingKernelWithBf16Instructions =
    &SelectOwnKernelForOneDtype<ACL_BF16, &StreamingRunWithBf16Instructions, &SelectStreamingKernel>;
#endif

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_FP16_TARGET
// avx512_fp16: its all-f16 and all-bf16 kernels, AVX-512's for the rest.
constexpr VectorKernelSelector kSelectVectorKernelWithFp16Instructions = &SelectOwnKernelForOneDtype<
    ACL_FLOAT16, &VectorRunWithFp16Instructions,
    &SelectOwnKernelForOneDtype<ACL_BF16, &VectorRunWithMantissaTable, &SelectVectorKernel>>;
constexpr VectorKernelSelector kSelectStreamingKernelWithFp16Instructions = &SelectOwnKernelForOneDtype<
    ACL_FLOAT16, &StreamingRunWithFp16Instructions,
    &SelectOwnKernelForOneDtype<ACL_BF16, &StreamingRunWithMantissaTable, &SelectStreamingKernel>>;
#endif

HardsigmoidBackwardTileFn SelectTileKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                           aclDataType out) {
  return WithComputeType<HardsigmoidBackwardTileFn>(
      grad, [&](auto g) { return SelectTileKernelForGrad<decltype(g)>(self, promoted, out); });
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
#if ACLCPU_HAVE_AVX512_FP16_TARGET
    {kAvx512Fp16Target, N_AVX3::kSelectVectorKernelWithFp16Instructions},  // first: ForTarget's match
#endif
#if ACLCPU_HAVE_AVX512_BF16_TARGET
    {kAvx512Bf16Target, N_AVX3::kSelectVectorKernelWithBf16Instructions},  // first: ForTarget's match
#endif
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectVectorKernel)};
const TargetTable<VectorKernelSelector> kStreamingKernelSelectors = {
#if ACLCPU_HAVE_AVX512_FP16_TARGET
    {kAvx512Fp16Target, N_AVX3::kSelectStreamingKernelWithFp16Instructions},  // first: ForTarget's match
#endif
#if ACLCPU_HAVE_AVX512_BF16_TARGET
    {kAvx512Bf16Target, N_AVX3::kSelectStreamingKernelWithBf16Instructions},  // first: ForTarget's match
#endif
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectStreamingKernel)};
const TargetTable<TileKernelSelector> kTileKernelSelectors = {ACLCPU_FOR_EACH_COMPILED_TARGET(SelectTileKernel)};

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
#endif  // HWY_ONCE
