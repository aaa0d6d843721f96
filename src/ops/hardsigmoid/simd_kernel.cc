// aclcpu: the per-target tables of hardsigmoid's kernel selectors (simd_kernel.h),
// with the kernels of simd/kernels-inl.h compiled for every target.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/hardsigmoid/simd_kernel.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "ops/hardsigmoid/kernel.h"
#include "ops/hardsigmoid/scalar_kernel.h"
#include "ops/hardsigmoid/simd/kernels-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid {
namespace HWY_NAMESPACE {

// The forward op computes 16-bit types in float32 lanes on every target (no
// float16-lane arithmetic without a proof that it is bit-exact): our
// avx512_fp16 target takes AVX-512's kernels, and avx512_bf16 too except for
// bf16 runs and blocks (below).
RunFn SelectVectorKernel(aclDataType dtype) {
  return WithSelfType<RunFn>(dtype, [](auto type) -> RunFn { return &VectorRun<decltype(type)>; });
}

RunFn SelectStreamingKernel(aclDataType dtype) {
  return WithSelfType<RunFn>(dtype, [](auto type) -> RunFn { return &StreamingRun<decltype(type)>; });
}

TileFn SelectTileKernel(aclDataType dtype) {
  return WithSelfType<TileFn>(dtype, [](auto type) -> TileFn { return &TileRun<decltype(type)>; });
}

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// avx512_bf16: bf16 runs and transposed blocks narrowed by VCVTNE2PS2BF16
// (kernels-inl.h), AVX-512's kernels for the rest. Not the avx512_fp16
// target's: on the Xeons that have it the instruction costs about four vector
// uops (the backward op's grad_bf16.cc), so they keep the integer narrowing.
RunFn SelectVectorKernelWithBf16Instructions(aclDataType dtype) {
  if (dtype == ACL_BF16) return &VectorRun<Bf16, &ContiguousBf16RunWithBf16Instructions>;
  return SelectVectorKernel(dtype);
}

RunFn SelectStreamingKernelWithBf16Instructions(aclDataType dtype) {
  if (dtype == ACL_BF16) {
    return &StreamingRun<Bf16, &ContiguousBf16RunWithBf16Instructions, &StreamingBf16RunWithBf16Instructions>;
  }
  return SelectStreamingKernel(dtype);
}

TileFn SelectTileKernelWithBf16Instructions(aclDataType dtype) {
  if (dtype == ACL_BF16) return &TileRun<Bf16, HardsigmoidOnHalves<Bf16, /*kWithBf16Instruction=*/true>>;
  return SelectTileKernel(dtype);
}
#endif

}  // namespace HWY_NAMESPACE
}  // namespace hardsigmoid
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "ops/hardsigmoid/simd_kernel.h"
#include "simd/targets.h"

namespace aclcpu {
namespace hardsigmoid {

// Every compiled target's selector, best first. Highway's own dispatch table
// always follows the CPU; we also need to pick a lower target (ACLCPU_MAX_ISA,
// tests), so the table is ours.
const TargetTable<KernelSelector> kVectorKernelSelectors = {
#if ACLCPU_HAVE_AVX512_BF16_TARGET
    {kAvx512Bf16Target, &N_AVX3::SelectVectorKernelWithBf16Instructions},  // first: ForTarget's match
#endif
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectVectorKernel)};
const TargetTable<KernelSelector> kStreamingKernelSelectors = {
#if ACLCPU_HAVE_AVX512_BF16_TARGET
    {kAvx512Bf16Target, &N_AVX3::SelectStreamingKernelWithBf16Instructions},  // first: ForTarget's match
#endif
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectStreamingKernel)};
const TargetTable<TileKernelSelector> kTileKernelSelectors = {
#if ACLCPU_HAVE_AVX512_BF16_TARGET
    {kAvx512Bf16Target, &N_AVX3::SelectTileKernelWithBf16Instructions},  // first: ForTarget's match
#endif
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectTileKernel)};

}  // namespace hardsigmoid
}  // namespace aclcpu
#endif  // HWY_ONCE
