// aclcpu: choosing the kernel for a dtype and SIMD target (vector kernels in
// simd/, their tables in simd_kernel.cc, the scalar definition in
// scalar_kernel.h).
#include "ops/hardsigmoid/kernel.h"

#include "ops/hardsigmoid/scalar_kernel.h"
#include "ops/hardsigmoid/simd_kernel.h"

namespace aclcpu {
namespace hardsigmoid {

RunFn SelectScalarKernel(aclDataType dtype) {
  return WithSelfType<RunFn>(dtype, [](auto type) -> RunFn { return &ScalarRun<decltype(type)>; });
}

RunFn SelectKernel(aclDataType dtype, int64_t target) {
  const auto selector = ForTarget(kVectorKernelSelectors, target);
  return selector != nullptr ? selector(dtype) : nullptr;
}

RunFn SelectStreamingKernel(aclDataType dtype, int64_t target) {
  const auto selector = ForTarget(kStreamingKernelSelectors, target);
  return selector != nullptr ? selector(dtype) : nullptr;
}

TileFn SelectTileKernel(aclDataType dtype, int64_t target) {
  const auto selector = ForTarget(kTileKernelSelectors, target);
  return selector != nullptr ? selector(dtype) : nullptr;
}

}  // namespace hardsigmoid
}  // namespace aclcpu
