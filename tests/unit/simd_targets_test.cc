// The SIMD target list: best first, each with a name of its own, and our
// own x86 targets offered only on top of the ones they build on (each runs
// Highway's AVX-512 code for everything it has no kernel of its own for).
#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "simd/targets.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace aclcpu {
namespace {

bool Has(const std::vector<int64_t>& targets, int64_t target) {
  return std::find(targets.begin(), targets.end(), target) != targets.end();
}

TEST(SimdTargets, AvailableTargetsAreBestFirstWithDistinctKnownNames) {
  const std::vector<int64_t> targets = AvailableTargets();
  ASSERT_FALSE(targets.empty());
  std::set<std::string> names;
  for (size_t i = 0; i < targets.size(); ++i) {
    if (i > 0) {
      EXPECT_LT(targets[i - 1], targets[i]) << "a lower bit is a better target";
    }
    const std::string name = TargetName(targets[i]);
    EXPECT_NE(name, "unknown");
    EXPECT_TRUE(names.insert(name).second) << name;
  }
}

TEST(SimdTargets, Avx512Fp16ComesOnlyWithAvx512Bf16AndAvx512) {
  const std::vector<int64_t> targets = AvailableTargets();
  if (Has(targets, kAvx512Fp16Target)) {
    EXPECT_TRUE(Has(targets, kAvx512Bf16Target));
  }
  if (Has(targets, kAvx512Bf16Target)) {
    EXPECT_TRUE(Has(targets, HWY_AVX3));
  }
  EXPECT_LT(kAvx512Fp16Target, kAvx512Bf16Target);
  EXPECT_LT(kAvx512Bf16Target, int64_t{HWY_AVX3_DL});
}

// Its all-f16 kernel needs AVX512_FP16 and its all-bf16 kernel AVX512_VBMI's
// byte permute: CPUID leaf 7, sub-leaf 0, EDX bit 23 and ECX bit 1.
TEST(SimdTargets, Avx512Fp16ComesOnlyOnCpusWithAvx512Fp16AndVbmi) {
  if (!Has(AvailableTargets(), kAvx512Fp16Target)) GTEST_SKIP() << "no avx512_fp16 target here";
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  ASSERT_NE(__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx), 0);
  EXPECT_TRUE((edx >> 23) & 1u) << "AVX512_FP16";
  EXPECT_TRUE((ecx >> 1) & 1u) << "AVX512_VBMI";
#else
  ADD_FAILURE() << "an x86 target on a CPU that is not x86-64";
#endif
}

TEST(SimdTargets, ChosenTargetIsTheBestAvailableWithoutACap) {
  if (std::getenv("ACLCPU_MAX_ISA") != nullptr) GTEST_SKIP() << "ACLCPU_MAX_ISA is set";
  EXPECT_EQ(ChosenTarget(), AvailableTargets().front());
}

}  // namespace
}  // namespace aclcpu
