// aclcpu: the vector kernels of float32 gradients, for every SIMD target (see
// kernels-inl.h; one translation unit per grad dtype).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "ops/hardsigmoid_backward/simd/grad_f32.cc"
#include "hwy/foreach_target.h"  // IWYU pragma: keep

#include "hwy/highway.h"
#include "ops/hardsigmoid_backward/simd/kernels-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace hardsigmoid_backward {
namespace HWY_NAMESPACE {
ACLCPU_DEFINE_KERNELS_FOR_GRAD(F32)
}  // namespace HWY_NAMESPACE
}  // namespace hardsigmoid_backward
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();
