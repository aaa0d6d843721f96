// aclnnHardsigmoidBackward against PyTorch, bit for bit, for every combination
// of input and output dtypes, plus the exhaustive f16/bf16 sweeps and one test
// per clause of the definition
//   out = (-3 < self < 3) ? gradOutput * (1.0f/6.0f) : +0.0f
// All expected values come from tests/golden/data (made by make_golden.py);
// none is written here.
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "golden_file.h"
#include "golden_run.h"

namespace aclcpu_test {
namespace {

const aclDataType kInputDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
const aclDataType kOutDtypes[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

std::string CombinationFile(aclDataType grad, aclDataType self, aclDataType out) {
  return std::string("grad_") + GoldenDtypeName(grad) + "_self_" + GoldenDtypeName(self) + "_out_" +
         GoldenDtypeName(out);
}

std::vector<GoldenFile> AllCombinations() {
  std::vector<GoldenFile> files;
  for (aclDataType grad : kInputDtypes) {
    for (aclDataType self : kInputDtypes) {
      for (aclDataType out : kOutDtypes) files.push_back(GoldenFile::Load(CombinationFile(grad, self, out)));
    }
  }
  return files;
}

// Whole golden file through contiguous 1-D tensors.
void ExpectFileMatchesPyTorch(const std::string& file_name) {
  const GoldenFile golden = GoldenFile::Load(file_name);
  ASSERT_GT(golden.count(), 0u);
  EXPECT_TRUE(RunOnGoldenContiguous(golden, golden.AllIndices(), {static_cast<int64_t>(golden.count())}));
}

#define ACLCPU_NUMERICS_TEST(G, S, O, grad, self, out)                          \
  TEST(Numerics, Grad##G##Self##S##Out##O##MatchesPyTorch) {                  \
    ExpectFileMatchesPyTorch("grad_" #grad "_self_" #self "_out_" #out);       \
  }

ACLCPU_NUMERICS_TEST(F32, F32, F32, f32, f32, f32)
ACLCPU_NUMERICS_TEST(F32, F32, F16, f32, f32, f16)
ACLCPU_NUMERICS_TEST(F32, F32, Bf16, f32, f32, bf16)
ACLCPU_NUMERICS_TEST(F32, F32, F64, f32, f32, f64)
ACLCPU_NUMERICS_TEST(F32, F16, F32, f32, f16, f32)
ACLCPU_NUMERICS_TEST(F32, F16, F16, f32, f16, f16)
ACLCPU_NUMERICS_TEST(F32, F16, Bf16, f32, f16, bf16)
ACLCPU_NUMERICS_TEST(F32, F16, F64, f32, f16, f64)
ACLCPU_NUMERICS_TEST(F32, Bf16, F32, f32, bf16, f32)
ACLCPU_NUMERICS_TEST(F32, Bf16, F16, f32, bf16, f16)
ACLCPU_NUMERICS_TEST(F32, Bf16, Bf16, f32, bf16, bf16)
ACLCPU_NUMERICS_TEST(F32, Bf16, F64, f32, bf16, f64)
ACLCPU_NUMERICS_TEST(F16, F32, F32, f16, f32, f32)
ACLCPU_NUMERICS_TEST(F16, F32, F16, f16, f32, f16)
ACLCPU_NUMERICS_TEST(F16, F32, Bf16, f16, f32, bf16)
ACLCPU_NUMERICS_TEST(F16, F32, F64, f16, f32, f64)
ACLCPU_NUMERICS_TEST(F16, F16, F32, f16, f16, f32)
ACLCPU_NUMERICS_TEST(F16, F16, F16, f16, f16, f16)
ACLCPU_NUMERICS_TEST(F16, F16, Bf16, f16, f16, bf16)
ACLCPU_NUMERICS_TEST(F16, F16, F64, f16, f16, f64)
ACLCPU_NUMERICS_TEST(F16, Bf16, F32, f16, bf16, f32)
ACLCPU_NUMERICS_TEST(F16, Bf16, F16, f16, bf16, f16)
ACLCPU_NUMERICS_TEST(F16, Bf16, Bf16, f16, bf16, bf16)
ACLCPU_NUMERICS_TEST(F16, Bf16, F64, f16, bf16, f64)
ACLCPU_NUMERICS_TEST(Bf16, F32, F32, bf16, f32, f32)
ACLCPU_NUMERICS_TEST(Bf16, F32, F16, bf16, f32, f16)
ACLCPU_NUMERICS_TEST(Bf16, F32, Bf16, bf16, f32, bf16)
ACLCPU_NUMERICS_TEST(Bf16, F32, F64, bf16, f32, f64)
ACLCPU_NUMERICS_TEST(Bf16, F16, F32, bf16, f16, f32)
ACLCPU_NUMERICS_TEST(Bf16, F16, F16, bf16, f16, f16)
ACLCPU_NUMERICS_TEST(Bf16, F16, Bf16, bf16, f16, bf16)
ACLCPU_NUMERICS_TEST(Bf16, F16, F64, bf16, f16, f64)
ACLCPU_NUMERICS_TEST(Bf16, Bf16, F32, bf16, bf16, f32)
ACLCPU_NUMERICS_TEST(Bf16, Bf16, F16, bf16, bf16, f16)
ACLCPU_NUMERICS_TEST(Bf16, Bf16, Bf16, bf16, bf16, bf16)
ACLCPU_NUMERICS_TEST(Bf16, Bf16, F64, bf16, bf16, f64)

#undef ACLCPU_NUMERICS_TEST

// Every f16 / bf16 bit pattern as self (with permuted grads), then every bit
// pattern as grad (with selfs inside (-3, 3)).
TEST(Numerics, ExhaustiveF16MatchesPyTorch) { ExpectFileMatchesPyTorch("exhaustive_f16"); }
TEST(Numerics, ExhaustiveBf16MatchesPyTorch) { ExpectFileMatchesPyTorch("exhaustive_bf16"); }

// ---------------------------------------------------------------------------------------
// The clauses of the definition. Each test picks, in every one of the 36
// combination files, the golden elements whose inputs exercise the clause,
// confirms that PyTorch's values there really show the clause (so the test
// cannot silently test nothing), and runs just those elements through the op.

bool SelfInRange(const GoldenFile& golden, size_t i) {
  const double self = golden.SelfValue(i);
  return -3.0 < self && self < 3.0;  // false for NaN
}

bool ExpectedIsPositiveZero(const GoldenFile& golden, size_t i) {
  return golden.ExpectedValue(i) == 0.0 && !std::signbit(golden.ExpectedValue(i));
}

// Runs `predicate`'s elements of every combination; `clause_holds` must be true
// of PyTorch's value for each selected element.
// `applies` leaves out combinations in which the clause cannot occur.
void ExpectClauseInEveryCombination(const std::function<bool(const GoldenFile&, size_t)>& predicate,
                                    const std::function<bool(const GoldenFile&, size_t)>& clause_holds,
                                    const std::function<bool(const GoldenFile&)>& applies = nullptr) {
  for (const GoldenFile& golden : AllCombinations()) {
    if (applies && !applies(golden)) continue;
    SCOPED_TRACE(golden.name());
    const std::vector<size_t> selected = golden.Select(predicate);
    ASSERT_FALSE(selected.empty()) << "the golden data has no element for this clause";
    for (size_t i : selected) ASSERT_TRUE(clause_holds(golden, i)) << "PyTorch disagrees: " << golden.DescribeInputs(i);
    EXPECT_TRUE(RunOnGoldenContiguous(golden, selected, {static_cast<int64_t>(selected.size())}));
  }
}

TEST(NumericsClauses, SelfAtPlusOrMinusThreeGivesPositiveZero) {
  ExpectClauseInEveryCombination(
      [](const GoldenFile& g, size_t i) { return std::fabs(g.SelfValue(i)) == 3.0; }, ExpectedIsPositiveZero);
}

// The representable value next to ±3 on the inside of the interval, in the
// self dtype: 3 - ulp, where the ulp on [2, 4) is 2^(1 - mantissa bits).
double JustInsideThree(aclDataType self_dtype) {
  const int mantissa_bits = self_dtype == ACL_FLOAT ? 23 : self_dtype == ACL_FLOAT16 ? 10 : 7;
  return 3.0 - std::ldexp(1.0, 1 - mantissa_bits);
}

TEST(NumericsClauses, SelfJustInsideThreeGivesGradTimesOneSixth) {
  // The gradient passes: wherever grad is a finite non-zero normal number of
  // moderate size, PyTorch's result is non-zero and has grad's sign.
  ExpectClauseInEveryCombination(
      [](const GoldenFile& g, size_t i) { return std::fabs(g.SelfValue(i)) == JustInsideThree(g.self_dtype()); },
      [](const GoldenFile& g, size_t i) {
        const double grad = g.GradValue(i);
        if (!(std::fabs(grad) >= 1e-3 && std::fabs(grad) <= 1e3)) return true;
        return g.ExpectedValue(i) != 0.0 && std::signbit(g.ExpectedValue(i)) == std::signbit(grad);
      });
}

TEST(NumericsClauses, NanSelfGivesPositiveZero) {
  ExpectClauseInEveryCombination([](const GoldenFile& g, size_t i) { return std::isnan(g.SelfValue(i)); },
                                 ExpectedIsPositiveZero);
}

TEST(NumericsClauses, InfiniteSelfGivesPositiveZero) {
  ExpectClauseInEveryCombination([](const GoldenFile& g, size_t i) { return std::isinf(g.SelfValue(i)); },
                                 ExpectedIsPositiveZero);
}

TEST(NumericsClauses, NanGradWithSelfInRangeGivesNan) {
  // Any NaN is accepted: PyTorch's vector and scalar paths disagree on payloads.
  ExpectClauseInEveryCombination(
      [](const GoldenFile& g, size_t i) { return std::isnan(g.GradValue(i)) && SelfInRange(g, i); },
      [](const GoldenFile& g, size_t i) { return std::isnan(g.ExpectedValue(i)); });
}

TEST(NumericsClauses, InfiniteGradWithSelfOutOfRangeGivesPositiveZero) {
  // A select, not a multiplication by a 0/1 mask (which would give NaN).
  ExpectClauseInEveryCombination(
      [](const GoldenFile& g, size_t i) { return std::isinf(g.GradValue(i)) && !SelfInRange(g, i); },
      ExpectedIsPositiveZero);
}

TEST(NumericsClauses, NanGradWithSelfOutOfRangeGivesPositiveZero) {
  ExpectClauseInEveryCombination(
      [](const GoldenFile& g, size_t i) { return std::isnan(g.GradValue(i)) && !SelfInRange(g, i); },
      ExpectedIsPositiveZero);
}

TEST(NumericsClauses, InfiniteGradWithSelfInRangeGivesInfinity) {
  ExpectClauseInEveryCombination(
      [](const GoldenFile& g, size_t i) { return std::isinf(g.GradValue(i)) && SelfInRange(g, i); },
      [](const GoldenFile& g, size_t i) {
        return std::isinf(g.ExpectedValue(i)) && std::signbit(g.ExpectedValue(i)) == std::signbit(g.GradValue(i));
      });
}

TEST(NumericsClauses, NegativeZeroGradWithSelfInRangeGivesNegativeZero) {
  ExpectClauseInEveryCombination(
      [](const GoldenFile& g, size_t i) {
        return g.GradValue(i) == 0.0 && std::signbit(g.GradValue(i)) && SelfInRange(g, i);
      },
      [](const GoldenFile& g, size_t i) { return g.ExpectedValue(i) == 0.0 && std::signbit(g.ExpectedValue(i)); });
}

TEST(NumericsClauses, NegativeGradWithSelfOutOfRangeGivesPositiveZero) {
  ExpectClauseInEveryCombination(
      [](const GoldenFile& g, size_t i) { return std::signbit(g.GradValue(i)) && !SelfInRange(g, i); },
      ExpectedIsPositiveZero);
}

// Smallest subnormal magnitude of a floating dtype.
double MinSubnormal(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT16: return std::ldexp(1.0, -24);
    case ACL_BF16: return std::ldexp(1.0, -133);
    case ACL_DOUBLE: return std::ldexp(1.0, -1074);
    default: return std::ldexp(1.0, -149);
  }
}

// Smallest normal magnitude of a floating dtype.
double MinNormal(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT16: return std::ldexp(1.0, -14);
    case ACL_DOUBLE: return std::ldexp(1.0, -1022);
    default: return std::ldexp(1.0, -126);  // f32 and bf16 share the exponent range
  }
}

// The promoted dtype CANN documents (cann-api.md §2.4).
aclDataType Promoted(aclDataType grad, aclDataType self) { return grad == self ? grad : ACL_FLOAT; }

TEST(NumericsClauses, SubnormalResultsAreKept) {
  // Results that are subnormal in the promoted or in the out dtype (an f64 out
  // shows the promoted type's subnormals exactly); the golden data has grads
  // chosen so that grad / 6 lands there. Flushing them to zero fails here.
  // An f16 grad cannot produce one in f32 (its smallest non-zero / 6 is far
  // above FLT_MIN), so combinations where no grad can are left out.
  const auto subnormal_threshold = [](const GoldenFile& g) {
    return std::max(MinNormal(Promoted(g.grad_dtype(), g.self_dtype())), MinNormal(g.out_dtype()));
  };
  ExpectClauseInEveryCombination(
      [&](const GoldenFile& g, size_t i) {
        const double magnitude = std::fabs(g.ExpectedValue(i));
        return magnitude > 0.0 && magnitude < subnormal_threshold(g);
      },
      [](const GoldenFile& g, size_t i) { return SelfInRange(g, i); },
      [&](const GoldenFile& g) { return MinSubnormal(g.grad_dtype()) / 6.0 < subnormal_threshold(g); });
}

}  // namespace
}  // namespace aclcpu_test
