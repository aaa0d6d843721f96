// aclnnHardsigmoidBackward through every kind of view the API allows: strides,
// offsets, zero and overlapping strides, non-contiguous outputs, ranks 0-8,
// empty tensors and the formats torch_npu passes. Golden inputs are placed at
// the view positions and the out view is compared with PyTorch's values; every
// run also checks that no byte of out's storage outside its view is written.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "device_tensor.h"
#include "golden_file.h"
#include "golden_run.h"

namespace aclcpu_test {
namespace {

// Each layout is tried with these dtype mixes: the three plain ones and mixes
// that widen, narrow and cross between f16 and bf16.
const char* const kDtypeMixes[] = {
    "grad_f32_self_f32_out_f32",  "grad_f16_self_f16_out_f16",  "grad_bf16_self_bf16_out_bf16",
    "grad_bf16_self_f32_out_f16", "grad_f16_self_bf16_out_f64", "grad_f32_self_f16_out_bf16",
};

void ForEachDtypeMix(const std::function<void(const GoldenFile&)>& body) {
  for (const char* name : kDtypeMixes) {
    SCOPED_TRACE(name);
    body(GoldenFile::Load(name));
  }
}

Operand Strided(std::vector<int64_t> shape, std::vector<int64_t> strides, int64_t offset = 0,
                int64_t storage_elements = -1, aclFormat format = ACL_FORMAT_ND) {
  Operand operand;
  operand.layout.shape = std::move(shape);
  operand.layout.strides = std::move(strides);
  operand.layout.offset = offset;
  operand.layout.storage_elements = storage_elements;
  operand.layout.format = format;
  return operand;
}

// Strides of a view of `shape` whose storage is dense with the dims nested in
// `storage_order` (outermost first), i.e. a permute() of a contiguous tensor.
std::vector<int64_t> PermutedStrides(const std::vector<int64_t>& shape, const std::vector<size_t>& storage_order) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t k = storage_order.size(); k-- > 0;) {
    strides[storage_order[k]] = stride;
    stride *= shape[storage_order[k]];
  }
  return strides;
}

size_t ElementCount(const std::vector<int64_t>& shape) { return static_cast<size_t>(NumElements(shape)); }

TEST(Layouts, Contiguous) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{1}, {37}, {7, 9}, {3, 4, 5}}) {
      EXPECT_TRUE(RunOnGoldenContiguous(golden, SpreadIndices(golden, ElementCount(shape), shape.size()), shape));
    }
  });
}

// Dense views whose size-1 dims carry any stride (torch keeps the parent's
// stride there, e.g. x[:, None] or a one-row narrow): phase 1 takes three dense
// views as one flat run without the iterator; with offsets, and next to a view
// that is not dense.
TEST(Layouts, DenseViewsWithAnyStrideOnSizeOneDims) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    const std::vector<int64_t> shape = {3, 1, 4, 1};
    const std::vector<size_t> indices = SpreadIndices(golden, ElementCount(shape), 6);
    const Operand odd_unit_strides = Strided(shape, {4, 999, 1, 7}, 2);
    const Operand dense = Strided(shape, {4, 4, 1, 1});
    EXPECT_TRUE(RunOnGolden(golden, indices, odd_unit_strides, dense, Strided(shape, {4, 0, 1, 3}, 1)));
    const Operand column_major = Strided(shape, {1, 5, 3, 2});
    EXPECT_TRUE(RunOnGolden(golden, indices, dense, odd_unit_strides, column_major));
    EXPECT_TRUE(RunOnGolden(golden, indices, column_major, dense, odd_unit_strides));
  });
}

TEST(Layouts, TransposedTwoD) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    const std::vector<size_t> indices = SpreadIndices(golden, 63, 1);
    const Operand transposed = Strided({9, 7}, {1, 9});
    const Operand contiguous = Contiguous({9, 7});
    EXPECT_TRUE(RunOnGolden(golden, indices, transposed, transposed, transposed));
    EXPECT_TRUE(RunOnGolden(golden, indices, transposed, contiguous, contiguous));
    EXPECT_TRUE(RunOnGolden(golden, indices, contiguous, transposed, contiguous));
    EXPECT_TRUE(RunOnGolden(golden, indices, contiguous, contiguous, transposed));
  });
}

// Both inputs transposed and out dense: the two-dimensional block kernel (64 x
// 64 blocks), at sizes around the block, with offsets, padded pitches and a
// batch dim above the transposed pair.
TEST(Layouts, TransposedInputsAroundTheBlockSize) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    const std::vector<std::vector<int64_t>> shapes = {{1, 129}, {130, 2}, {63, 65}, {64, 64}, {65, 63}, {129, 191}};
    for (const std::vector<int64_t>& shape : shapes) {
      SCOPED_TRACE(std::to_string(shape[0]) + "x" + std::to_string(shape[1]));
      const std::vector<size_t> indices = SpreadIndices(golden, ElementCount(shape), 40);
      const Operand transposed = Strided(shape, {1, shape[0]});
      EXPECT_TRUE(RunOnGolden(golden, indices, transposed, transposed, Contiguous(shape)));
      const Operand padded_grad = Strided(shape, {1, shape[0] + 3}, 1);
      const Operand padded_self = Strided(shape, {1, shape[0] + 1}, 2);
      EXPECT_TRUE(RunOnGolden(golden, indices, padded_grad, padded_self, Strided(shape, {shape[1] + 5, 1}, 3)));
    }
    const std::vector<int64_t> batched = {3, 65, 33};
    const Operand batch_transposed = Strided(batched, PermutedStrides(batched, {0, 2, 1}), 1);
    EXPECT_TRUE(RunOnGolden(golden, SpreadIndices(golden, ElementCount(batched), 41), batch_transposed,
                            batch_transposed, Contiguous(batched)));
  });
  // Every f16 / bf16 value (NaNs, infinities, subnormals) through the block kernel.
  for (const char* name : {"exhaustive_f16", "exhaustive_bf16"}) {
    SCOPED_TRACE(name);
    const GoldenFile golden = GoldenFile::Load(name);
    const Operand transposed = Strided({512, 256}, {1, 512}, 1);
    EXPECT_TRUE(RunOnGolden(golden, golden.AllIndices(), transposed, transposed, Strided({512, 256}, {256, 1}, 2)));
  }
}

TEST(Layouts, PermutedFourD) {
  const std::vector<int64_t> shape = {2, 3, 4, 5};
  ForEachDtypeMix([&](const GoldenFile& golden) {
    const std::vector<size_t> indices = SpreadIndices(golden, ElementCount(shape), 2);
    const Operand grad = Strided(shape, PermutedStrides(shape, {2, 0, 3, 1}));
    const Operand self = Strided(shape, PermutedStrides(shape, {3, 2, 1, 0}));
    const Operand out = Strided(shape, PermutedStrides(shape, {0, 2, 1, 3}));
    const Operand channels_last = Strided(shape, PermutedStrides(shape, {0, 2, 3, 1}));
    EXPECT_TRUE(RunOnGolden(golden, indices, grad, self, out));
    EXPECT_TRUE(RunOnGolden(golden, indices, self, grad, channels_last));
    EXPECT_TRUE(RunOnGolden(golden, indices, channels_last, channels_last, channels_last));
  });
}

TEST(Layouts, SteppedSlices) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    // x[::2] of 80 elements, x[:, ::3] of {5,18}, x[::2, ::3] of {10,18}.
    const std::vector<size_t> indices_1d = SpreadIndices(golden, 40, 3);
    EXPECT_TRUE(RunOnGolden(golden, indices_1d, Strided({40}, {2}), Strided({40}, {3}), Strided({40}, {2})));
    const std::vector<size_t> indices_2d = SpreadIndices(golden, 30, 4);
    const Operand step3 = Strided({5, 6}, {18, 3});
    const Operand step2x3 = Strided({5, 6}, {36, 3});
    EXPECT_TRUE(RunOnGolden(golden, indices_2d, step3, step2x3, Contiguous({5, 6})));
    EXPECT_TRUE(RunOnGolden(golden, indices_2d, Contiguous({5, 6}), step3, step2x3));
  });
}

TEST(Layouts, NonZeroOffsetOnEveryOperand) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    const std::vector<size_t> indices = SpreadIndices(golden, 30, 5);
    // Storage runs past the view too, so writes after the view's end are caught.
    EXPECT_TRUE(RunOnGolden(golden, indices, Strided({6, 5}, {5, 1}, 3, 40), Strided({6, 5}, {5, 1}, 17, 50),
                            Strided({6, 5}, {5, 1}, 5, 41)));
    // A single element with an offset, and an offset into a transposed view.
    EXPECT_TRUE(RunOnGolden(golden, {indices[0]}, Strided({1}, {1}, 7), Strided({1}, {1}, 1), Strided({1}, {1}, 9, 12)));
    EXPECT_TRUE(RunOnGolden(golden, indices, Strided({6, 5}, {1, 6}, 11), Strided({6, 5}, {1, 6}, 2),
                            Strided({6, 5}, {1, 6}, 4, 40)));
  });
}

TEST(Layouts, ZeroStrideInputsSharingOneLayout) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    // Broadcast of a row ({4,6} strides {0,1}), of a column ({4,6} strides
    // {1,0}) and of a single element: view positions sharing a storage element
    // share the golden element too.
    for (const Operand& broadcast : {Strided({4, 6}, {0, 1}, 2), Strided({4, 6}, {1, 0}), Strided({4, 6}, {0, 0}, 3)}) {
      const std::vector<size_t> picks = SpreadIndices(golden, broadcast.layout.offset + 6, 6);
      const std::vector<size_t> indices = IndicesFollowingStorage(broadcast.layout, picks);
      EXPECT_TRUE(RunOnGolden(golden, indices, broadcast, broadcast, Contiguous({4, 6})));
      EXPECT_TRUE(RunOnGolden(golden, indices, broadcast, broadcast, Strided({4, 6}, {1, 4}, 1)));
    }
  });
}

TEST(Layouts, ZeroStrideSelfAcrossEverySpecialGrad) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    // The golden file pairs each special self value with every special grad;
    // one self element broadcast over a contiguous grad runs exactly those pairs.
    std::map<uint64_t, std::vector<size_t>> by_self;
    for (size_t i = 0; i < golden.count(); ++i) by_self[ElementBits(golden.self_dtype(), golden.self(i))].push_back(i);
    size_t special_selfs = 0;
    for (const auto& entry : by_self) {
      const std::vector<size_t>& indices = entry.second;
      if (indices.size() < 16) continue;  // random values, not a cross-product row
      ++special_selfs;
      const int64_t n = static_cast<int64_t>(indices.size());
      EXPECT_TRUE(RunOnGolden(golden, indices, Contiguous({n}), Strided({n}, {0}, 1), Contiguous({n})));
    }
    EXPECT_GE(special_selfs, 10u) << "the golden file lost its cross product of special values";
  });
}

TEST(Layouts, OverlappingSelfStridesAsInOpsNnCase17) {
  // self is the view {2,3} strides {2,1} of a {3,2} storage: (0,2) and (1,0) alias.
  ForEachDtypeMix([](const GoldenFile& golden) {
    Operand self = Strided({2, 3}, {2, 1}, 0, 6);
    self.storage_dims = {3, 2};
    const std::vector<size_t> indices = IndicesFollowingStorage(self.layout, SpreadIndices(golden, 6, 7));
    EXPECT_TRUE(RunOnGolden(golden, indices, Contiguous({2, 3}), self, Contiguous({2, 3})));
  });
}

TEST(Layouts, OverlappingStridesOnBothInputs) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    // {3,4} strides {2,1}: a sliding window, most elements read several times.
    const Operand window = Strided({3, 4}, {2, 1}, 1);
    const std::vector<size_t> indices = IndicesFollowingStorage(window.layout, SpreadIndices(golden, 9, 8));
    EXPECT_TRUE(RunOnGolden(golden, indices, window, window, Contiguous({3, 4})));
    EXPECT_TRUE(RunOnGolden(golden, indices, window, window, Strided({3, 4}, {1, 3}, 2, 20)));
  });
}

TEST(Layouts, NonContiguousOut) {
  ForEachDtypeMix([](const GoldenFile& golden) {
    const std::vector<size_t> indices = SpreadIndices(golden, 24, 9);
    const Operand contiguous = Contiguous({4, 6});
    // Transposed, stepped, stepped with offset, and both with storage to spare.
    for (const Operand& out : {Strided({4, 6}, {1, 4}), Strided({4, 6}, {12, 2}), Strided({4, 6}, {1, 8}, 3),
                               Strided({4, 6}, {18, 3}, 5, 90), Strided({4, 6}, {6, 1}, 7, 40)}) {
      EXPECT_TRUE(RunOnGolden(golden, indices, contiguous, contiguous, out));
    }
  });
}

TEST(Layouts, LargeStridedViews) {
  // Big enough for any vectorised, blocked or multi-threaded path an
  // implementation may switch to, with odd sizes and offsets that misalign the
  // data, and every exhaustive f16/bf16 element placed through a transpose.
  for (const char* name : {"exhaustive_f16", "exhaustive_bf16"}) {
    SCOPED_TRACE(name);
    const GoldenFile golden = GoldenFile::Load(name);
    ASSERT_EQ(golden.count(), 512u * 256u);
    const Operand transposed = Strided({512, 256}, {1, 512}, 1);
    EXPECT_TRUE(RunOnGolden(golden, golden.AllIndices(), transposed, Strided({512, 256}, {256, 1}, 3),
                            Strided({512, 256}, {257, 1}, 5)));
  }
  ForEachDtypeMix([](const GoldenFile& golden) {
    const std::vector<int64_t> shape = {259, 517};
    const std::vector<size_t> indices = SpreadIndices(golden, ElementCount(shape), 30);
    EXPECT_TRUE(RunOnGolden(golden, indices, Strided(shape, RowMajorStrides(shape), 1), Strided(shape, {1, 259}, 7),
                            Strided(shape, RowMajorStrides(shape), 3)));
    EXPECT_TRUE(RunOnGolden(golden, indices, Strided(shape, {1034, 2}), Strided(shape, RowMajorStrides(shape)),
                            Strided(shape, {1, 259}, 1)));
  });
}

TEST(Layouts, ContiguousCountsAroundThreadSplitBoundaries) {
  // Launches are split in pieces that each move at least 128 KiB (grad + self
  // + out element sizes per element; plan.cc): counts on either side of two and
  // three pieces, odd counts that leave unequal pieces, and misaligned starts;
  // golden elements repeat to fill them. The suite also runs with
  // ACLCPU_NUM_THREADS=3 (CTest), where three pieces happen.
  for (const char* name : {"exhaustive_f16", "exhaustive_bf16", "grad_f32_self_f32_out_f32"}) {
    SCOPED_TRACE(name);
    const GoldenFile golden = GoldenFile::Load(name);
    const std::vector<size_t> all = golden.AllIndices();
    const size_t bytes_per_element =
        DtypeBytes(golden.grad_dtype()) + DtypeBytes(golden.self_dtype()) + DtypeBytes(golden.out_dtype());
    const size_t part = (size_t{128} << 10) / bytes_per_element;
    for (size_t count : {part - 1, part, 2 * part - 1, 2 * part, 2 * part + 1, 3 * part - 1, 3 * part + 1}) {
      SCOPED_TRACE(count);
      std::vector<size_t> indices(count);
      for (size_t i = 0; i < count; ++i) indices[i] = all[i % all.size()];
      const int64_t n = static_cast<int64_t>(count);
      EXPECT_TRUE(RunOnGoldenContiguous(golden, indices, {n}));
      EXPECT_TRUE(RunOnGolden(golden, indices, Strided({n}, {1}, 1), Strided({n}, {1}, 3), Strided({n}, {1}, 5)));
    }
  }
}

// `count` golden elements for the huge launches below: every one of the file's
// elements in turn, scattered by a prime step, repeated to fill `count`.
std::vector<size_t> ScatteredRepeats(const GoldenFile& golden, size_t count) {
  const std::vector<size_t> all = golden.AllIndices();
  std::vector<size_t> indices(count);
  for (size_t i = 0; i < count; ++i) indices[i] = all[(i * 7919) % all.size()];
  return indices;
}

TEST(Layouts, HugeContiguousFloatOutputTakesTheNonTemporalStorePath) {
  // 4.5M float32 elements (54 MiB over the three tensors) is past the size at
  // which launches switch to non-temporal stores; golden elements repeat to fill it.
  const GoldenFile golden = GoldenFile::Load("grad_f32_self_f32_out_f32");
  const std::vector<size_t> indices = ScatteredRepeats(golden, 4500001);
  const int64_t count = static_cast<int64_t>(indices.size());
  EXPECT_TRUE(RunOnGoldenContiguous(golden, indices, {count}));
  EXPECT_TRUE(RunOnGolden(golden, indices, Strided({count}, {1}, 1), Strided({count}, {1}, 2),
                          Strided({count}, {1}, 3)));
}

// The same for [::2] float32 input views (de-interleaved in registers, out
// stored non-temporally): 4.5M elements, 54 MiB of useful data over the three
// tensors; out misaligned by its offset, so its aligning head runs too.
TEST(Layouts, HugeStep2FloatViewsTakeTheNonTemporalStorePath) {
  const GoldenFile golden = GoldenFile::Load("grad_f32_self_f32_out_f32");
  const std::vector<size_t> indices = ScatteredRepeats(golden, 4500001);
  const int64_t count = static_cast<int64_t>(indices.size());
  EXPECT_TRUE(RunOnGolden(golden, indices, Strided({count}, {2}, 1), Strided({count}, {2}, 0),
                          Strided({count}, {1}, 3)));
}

// The same for f16 and bf16 outputs (computed in blocks, copied out with
// non-temporal stores): 8.4M elements of each all-16-bit type, 48 MiB and more
// over the three tensors; every golden element (all 65,536 bit patterns as self
// and as grad) repeats through it.
TEST(Layouts, HugeContiguousHalfOutputsTakeTheNonTemporalStorePath) {
  for (const char* name : {"exhaustive_f16", "exhaustive_bf16"}) {
    SCOPED_TRACE(name);
    const GoldenFile golden = GoldenFile::Load(name);
    const std::vector<size_t> indices = ScatteredRepeats(golden, 8400001);
    const int64_t count = static_cast<int64_t>(indices.size());
    // Offsets misalign every operand, so out's aligning head runs too.
    EXPECT_TRUE(RunOnGolden(golden, indices, Strided({count}, {1}, 1), Strided({count}, {1}, 2),
                            Strided({count}, {1}, 3)));
  }
}

// Rows of out far beyond the cache are streamed one by one (rows of 2 KiB and
// more; ops/shared/elementwise_plan.cc), each row's ends by ordinary stores and
// one fence a thread: rows with gaps between them, every operand misaligned
// by its offset (storage past each view's end catches writes beyond it), and
// (float32) a row of both inputs broadcast down a dense out.
TEST(Layouts, HugeLaunchesWithRowsOfOutTakeTheNonTemporalStorePath) {
  for (const char* name : {"grad_f32_self_f32_out_f32", "exhaustive_f16", "exhaustive_bf16"}) {
    SCOPED_TRACE(name);
    const GoldenFile golden = GoldenFile::Load(name);
    const bool is_float32 = golden.out_dtype() == ACL_FLOAT;
    const int64_t rows = is_float32 ? 2048 : 4100;
    const int64_t cols = is_float32 ? 2200 : 2100;  // 8800 and 4200 bytes a row of out
    const std::vector<size_t> indices = ScatteredRepeats(golden, static_cast<size_t>(rows * cols));
    EXPECT_TRUE(RunOnGolden(golden, indices, Strided({rows, cols}, {cols + 5, 1}, 1, (cols + 5) * rows + 9),
                            Strided({rows, cols}, {cols + 9, 1}, 2), Strided({rows, cols}, {cols + 3, 1}, 3,
                                                                             (cols + 3) * rows + 7)));
    if (!is_float32) continue;  // the 16-bit rows above already take the same streaming kernels
    const Operand broadcast_row = Strided({rows, cols}, {0, 1}, 1);
    const std::vector<size_t> picks = SpreadIndices(golden, broadcast_row.layout.offset + cols, 7);
    EXPECT_TRUE(RunOnGolden(golden, IndicesFollowingStorage(broadcast_row.layout, picks), broadcast_row,
                            broadcast_row, Contiguous({rows, cols})));
  }
}

// Ranks 0 to 8, contiguous and with a reversed (fully transposed) dim order
// plus an offset; rank 0 is a scalar with one element.
class LayoutsByRank : public ::testing::TestWithParam<int> {};

TEST_P(LayoutsByRank, ContiguousAndTransposed) {
  const std::vector<int64_t> all_dims = {2, 3, 2, 1, 2, 3, 1, 2};
  const std::vector<int64_t> shape(all_dims.begin(), all_dims.begin() + GetParam());
  std::vector<size_t> reversed_order(shape.size());
  for (size_t d = 0; d < shape.size(); ++d) reversed_order[d] = shape.size() - 1 - d;
  ForEachDtypeMix([&](const GoldenFile& golden) {
    const std::vector<size_t> indices = SpreadIndices(golden, ElementCount(shape), 10 + GetParam());
    EXPECT_TRUE(RunOnGoldenContiguous(golden, indices, shape));
    const Operand transposed = Strided(shape, PermutedStrides(shape, reversed_order), 3);
    EXPECT_TRUE(RunOnGolden(golden, indices, transposed, Contiguous(shape), transposed));
  });
}

INSTANTIATE_TEST_SUITE_P(Ranks0To8, LayoutsByRank, ::testing::Range(0, 9));

TEST(Layouts, EmptyInAnyDimIsSuccessWithNoWorkAndNoWrites) {
  const std::vector<std::vector<int64_t>> shapes = {
      {0}, {0, 4}, {4, 0}, {2, 0, 3}, {1, 1, 1, 1, 1, 1, 1, 0}, {0, 2, 2, 2, 2, 2, 2, 2}, {3, 2, 1, 0, 1, 2}};
  for (aclDataType dtype : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    for (const std::vector<int64_t>& shape : shapes) {
      SCOPED_TRACE(std::string(GoldenDtypeName(dtype)) + " rank " + std::to_string(shape.size()));
      // Real storage behind every operand, so a stray write would land somewhere checkable.
      DeviceTensor grad(dtype, DeviceTensor::Layout{shape, {}, 0, 16, ACL_FORMAT_ND}, kInputFiller);
      DeviceTensor self(dtype, DeviceTensor::Layout{shape, {}, 2, 16, ACL_FORMAT_ND}, kInputFiller);
      DeviceTensor out(dtype, DeviceTensor::Layout{shape, {}, 1, 16, ACL_FORMAT_ND}, kOutSentinel);
      uint64_t workspace_size = 12345;
      aclOpExecutor* executor = nullptr;
      ASSERT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(grad.get(), self.get(), out.get(), &workspace_size, &executor),
                0);
      EXPECT_EQ(workspace_size, 0u);
      ASSERT_NE(executor, nullptr);
      EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, executor, RuntimeFixture::Stream()), 0);
      EXPECT_EQ(aclrtSynchronizeStream(RuntimeFixture::Stream()), ACL_SUCCESS);
      const std::vector<uint8_t> storage = out.DownloadStorage();
      EXPECT_EQ(storage, std::vector<uint8_t>(storage.size(), kOutSentinel)) << "an empty out was written";
    }
  }
}

TEST(Layouts, TorchNpuFormatsWithOneDimStorageAndOffset) {
  // torch_npu declares NCL / NCHW / NCDHW for 3-, 4- and 5-D tensors, a 1-D
  // storage shape and the storage offset in elements (DeviceTensor always
  // declares a 1-D storage). None of this may change the result.
  struct FormatCase {
    aclFormat format;
    std::vector<int64_t> shape;
  };
  const FormatCase cases[] = {
      {ACL_FORMAT_NCL, {2, 3, 7}}, {ACL_FORMAT_NCHW, {2, 3, 4, 5}}, {ACL_FORMAT_NCDHW, {2, 2, 3, 2, 3}}};
  ForEachDtypeMix([&](const GoldenFile& golden) {
    for (const FormatCase& c : cases) {
      SCOPED_TRACE(c.shape.size());
      const std::vector<size_t> indices = SpreadIndices(golden, ElementCount(c.shape), 20 + c.shape.size());
      const std::vector<int64_t> dense = RowMajorStrides(c.shape);
      const int64_t n = NumElements(c.shape);
      EXPECT_TRUE(RunOnGolden(golden, indices, Strided(c.shape, dense, 4, n + 4, c.format),
                              Strided(c.shape, dense, 9, n + 12, c.format), Strided(c.shape, dense, 2, n + 5, c.format)));
      // Channels-last style strides (C innermost) under the same format tag.
      std::vector<size_t> channels_last_order = {0};
      for (size_t d = 2; d < c.shape.size(); ++d) channels_last_order.push_back(d);
      channels_last_order.push_back(1);
      const std::vector<int64_t> channels_last = PermutedStrides(c.shape, channels_last_order);
      EXPECT_TRUE(RunOnGolden(golden, indices, Strided(c.shape, channels_last, 1, -1, c.format),
                              Strided(c.shape, dense, 0, -1, c.format), Strided(c.shape, channels_last, 3, -1, c.format)));
    }
  });
}

}  // namespace
}  // namespace aclcpu_test
