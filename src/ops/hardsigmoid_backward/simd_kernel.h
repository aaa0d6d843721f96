// aclcpu: the per-target table of vector kernel selectors (simd_kernel.cc).
#ifndef ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_KERNEL_H_
#define ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_KERNEL_H_

#include "ops/hardsigmoid_backward/kernel.h"
#include "simd/targets.h"

namespace aclcpu {
namespace hardsigmoid_backward {

// Picks one target's kernel for a dtype path (nullptr if the path has none).
using VectorKernelSelector = HardsigmoidBackwardRunFn (*)(aclDataType grad, aclDataType self, aclDataType promoted,
                                                          aclDataType out);

extern const TargetTable<VectorKernelSelector> kVectorKernelSelectors;
// Variants with non-temporal stores, for outputs far beyond the last-level cache
// (float32 outputs only; nullptr for other paths).
extern const TargetTable<VectorKernelSelector> kStreamingKernelSelectors;

// Two-dimensional block kernels (transposed views).
using TileKernelSelector = HardsigmoidBackwardTileFn (*)(aclDataType grad, aclDataType self, aclDataType promoted,
                                                         aclDataType out);
extern const TargetTable<TileKernelSelector> kTileKernelSelectors;

}  // namespace hardsigmoid_backward
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_KERNEL_H_
