// aclcpu: the seam between the kernel tables (simd_kernel.cc) and the kernels,
// which are compiled in one translation unit per grad dtype (grad_f32.cc,
// grad_f16.cc, grad_bf16.cc): each defines these for its own dtype only, so the
// tables call them without instantiating any kernel themselves.
//
// Per-target include guard (Highway's convention for -inl.h files): this header
// is re-included once per target by foreach_target.h.
#if defined(ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_SELECT_BY_GRAD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_SELECT_BY_GRAD_INL_H_
#undef ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_SELECT_BY_GRAD_INL_H_
#else
#define ACLCPU_OPS_HARDSIGMOID_BACKWARD_SIMD_SELECT_BY_GRAD_INL_H_
#endif

#include "acl/acl_base.h"
#include "hwy/highway.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "simd/targets.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid_backward {
namespace HWY_NAMESPACE {

// This target's kernel of a grad dtype Grad (F32, F16 or Bf16) for the rest of
// the path; nullptr if the path has none (see kernel.h). Defined in
// kernels-inl.h, instantiated once by ACLCPU_DEFINE_KERNELS_FOR_GRAD.
template <class Grad>
HardsigmoidBackwardRunFn SelectVectorKernelForGrad(aclDataType self, aclDataType promoted, aclDataType out);
template <class Grad>
HardsigmoidBackwardRunFn SelectStreamingKernelForGrad(aclDataType self, aclDataType promoted, aclDataType out);
template <class Grad>
HardsigmoidBackwardTileFn SelectTileKernelForGrad(aclDataType self, aclDataType promoted, aclDataType out);

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_BF16_TARGET
// The all-bf16 kernels of the avx512_bf16 target (grad_bf16.cc).
void VectorRunWithBf16Instructions(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                   void* out, int64_t out_stride, int64_t count);
void StreamingRunWithBf16Instructions(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                      void* out, int64_t out_stride, int64_t count);
#endif

#if HWY_TARGET == HWY_AVX3 && ACLCPU_HAVE_AVX512_FP16_TARGET
// The all-f16 kernels of the avx512_fp16 target (grad_f16.cc).
void VectorRunWithFp16Instructions(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                   void* out, int64_t out_stride, int64_t count);
void StreamingRunWithFp16Instructions(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                      void* out, int64_t out_stride, int64_t count);
// And its all-bf16 kernels (grad_bf16.cc).
void VectorRunWithMantissaTable(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                void* out, int64_t out_stride, int64_t count);
void StreamingRunWithMantissaTable(const void* grad, int64_t grad_stride, const void* self, int64_t self_stride,
                                   void* out, int64_t out_stride, int64_t count);
#endif

}  // namespace HWY_NAMESPACE
}  // namespace hardsigmoid_backward
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

// The definitions of one grad dtype's selectors, in its translation unit.
#ifndef ACLCPU_DEFINE_KERNELS_FOR_GRAD
#define ACLCPU_DEFINE_KERNELS_FOR_GRAD(Grad)                                                                         \
  template HardsigmoidBackwardRunFn SelectVectorKernelForGrad<Grad>(aclDataType, aclDataType, aclDataType);    \
  template HardsigmoidBackwardRunFn SelectStreamingKernelForGrad<Grad>(aclDataType, aclDataType, aclDataType); \
  template HardsigmoidBackwardTileFn SelectTileKernelForGrad<Grad>(aclDataType, aclDataType, aclDataType);
#endif

#endif  // per-target include guard
