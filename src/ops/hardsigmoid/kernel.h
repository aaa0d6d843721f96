// aclcpu: the hardsigmoid kernels — pure functions of pointers, a count,
// strides and constants. The dtype path and SIMD target are chosen once, in
// phase 1, by picking a function here.
#ifndef ACLCPU_OPS_HARDSIGMOID_KERNEL_H_
#define ACLCPU_OPS_HARDSIGMOID_KERNEL_H_

#include <cstdint>

#include "acl/acl_base.h"

namespace aclcpu {
namespace hardsigmoid {

// One run of `count` elements: out[i*out_stride] = hardsigmoid(self[i*self_stride]),
// self and out of one dtype. Strides are in elements: self's may be zero, out's
// any positive value; out may be self itself (in place, equal strides).
using RunFn = void (*)(const void* self, int64_t self_stride, void* out, int64_t out_stride, int64_t count);

// A size0 x size1 plane: element (i, j) of self is at self + i*self_stride0 +
// j*self_stride1, of out at out + i*out_stride0 + j*out_stride1 (strides in
// elements; self's may be zero). For transposed views: it reads self along dim 1
// (its contiguous dim) and writes out along dim 0 in blocks (ops/shared/simd/
// transposed_tiles-inl.h), so neither side walks across cache lines element by
// element. `stream`: out's aligned vectors are stored non-temporally (huge
// launches); the caller fences them (hwy::FlushStream) before the results are
// read.
using TileFn = void (*)(const void* self, int64_t self_stride0, int64_t self_stride1, void* out,
                        int64_t out_stride0, int64_t out_stride1, int64_t size0, int64_t size1, bool stream);

// The kernel for `dtype` (FLOAT, FLOAT16, BF16 or INT32) on SIMD target `target`
// (a Highway target bit; see simd/targets.h); nullptr for any other dtype or a
// target that was not compiled.
RunFn SelectKernel(aclDataType dtype, int64_t target);

// The same with non-temporal stores, for outputs far larger than the last-level
// cache (contiguous runs; other runs take the ordinary kernel).
RunFn SelectStreamingKernel(aclDataType dtype, int64_t target);

// The two-dimensional block kernel for `dtype` on `target` (see TileFn).
TileFn SelectTileKernel(aclDataType dtype, int64_t target);

// The scalar definition: the reference every target is tested against.
RunFn SelectScalarKernel(aclDataType dtype);

}  // namespace hardsigmoid
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_KERNEL_H_
