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

// Our avx512_bf16 and avx512_fp16 targets take AVX-512's kernels: the forward
// op computes 16-bit types in float32 lanes on every target (no float16-lane
// arithmetic without a proof that it is bit-exact).
RunFn SelectVectorKernel(aclDataType dtype) {
  return WithSelfType<RunFn>(dtype, [](auto type) -> RunFn { return &VectorRun<decltype(type)>; });
}

RunFn SelectStreamingKernel(aclDataType dtype) {
  return WithSelfType<RunFn>(dtype, [](auto type) -> RunFn { return &StreamingRun<decltype(type)>; });
}

TileFn SelectTileKernel(aclDataType dtype) {
  return WithSelfType<TileFn>(dtype, [](auto type) -> TileFn { return &TileRun<decltype(type)>; });
}

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
const TargetTable<KernelSelector> kVectorKernelSelectors = {ACLCPU_FOR_EACH_COMPILED_TARGET(SelectVectorKernel)};
const TargetTable<KernelSelector> kStreamingKernelSelectors = {
    ACLCPU_FOR_EACH_COMPILED_TARGET(SelectStreamingKernel)};
const TargetTable<TileKernelSelector> kTileKernelSelectors = {ACLCPU_FOR_EACH_COMPILED_TARGET(SelectTileKernel)};

}  // namespace hardsigmoid
}  // namespace aclcpu
#endif  // HWY_ONCE
