// aclcpu: which SIMD target the kernels run on.
//
// Kernels are compiled by Highway for every target of the platform. At run time
// we use the best target the CPU supports, capped by ACLCPU_MAX_ISA (like
// PyTorch's ATEN_CPU_CAPABILITY or oneDNN's ONEDNN_MAX_CPU_ISA). Targets are
// Highway's target bits: a lower bit is a better target.
#ifndef ACLCPU_SIMD_TARGETS_H_
#define ACLCPU_SIMD_TARGETS_H_

#include <cstdint>
#include <vector>

#include "hwy/targets.h"

namespace aclcpu {

// One compiled target's implementation of a function.
template <typename Fn>
struct TargetEntry {
  int64_t target;
  Fn fn;
};

// A function's implementations for every compiled target, best first.
template <typename Fn>
using TargetTable = std::vector<TargetEntry<Fn>>;

// The implementation for `target`, or nullptr if it was not compiled.
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
// namespace that holds its HWY_NAMESPACE.
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
#define ACLCPU_FOR_EACH_COMPILED_TARGET(FN)                                                                \
  ACLCPU_TARGET_AVX3_DL(FN) ACLCPU_TARGET_AVX3(FN) ACLCPU_TARGET_AVX2(FN) ACLCPU_TARGET_SSE4(FN)           \
  ACLCPU_TARGET_SSSE3(FN) ACLCPU_TARGET_SVE2_128(FN) ACLCPU_TARGET_SVE_256(FN) ACLCPU_TARGET_SVE2(FN)      \
  ACLCPU_TARGET_SVE(FN) ACLCPU_TARGET_NEON(FN) ACLCPU_TARGET_EMU128(FN) ACLCPU_TARGET_SCALAR(FN)

#endif  // ACLCPU_SIMD_TARGETS_H_
