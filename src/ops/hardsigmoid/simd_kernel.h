// aclcpu: the per-target tables of hardsigmoid's vector kernel selectors
// (simd_kernel.cc).
#ifndef ACLCPU_OPS_HARDSIGMOID_SIMD_KERNEL_H_
#define ACLCPU_OPS_HARDSIGMOID_SIMD_KERNEL_H_

#include "ops/hardsigmoid/kernel.h"
#include "simd/targets.h"

namespace aclcpu {
namespace hardsigmoid {

// Picks one target's kernel for a dtype (nullptr if it has none).
using KernelSelector = RunFn (*)(aclDataType dtype);

extern const TargetTable<KernelSelector> kVectorKernelSelectors;
extern const TargetTable<KernelSelector> kStreamingKernelSelectors;

// Two-dimensional block kernels (transposed views).
using TileKernelSelector = TileFn (*)(aclDataType dtype);
extern const TargetTable<TileKernelSelector> kTileKernelSelectors;

}  // namespace hardsigmoid
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_SIMD_KERNEL_H_
