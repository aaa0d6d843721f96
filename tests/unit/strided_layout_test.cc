// The stride iterator: coalescing decisions, and that every element of every
// operand is visited exactly once at the right offset, against a naive odometer.
#include <algorithm>
#include <set>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

#include "iter/strided_layout.h"

namespace aclcpu {
namespace {

struct View {
  std::vector<int64_t> sizes;                 // outermost first
  std::vector<std::vector<int64_t>> strides;  // per operand, outermost first
};

StridedLayout Layout(const View& view) {
  std::vector<const int64_t*> strides;
  for (const auto& s : view.strides) strides.push_back(s.data());
  return MakeStridedLayout(static_cast<int>(view.sizes.size()), view.sizes.data(),
                           static_cast<int>(view.strides.size()), strides.data());
}

// (offset of operand 0, operand 1, operand 2) for every logical element, in any order.
std::multiset<std::vector<int64_t>> NaiveOffsets(const View& view) {
  std::multiset<std::vector<int64_t>> result;
  std::vector<int64_t> index(view.sizes.size(), 0);
  const int64_t total = std::accumulate(view.sizes.begin(), view.sizes.end(), int64_t{1}, std::multiplies<>());
  for (int64_t n = 0; n < total; ++n) {
    std::vector<int64_t> offsets;
    for (const auto& s : view.strides) {
      int64_t offset = 0;
      for (size_t d = 0; d < index.size(); ++d) offset += index[d] * s[d];
      offsets.push_back(offset);
    }
    result.insert(offsets);
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < view.sizes[d]) break;
      index[d] = 0;
    }
  }
  return result;
}

std::multiset<std::vector<int64_t>> IteratedOffsets(const View& view) {
  std::multiset<std::vector<int64_t>> result;
  const StridedLayout layout = Layout(view);
  ForEachInnerRun(layout, [&](const int64_t* offsets, int64_t length, const int64_t* strides) {
    for (int64_t i = 0; i < length; ++i) {
      std::vector<int64_t> element;
      for (int op = 0; op < layout.num_operands; ++op) element.push_back(offsets[op] + i * strides[op]);
      result.insert(element);
    }
  });
  return result;
}

TEST(StridedLayout, ContiguousViewsCoalesceToOneFlatRun) {
  const View view{{2, 3, 4, 5}, {{60, 20, 5, 1}, {60, 20, 5, 1}, {60, 20, 5, 1}}};
  const StridedLayout layout = Layout(view);
  EXPECT_EQ(layout.rank, 1);
  EXPECT_EQ(layout.sizes[0], 120);
  EXPECT_TRUE(layout.IsFlatContiguous());
}

TEST(StridedLayout, ZeroDimensionalViewIsOneElement) {
  const View view{{}, {{}, {}}};
  const StridedLayout layout = Layout(view);
  EXPECT_EQ(layout.rank, 0);
  EXPECT_EQ(layout.NumElements(), 1);
  EXPECT_EQ(IteratedOffsets(view), NaiveOffsets(view));
}

TEST(StridedLayout, SizeOneDimsAreDroppedWhateverTheirStride) {
  const View view{{1, 4, 1, 3}, {{999, 3, 7, 1}, {0, 3, 5, 1}}};
  const StridedLayout layout = Layout(view);
  EXPECT_EQ(layout.rank, 1);
  EXPECT_EQ(layout.sizes[0], 12);
}

TEST(StridedLayout, TransposedInputKeepsTwoDimsOrderedByTheOutput) {
  // Output contiguous 4x5, input a transposed view of a 5x4 buffer.
  const View view{{4, 5}, {{5, 1}, {1, 4}}};
  const StridedLayout layout = Layout(view);
  ASSERT_EQ(layout.rank, 2);
  EXPECT_EQ(layout.strides[0][0], 1);  // innermost loop walks the output contiguously
  EXPECT_EQ(layout.strides[1][0], 4);
  EXPECT_EQ(IteratedOffsets(view), NaiveOffsets(view));
}

TEST(StridedLayout, SteppedSliceCoalescesIntoOneStridedRun) {
  const View view{{3, 4}, {{4, 1}, {8, 2}}};  // input: every other element of a 24-element buffer
  const StridedLayout layout = Layout(view);
  EXPECT_EQ(layout.rank, 1);
  EXPECT_EQ(layout.strides[1][0], 2);
  EXPECT_EQ(IteratedOffsets(view), NaiveOffsets(view));
}

TEST(StridedLayout, VisitsEveryElementOnceForRandomPermutedSlicedAndBroadcastViews) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 300; ++trial) {
    const int rank = static_cast<int>(random() % 6);
    View view;
    for (int d = 0; d < rank; ++d) view.sizes.push_back(1 + random() % 4);
    for (int op = 0; op < 3; ++op) {
      // A permuted, stepped layout, with occasional zero strides on inputs.
      std::vector<int> order(rank);
      std::iota(order.begin(), order.end(), 0);
      std::shuffle(order.begin(), order.end(), random);
      std::vector<int64_t> strides(rank);
      int64_t stride = 1 + random() % 2;
      for (int d : order) {
        strides[d] = (op > 0 && random() % 5 == 0) ? 0 : stride;
        stride *= view.sizes[d] + random() % 2;
      }
      view.strides.push_back(strides);
    }
    ASSERT_EQ(IteratedOffsets(view), NaiveOffsets(view)) << "trial " << trial;
  }
}

std::multiset<std::vector<int64_t>> TiledOffsets(const View& view, int64_t tile) {
  std::multiset<std::vector<int64_t>> result;
  const StridedLayout layout = Layout(view);
  ForEachTiledRun(layout, tile, [&](const int64_t* offsets, int64_t length, const int64_t* strides) {
    EXPECT_LE(length, tile);
    for (int64_t i = 0; i < length; ++i) {
      std::vector<int64_t> element;
      for (int op = 0; op < layout.num_operands; ++op) element.push_back(offsets[op] + i * strides[op]);
      result.insert(element);
    }
  });
  return result;
}

TEST(StridedLayout, TiledWalkOfTransposedViewVisitsEveryElementOnce) {
  // Sizes not multiples of the tile, plus outer dims, so partial tiles and the
  // outer odometer are both exercised.
  const View view{{3, 37, 45}, {{37 * 45, 45, 1}, {37 * 45, 1, 37}, {1, 3 * 45, 3}}};
  const StridedLayout layout = Layout(view);
  ASSERT_GE(layout.rank, 2);
  EXPECT_TRUE(BenefitsFromTiling(layout));
  for (int64_t tile : {1, 8, 32, 64}) EXPECT_EQ(TiledOffsets(view, tile), NaiveOffsets(view)) << "tile " << tile;
}

std::multiset<std::vector<int64_t>> PlaneOffsets(const View& view) {
  std::multiset<std::vector<int64_t>> result;
  const StridedLayout layout = Layout(view);
  ForEachInnerPlane(layout, [&](const int64_t* offsets, int64_t size0, int64_t size1, const int64_t* strides0,
                                const int64_t* strides1) {
    EXPECT_EQ(size0, layout.sizes[0]);
    EXPECT_EQ(size1, layout.sizes[1]);
    for (int64_t j = 0; j < size1; ++j) {
      for (int64_t i = 0; i < size0; ++i) {
        std::vector<int64_t> element;
        for (int op = 0; op < layout.num_operands; ++op) {
          element.push_back(offsets[op] + i * strides0[op] + j * strides1[op]);
        }
        result.insert(element);
      }
    }
  });
  return result;
}

TEST(StridedLayout, PlaneWalkVisitsEveryElementOnce) {
  // Rank 2, and rank 4 whose two outer dims the plane walk's odometer steps.
  const View two_d{{37, 45}, {{45, 1}, {1, 37}, {1, 37}}};
  ASSERT_EQ(Layout(two_d).rank, 2);
  EXPECT_EQ(PlaneOffsets(two_d), NaiveOffsets(two_d));
  const View four_d{{2, 3, 5, 7}, {{105, 35, 7, 1}, {105, 35, 1, 5}, {1, 2, 30, 6}}};
  ASSERT_EQ(Layout(four_d).rank, 4);
  EXPECT_EQ(PlaneOffsets(four_d), NaiveOffsets(four_d));
}

TEST(StridedLayout, BlockKernelIsForInputsContiguousAlongTheSecondDim) {
  // Both inputs transposed against out, or broadcast: yes.
  EXPECT_TRUE(InputsRunAlongDim1(Layout({{4, 5}, {{5, 1}, {1, 4}, {1, 4}}})));
  EXPECT_TRUE(InputsRunAlongDim1(Layout({{4, 5}, {{5, 1}, {1, 4}, {0, 0}}})));
  // One input laid out like out: no (the block kernel would read it across lines).
  EXPECT_FALSE(InputsRunAlongDim1(Layout({{4, 5}, {{5, 1}, {1, 4}, {5, 1}}})));
  EXPECT_FALSE(InputsRunAlongDim1(Layout({{20}, {{1}, {2}, {2}}})));
}

TEST(StridedLayout, ContiguousViewsDoNotAskForTiling) {
  EXPECT_FALSE(BenefitsFromTiling(Layout({{4, 5}, {{5, 1}, {5, 1}}})));
  EXPECT_FALSE(BenefitsFromTiling(Layout({{4, 5}, {{10, 2}, {5, 1}}})));
}

TEST(StridedLayout, InputBroadcastAlongTheOuterDimDoesNotAskForTiling) {
  // Operands out, gradOutput, self: gradOutput one row of 5 read for each of
  // 4 rows; out and self dense.
  EXPECT_FALSE(BenefitsFromTiling(Layout({{4, 5}, {{5, 1}, {0, 1}, {5, 1}}})));
  // A transposed self beside the broadcast gradOutput still does.
  EXPECT_TRUE(BenefitsFromTiling(Layout({{4, 5}, {{5, 1}, {0, 1}, {1, 4}}})));
}

TEST(StridedLayout, SlicesOfTheOuterDimPartitionTheElements) {
  const View view{{7, 3, 5}, {{15, 5, 1}, {1, 7, 21}}};
  const StridedLayout layout = Layout(view);
  const int64_t outer = layout.sizes[layout.rank - 1];
  std::multiset<std::vector<int64_t>> visited;
  for (int parts : {1, 2, 3}) {
    visited.clear();
    for (int part = 0; part < parts; ++part) {
      int64_t base[kMaxLayoutOperands];
      const StridedLayout slice = SliceOuterDim(layout, outer * part / parts, outer * (part + 1) / parts, base);
      ForEachInnerRun(slice, [&](const int64_t* offsets, int64_t length, const int64_t* strides) {
        for (int64_t i = 0; i < length; ++i) {
          visited.insert({base[0] + offsets[0] + i * strides[0], base[1] + offsets[1] + i * strides[1]});
        }
      });
    }
    EXPECT_EQ(visited, NaiveOffsets(view)) << parts << " parts";
  }
}

}  // namespace
}  // namespace aclcpu
