// aclcpu: which SIMD target the kernels run on.
//
// Kernels are compiled by Highway for every target of the platform. At run time
// we use the best target the CPU supports, capped by ACLCPU_MAX_ISA (like
// PyTorch's ATEN_CPU_CAPABILITY or oneDNN's ONEDNN_MAX_CPU_ISA). Targets are
// Highway's target bits: a lower bit is a better target; plus one of ours,
// kAvx512Bf16Target, below.
#ifndef ACLCPU_SIMD_TARGETS_H_
#define ACLCPU_SIMD_TARGETS_H_

#include <cstdint>
#include <vector>

#include "hwy/targets.h"

// Whether aclcpu has the avx512_bf16 target (x86-64 with a compiler whose
// assembler knows the AVX512_BF16 instructions, simd/bf16_instruction-inl.h,
// and Highway's AVX-512 target compiled).
#if HWY_ARCH_X86_64 && (HWY_TARGETS & HWY_AVX3) && (HWY_COMPILER_GCC_ACTUAL >= 1000 || HWY_COMPILER_CLANG >= 900)
#define ACLCPU_HAVE_AVX512_BF16_TARGET 1
#else
#define ACLCPU_HAVE_AVX512_BF16_TARGET 0
#endif

// Whether aclcpu has the avx512_fp16 target (the same, built by GCC 12 or
// later, whose AVX512_FP16 intrinsics work in a function compiled for that
// target alone. Clang 14's do not: it declares them, and _Float16, only when the
// whole unit is compiled for AVX512_FP16. Later Clangs are untested, so left out).
#if ACLCPU_HAVE_AVX512_BF16_TARGET && HWY_COMPILER_GCC_ACTUAL >= 1200
#define ACLCPU_HAVE_AVX512_FP16_TARGET 1
#else
#define ACLCPU_HAVE_AVX512_FP16_TARGET 0
#endif

namespace aclcpu {

// Our first target that is not Highway's (1.0.3 has none for it): AVX-512 plus the
// AVX512_BF16 conversion instructions (Zen 4, Cooper Lake, Sapphire Rapids).
// Everything runs Highway's AVX-512 code there except the bf16 kernels whose
// float32 -> bf16 narrowing uses VCVTNE2PS2BF16: the backward op's all-bf16
// kernel (ops/hardsigmoid_backward/simd/grad_bf16.cc) and the forward op's
// contiguous bf16 run (ops/hardsigmoid/simd/kernels-inl.h). A bit Highway 1.0.3 leaves
// unused on x86, just above (better than) AVX3_DL.
constexpr int64_t kAvx512Bf16Target = int64_t{1} << 6;

// And one above it: the avx512_bf16 target plus the AVX512_FP16 arithmetic and
// AVX512_VBMI's byte permutes (Sapphire Rapids and later Xeons; every CPU with
// AVX512_FP16 so far also has the other two, and we require all three). It adds
// an all-f16 kernel that computes in float16 lanes
// (ops/hardsigmoid_backward/simd/grad_f16.cc) and an all-bf16 kernel that reads
// the result off a table (grad_bf16.cc); everything else is AVX-512's.
constexpr int64_t kAvx512Fp16Target = int64_t{1} << 5;

// One compiled target's implementation of a function.
template <typename Fn>
struct TargetEntry {
  int64_t target;
  Fn fn;
};

// A function's implementations for every compiled target, best first.
template <typename Fn>
using TargetTable = std::vector<TargetEntry<Fn>>;

// The implementation for `target` (the first entry for it), or nullptr if it
// was not compiled.
template <typename Fn>
Fn ForTarget(const TargetTable<Fn>& table, int64_t target) {
  for (const TargetEntry<Fn>& entry : table) {
    if (entry.target == target) return entry.fn;
  }
  return nullptr;
}

// Targets compiled into aclcpu that this CPU supports, best first.
std::vector<int64_t> AvailableTargets();

// The target kernels use: the best available one not above ACLCPU_MAX_ISA.
// Read once per process.
int64_t ChosenTarget();

// Lower-case name ("avx512", "avx2", "sse4", "neon", "sve", "scalar", ...), the
// spelling ACLCPU_MAX_ISA accepts.
const char* TargetName(int64_t target);

}  // namespace aclcpu

// Expands to `{HWY_X, &N_X::FN},` for every target X foreach_target.h compiled,
// best first. Use in the HWY_ONCE part of a foreach_target source, inside the
// namespace that holds its HWY_NAMESPACE. The avx512_fp16 and avx512_bf16
// targets get Highway's AVX-512 function unless a table puts its own entry for
// them first (ForTarget takes the first match).
#if ACLCPU_HAVE_AVX512_FP16_TARGET
#define ACLCPU_TARGET_AVX512_FP16(FN) {::aclcpu::kAvx512Fp16Target, &N_AVX3::FN},
#else
#define ACLCPU_TARGET_AVX512_FP16(FN)
#endif
#if ACLCPU_HAVE_AVX512_BF16_TARGET
#define ACLCPU_TARGET_AVX512_BF16(FN) {::aclcpu::kAvx512Bf16Target, &N_AVX3::FN},
#else
#define ACLCPU_TARGET_AVX512_BF16(FN)
#endif
#if HWY_TARGETS & HWY_AVX3_DL
#define ACLCPU_TARGET_AVX3_DL(FN) {HWY_AVX3_DL, &N_AVX3_DL::FN},
#else
#define ACLCPU_TARGET_AVX3_DL(FN)
#endif
#if HWY_TARGETS & HWY_AVX3
#define ACLCPU_TARGET_AVX3(FN) {HWY_AVX3, &N_AVX3::FN},
#else
#define ACLCPU_TARGET_AVX3(FN)
#endif
#if HWY_TARGETS & HWY_AVX2
#define ACLCPU_TARGET_AVX2(FN) {HWY_AVX2, &N_AVX2::FN},
#else
#define ACLCPU_TARGET_AVX2(FN)
#endif
#if HWY_TARGETS & HWY_SSE4
#define ACLCPU_TARGET_SSE4(FN) {HWY_SSE4, &N_SSE4::FN},
#else
#define ACLCPU_TARGET_SSE4(FN)
#endif
#if HWY_TARGETS & HWY_SSSE3
#define ACLCPU_TARGET_SSSE3(FN) {HWY_SSSE3, &N_SSSE3::FN},
#else
#define ACLCPU_TARGET_SSSE3(FN)
#endif
#if HWY_TARGETS & HWY_SVE2_128
#define ACLCPU_TARGET_SVE2_128(FN) {HWY_SVE2_128, &N_SVE2_128::FN},
#else
#define ACLCPU_TARGET_SVE2_128(FN)
#endif
#if HWY_TARGETS & HWY_SVE_256
#define ACLCPU_TARGET_SVE_256(FN) {HWY_SVE_256, &N_SVE_256::FN},
#else
#define ACLCPU_TARGET_SVE_256(FN)
#endif
#if HWY_TARGETS & HWY_SVE2
#define ACLCPU_TARGET_SVE2(FN) {HWY_SVE2, &N_SVE2::FN},
#else
#define ACLCPU_TARGET_SVE2(FN)
#endif
#if HWY_TARGETS & HWY_SVE
#define ACLCPU_TARGET_SVE(FN) {HWY_SVE, &N_SVE::FN},
#else
#define ACLCPU_TARGET_SVE(FN)
#endif
#if HWY_TARGETS & HWY_NEON
#define ACLCPU_TARGET_NEON(FN) {HWY_NEON, &N_NEON::FN},
#else
#define ACLCPU_TARGET_NEON(FN)
#endif
#if HWY_TARGETS & HWY_EMU128
#define ACLCPU_TARGET_EMU128(FN) {HWY_EMU128, &N_EMU128::FN},
#else
#define ACLCPU_TARGET_EMU128(FN)
#endif
#if HWY_TARGETS & HWY_SCALAR
#define ACLCPU_TARGET_SCALAR(FN) {HWY_SCALAR, &N_SCALAR::FN},
#else
#define ACLCPU_TARGET_SCALAR(FN)
#endif
#define ACLCPU_FOR_EACH_COMPILED_TARGET(FN)                                                          \
  ACLCPU_TARGET_AVX512_FP16(FN)                                                                       \
  ACLCPU_TARGET_AVX512_BF16(FN) ACLCPU_TARGET_AVX3_DL(FN) ACLCPU_TARGET_AVX3(FN) ACLCPU_TARGET_AVX2(FN) \
  ACLCPU_TARGET_SSE4(FN) ACLCPU_TARGET_SSSE3(FN) ACLCPU_TARGET_SVE2_128(FN) ACLCPU_TARGET_SVE_256(FN)   \
  ACLCPU_TARGET_SVE2(FN) ACLCPU_TARGET_SVE(FN) ACLCPU_TARGET_NEON(FN) ACLCPU_TARGET_EMU128(FN)          \
  ACLCPU_TARGET_SCALAR(FN)

#endif  // ACLCPU_SIMD_TARGETS_H_
