// aclcpu: keeping the kernels' element-by-element loops scalar.
//
// Why: to a compiler's auto-vectoriser, a loop that reads or writes memory with
// a run-time stride (p[i * stride]) is a gather or a scatter. GCC turns such
// loops into SVE gather loads and scatter stores (LD1W {z0.s}, p0/z, [x0,
// z1.s, sxtw #2] and kin) when they are compiled for an SVE target, and may
// pick AVX2/AVX-512 VPGATHERDD under some tunings. Those instructions are
// microcoded, and slow on many CPUs (see simd/transpose-inl.h), slower than the
// scalar loop they replace. Passing one value of each element through an empty
// asm statement makes the loop impossible to vectorise and costs nothing: the
// statement emits no instruction, but the compiler must assume it changes the
// value, so it cannot treat several elements as one vector. The value stays in
// the register file it lives in (an SSE or Neon/SVE register for floats).
//
// tests/abi/check_hot_path_instructions.sh checks the built library for gathers and
// scatters.
#ifndef ACLCPU_SIMD_KEEP_SCALAR_H_
#define ACLCPU_SIMD_KEEP_SCALAR_H_

#include <type_traits>

namespace aclcpu {

template <typename T>
inline T KeepScalar(T value) {
#if defined(__GNUC__)  // GCC and Clang
  if constexpr (std::is_floating_point_v<T>) {
#if defined(__SSE2__)
    __asm__("" : "+x"(value));
#elif defined(__aarch64__)
    __asm__("" : "+w"(value));
#else
    __asm__("" : "+m"(value));
#endif
  } else {
    __asm__("" : "+r"(value));
  }
#endif
  return value;
}

}  // namespace aclcpu

#endif  // ACLCPU_SIMD_KEEP_SCALAR_H_
