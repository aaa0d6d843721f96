// aclcpu: keeping an input's load out of the masked instruction that uses it.
//
// Why: on the AVX-512 targets a select such as IfThenElseZero(inside,
// Mul(grad, k)) compiles to one masked multiply, and when grad comes straight
// from memory the compiler folds its load into it (vmulps (mem), zmm, zmm{k1}{z}).
// A masked memory operand is read only once its mask is known, and that mask
// is the other input's comparison: grad's load waits for self's to arrive.
// From DRAM that chains two independent cache misses a vector. Measured on the
// backward op's float32 streaming kernel, 16M elements, one core of an AMD
// Zen 5 VM, all targets in one process, interleaved: AVX-512 23.6 GB/s against
// AVX2's 30.7 (AVX2's blend has no masked operand, so its loads are
// unconditional), and the same gap with 256-bit vectors on the AVX-512 target
// (36 vs 59 GB/s in another run): not the vector width. Passing the loaded
// vector through an empty asm statement makes the compiler keep it in a
// register, so its load stays an ordinary one that the core issues as early as
// it likes; the statement itself emits no instruction.
//
// Per-target include guard (Highway's convention for -inl.h files): this header
// is re-included once per target by foreach_target.h.
#if defined(ACLCPU_SIMD_UNMASKED_LOAD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef ACLCPU_SIMD_UNMASKED_LOAD_INL_H_
#undef ACLCPU_SIMD_UNMASKED_LOAD_INL_H_
#else
#define ACLCPU_SIMD_UNMASKED_LOAD_INL_H_
#endif

#include "hwy/highway.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu {
namespace HWY_NAMESPACE {

// `loaded` (a vector just loaded), which the compiler may no longer fold into
// a masked instruction. Only the x86 AVX-512 targets have masked memory
// operands; elsewhere this is the identity.
template <class V>
HWY_INLINE V KeepLoadUnmasked(V loaded) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3 && (HWY_COMPILER_GCC || HWY_COMPILER_CLANG)
  __asm__("" : "+v"(loaded.raw));
#endif
  return loaded;
}

}  // namespace HWY_NAMESPACE
}  // namespace aclcpu
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
