// aclcpu: the per-target tables of kernel selectors (simd_kernel.h). The
// kernels themselves are compiled in one translation unit per grad dtype
// (simd/grad_*.cc, templates in simd/kernels-inl.h); the grad dtype picks which.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/hardsigmoid_backward/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "ops/hardsigmoid_backward/scalar_kernel.h"
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

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// The avx512_bf16 target's selector: its own all-bf16 kernel, AVX-512's for
// the rest.
HardsigmoidBackwardRunFn SelectVectorKernelWithBf16Instructions(aclDataType grad, aclDataType self,
                                                                aclDataType promoted, aclDataType out) {
  if (grad == ACL_BF16 && self == ACL_BF16 && promoted == ACL_BF16 && out == ACL_BF16) {
    return &VectorRunWithBf16Instructions;
  }
  return SelectVectorKernel(grad, self, promoted, out);
}
#endif

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_FP16_TARGET
// The avx512_fp16 target's: its own all-f16 kernel, the avx512_bf16 target's
// for the rest.
HardsigmoidBackwardRunFn SelectVectorKernelWithFp16Instructions(aclDataType grad, aclDataType self,
                                                                aclDataType promoted, aclDataType out) {
  if (grad == ACL_FLOAT16 && self == ACL_FLOAT16 && promoted == ACL_FLOAT16 && out == ACL_FLOAT16) {
    return &VectorRunWithFp16Instructions;
  }
  return SelectVectorKernelWithBf16Instructions(grad, self, promoted, out);
}
#endif

HardsigmoidBackwardRunFn SelectStreamingKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                               aclDataType out) {
  return WithComputeType(grad,
                         [&](auto g) { return SelectStreamingKernelForGrad<decltype(g)>(self, promoted, out); });
}

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// The avx512_bf16 target's: its own all-bf16 kernel for the blocks.
HardsigmoidBackwardRunFn SelectStreamingKernelWithBf16Instructions(aclDataType grad, aclDataType self,
                                                                   aclDataType promoted, aclDataType out) {
  if (grad == ACL_BF16 && self == ACL_BF16 && promoted == ACL_BF16 && out == ACL_BF16) {
    return &StreamingRunWithBf16Instructions;
  }
  return SelectStreamingKernel(grad, self, promoted, out);
}
#endif

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_FP16_TARGET
// The avx512_fp16 target's: its own all-f16 kernel for the blocks.
HardsigmoidBackwardRunFn SelectStreamingKernelWithFp16Instructions(aclDataType grad, aclDataType self,
                                                                   aclDataType promoted, aclDataType out) {
  if (grad == ACL_FLOAT16 && self == ACL_FLOAT16 && promoted == ACL_FLOAT16 && out == ACL_FLOAT16) {
    return &StreamingRunWithFp16Instructions;
  }
  return SelectStreamingKernelWithBf16Instructions(grad, self, promoted, out);
}
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
    {kAvx512Fp16Target, &N_AVX3::SelectVectorKernelWithFp16Instructions},  // first: ForTarget's match
#endif
#if ACLCPU_HAVE_AVX512_BF16_TARGET
    {kAvx512Bf16Target, &N_AVX3::SelectVectorKernelWithBf16Instructions},  // first: ForTarget's match
#endif
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectVectorKernel)};
const TargetTable<VectorKernelSelector> kStreamingKernelSelectors = {
#if ACLCPU_HAVE_AVX512_FP16_TARGET
    {kAvx512Fp16Target, &N_AVX3::SelectStreamingKernelWithFp16Instructions},  // first: ForTarget's match
#endif
#if ACLCPU_HAVE_AVX512_BF16_TARGET
    {kAvx512Bf16Target, &N_AVX3::SelectStreamingKernelWithBf16Instructions},  // first: ForTarget's match
#endif
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectStreamingKernel)};
const TargetTable<TileKernelSelector> kTileKernelSelectors = {ACLCPU_FOR_EACH_COMPILED_TARGET(SelectTileKernel)};

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
#endif  // HWY_ONCE
