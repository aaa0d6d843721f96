// aclcpu: the hardsigmoid-backward kernels — pure functions of pointers, a
// count, strides and constants. The dtype path and SIMD target are chosen once,
// in phase 1, by picking a function here.
#ifndef ACLCPU_OPS_HARDSIGMOID_BACKWARD_KERNEL_H_
#define ACLCPU_OPS_HARDSIGMOID_BACKWARD_KERNEL_H_

#include <cstdint>

#include "acl/acl_base.h"

namespace aclcpu {

// One run of `count` elements: out[i*out_stride] = f(grad[i*grad_stride], self[i*self_stride]).
// Strides are in elements and may be zero (inputs only) or any positive value.
using HardsigmoidBackwardRunFn = void (*)(const void* grad, int64_t grad_stride, const void* self,
                                          int64_t self_stride, void* out, int64_t out_stride, int64_t count);

// A two-dimensional block of size0 x size1 elements: element (i, j) of operand
// X is at X + i*X_stride0 + j*X_stride1 (strides in elements, any value, inputs
// may be zero). For transposed views: it reads the inputs along dim 1 (their
// contiguous dim) and writes out along dim 0, so neither side walks across
// cache lines element by element (see TileRun in simd/kernels-inl.h).
// `stream`: out's aligned vectors are stored non-temporally (huge launches);
// the caller fences them (hwy::FlushStream) before the results are read.
using HardsigmoidBackwardTileFn = void (*)(const void* grad, int64_t grad_stride0, int64_t grad_stride1,
                                           const void* self, int64_t self_stride0, int64_t self_stride1, void* out,
                                           int64_t out_stride0, int64_t out_stride1, int64_t size0, int64_t size1,
                                           bool stream);

// The kernel for inputs (grad, self), computed in `promoted` and stored as `out`,
// on SIMD target `target` (a Highway target bit; see simd/targets.h). grad, self
// and promoted are FLOAT, FLOAT16 or BF16 and out one of those or DOUBLE; returns
// nullptr for any other combination or a target that was not compiled.
HardsigmoidBackwardRunFn SelectKernel(aclDataType grad, aclDataType self, aclDataType promoted, aclDataType out,
                                      int64_t target);

// The same with non-temporal stores for outputs far larger than the last-level
// cache; nullptr for paths that have no such variant (double outputs).
HardsigmoidBackwardRunFn SelectStreamingKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                               aclDataType out, int64_t target);

// The two-dimensional block kernel of the same path (see HardsigmoidBackwardTileFn).
HardsigmoidBackwardTileFn SelectTileKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                           aclDataType out, int64_t target);

// The scalar definition of the same path: the reference every target is tested
// against.
HardsigmoidBackwardRunFn SelectScalarKernel(aclDataType grad, aclDataType self, aclDataType promoted,
                                            aclDataType out);

}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_BACKWARD_KERNEL_H_
