#include "simd/targets.h"

#include <cstdio>
#include <cstring>
#include <strings.h>

#include "common/env.h"
#include "hwy/detect_targets.h"

#if ACLCPU_HAVE_AVX512_BF16_TARGET
#include <cpuid.h>
#endif

namespace aclcpu {
namespace {

struct NamedTarget {
  int64_t target;
  const char* name;
};

constexpr NamedTarget kTargetNames[] = {
    {kAvx512Fp16Target, "avx512_fp16"},
    {kAvx512Bf16Target, "avx512_bf16"},
    {HWY_AVX3_DL, "avx512_dl"},
    {HWY_AVX3, "avx512"},
    {HWY_AVX2, "avx2"},
    {HWY_SSE4, "sse4"},
    {HWY_SSSE3, "ssse3"},
    {HWY_SVE2_128, "sve2_128"},
    {HWY_SVE_256, "sve_256"},
    {HWY_SVE2, "sve2"},
    {HWY_SVE, "sve"},
    {HWY_NEON, "neon"},
    {HWY_EMU128, "emu128"},
    {HWY_SCALAR, "scalar"},
};

// The lowest target bit ACLCPU_MAX_ISA allows (targets with smaller bits are
// better and excluded), or 0 when unset.
int64_t MaxIsaCap() {
  const char* requested = GetEnv("ACLCPU_MAX_ISA");
  if (requested == nullptr) return 0;
  for (const NamedTarget& named : kTargetNames) {
    if (strcasecmp(named.name, requested) == 0) return named.target;
  }
  std::fprintf(stderr, "aclcpu: ignoring ACLCPU_MAX_ISA=%s: not a target name (", requested);
  for (const NamedTarget& named : kTargetNames) std::fprintf(stderr, " %s", named.name);
  std::fprintf(stderr, " )\n");
  return 0;
}

#if ACLCPU_HAVE_AVX512_BF16_TARGET
enum class CpuidRegister { kEax, kEbx, kEcx, kEdx };

// Whether CPUID leaf `leaf`, sub-leaf `subleaf` sets `bit` of `reg`.
bool CpuidBit(unsigned leaf, unsigned subleaf, CpuidRegister reg, int bit) {
  unsigned registers[4] = {0, 0, 0, 0};
  if (__get_cpuid_count(leaf, subleaf, &registers[0], &registers[1], &registers[2], &registers[3]) == 0) {
    return false;
  }
  return ((registers[static_cast<int>(reg)] >> bit) & 1u) != 0;
}
#endif

// Whether the CPU has AVX512_BF16 (CPUID leaf 7, sub-leaf 1, EAX bit 5). The
// OS support for AVX-512 state is part of Highway's AVX3 check.
bool CpuHasAvx512Bf16() {
#if ACLCPU_HAVE_AVX512_BF16_TARGET
  return CpuidBit(7, 1, CpuidRegister::kEax, 5);
#else
  return false;
#endif
}

// Whether the CPU has AVX512_FP16 (CPUID leaf 7, sub-leaf 0, EDX bit 23) and
// AVX512_VBMI (the same leaf, ECX bit 1), both used by the avx512_fp16 target.
bool CpuHasAvx512Fp16AndVbmi() {
#if ACLCPU_HAVE_AVX512_FP16_TARGET
  return CpuidBit(7, 0, CpuidRegister::kEdx, 23) && CpuidBit(7, 0, CpuidRegister::kEcx, 1);
#else
  return false;
#endif
}

// The targets compiled in that this CPU supports, one bit each (Highway's
// order: a smaller bit is a better target). Allocates nothing: ChosenTarget
// runs inside phase 1, which must not throw when memory has run out.
int64_t AvailableTargetBits() {
  int64_t available = hwy::SupportedTargets() & HWY_TARGETS;
  if ((available & HWY_AVX3) && CpuHasAvx512Bf16()) {
    available |= kAvx512Bf16Target;
    if (CpuHasAvx512Fp16AndVbmi()) available |= kAvx512Fp16Target;
  }
  return available;
}

}  // namespace

std::vector<int64_t> AvailableTargets() {
  std::vector<int64_t> targets;
  const int64_t available = AvailableTargetBits();
  for (int bit = 0; bit < 63; ++bit) {
    const int64_t target = int64_t{1} << bit;
    if (available & target) targets.push_back(target);
  }
  return targets;
}

int64_t ChosenTarget() {
  static const int64_t chosen = [] {
    const int64_t cap = MaxIsaCap();
    const int64_t available = AvailableTargetBits();
    int64_t worst = 0;  // when the cap excludes every target, the least of them
    for (int bit = 0; bit < 63; ++bit) {
      const int64_t target = int64_t{1} << bit;
      if ((available & target) == 0) continue;
      if (target >= cap) return target;
      worst = target;
    }
    return worst;
  }();
  return chosen;
}

const char* TargetName(int64_t target) {
  for (const NamedTarget& named : kTargetNames) {
    if (named.target == target) return named.name;
  }
  return "unknown";
}

}  // namespace aclcpu
