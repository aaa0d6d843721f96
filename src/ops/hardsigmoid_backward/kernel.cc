// aclcpu: choosing the kernel for a dtype path and SIMD target (vector kernels
// in simd/, their tables in simd_kernel.cc, the scalar definition in
// scalar_kernel.h).
#include "ops/hardsigmoid_backward/kernel.h"

#include "ops/hardsigmoid_backward/scalar_kernel.h"
#include "ops/hardsigmoid_backward/simd_kernel.h"

namespace aclcpu {
namespace {

using hardsigmoid_backward::Bf16;
using hardsigmoid_backward::F16;
using hardsigmoid_backward::F32;
using hardsigmoid_backward::ScalarRun;
using hardsigmoid_backward::WithComputeType;
using hardsigmoid_backward::WithOutType;
using hardsigmoid_backward::WithSelfAndPromotedType;

}  // namespace

HardsigmoidBackwardRunFn SelectScalarKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                            aclDataType out) {
  return WithComputeType(grad, [&](auto g) {
    using G = decltype(g);
    return WithSelfAndPromotedType<G>(self, promoted, [&](auto s, auto p) {
      using S = decltype(s);
      using P = decltype(p);
      return WithOutType(out, [](auto o) -> HardsigmoidBackwardRunFn { return &ScalarRun<G, S, P, decltype(o)>; });
    });
  });
}

HardsigmoidBackwardRunFn SelectKernel(aclDataType grad, aclDataType self, aclDataType promoted, aclDataType out,
                                      int64_t target) {
  const auto selector = ForTarget(hardsigmoid_backward::kVectorKernelSelectors, target);
  return selector != nullptr ? selector(grad, self, promoted, out) : nullptr;
}

HardsigmoidBackwardRunFn SelectStreamingKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                               aclDataType out, int64_t target) {
  const auto selector = ForTarget(hardsigmoid_backward::kStreamingKernelSelectors, target);
  return selector != nullptr ? selector(grad, self, promoted, out) : nullptr;
}

HardsigmoidBackwardTileFn SelectTileKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                           aclDataType out, int64_t target) {
  const auto selector = ForTarget(hardsigmoid_backward::kTileKernelSelectors, target);
  return selector != nullptr ? selector(grad, self, promoted, out) : nullptr;
}

}  // namespace aclcpu
