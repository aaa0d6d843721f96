// aclcpu: the one stride iterator every elementwise loop goes through.
//
// A view is (shape, strides in elements, offset). Several operands of one
// elementwise op share the shape but not the strides. MakeStridedLayout puts the
// dims in the order that walks operand 0 (the output) fastest-first, drops size-1
// dims and merges neighbouring dims that are contiguous for every operand, so a
// contiguous or simply-sliced view becomes one flat run and a transposed one stays
// two-dimensional. ForEachInnerRun then hands a kernel each innermost run as
// (start offsets, length, strides): kernels never see dims.
#ifndef ACLCPU_ITER_STRIDED_LAYOUT_H_
#define ACLCPU_ITER_STRIDED_LAYOUT_H_

#include <cstdint>

namespace aclcpu {

constexpr int kMaxLayoutDims = 8;
constexpr int kMaxLayoutOperands = 3;

struct StridedLayout {
  int rank = 0;          // dims left after coalescing; 0 means a single element
  int num_operands = 0;
  int64_t sizes[kMaxLayoutDims] = {};  // innermost dim first
  int64_t strides[kMaxLayoutOperands][kMaxLayoutDims] = {};  // per operand, in elements

  // True if every operand walks its innermost dim with stride 1 and there is at
  // most one dim: the whole op is one flat loop.
  bool IsFlatContiguous() const;
  int64_t NumElements() const;
};

// `sizes` and each `strides[i]` list `rank` dims outermost first (aclTensor
// order). rank <= kMaxLayoutDims, num_operands <= kMaxLayoutOperands, and no size
// is zero (empty views never reach the iterator).
StridedLayout MakeStridedLayout(int rank, const int64_t* sizes, int num_operands, const int64_t* const* strides);

// Calls run(offsets, length, strides) for each innermost run: offsets[i] is the
// element offset of the run's first element in operand i (relative to the view
// start), length the run's element count, strides[i] operand i's stride along it.
template <typename RunFn>
void ForEachInnerRun(const StridedLayout& layout, RunFn&& run) {
  int64_t offsets[kMaxLayoutOperands] = {};
  int64_t inner_strides[kMaxLayoutOperands] = {};
  if (layout.rank == 0) {
    // A single element: unit strides, so kernels take their contiguous path.
    for (int op = 0; op < layout.num_operands; ++op) inner_strides[op] = 1;
    run(offsets, int64_t{1}, inner_strides);
    return;
  }
  for (int op = 0; op < layout.num_operands; ++op) inner_strides[op] = layout.strides[op][0];
  int64_t index[kMaxLayoutDims] = {};
  const int64_t inner_length = layout.sizes[0];
  for (;;) {
    run(offsets, inner_length, inner_strides);
    // Odometer over the outer dims, keeping each operand's offset incrementally.
    int dim = 1;
    for (; dim < layout.rank; ++dim) {
      if (++index[dim] < layout.sizes[dim]) {
        for (int op = 0; op < layout.num_operands; ++op) offsets[op] += layout.strides[op][dim];
        break;
      }
      for (int op = 0; op < layout.num_operands; ++op) {
        offsets[op] -= layout.strides[op][dim] * (layout.sizes[dim] - 1);
      }
      index[dim] = 0;
    }
    if (dim == layout.rank) return;
  }
}

// The part of `layout` whose outermost dim index lies in [begin, end): the same
// layout with that dim shortened; base_offsets[i] receives operand i's element
// offset of the part's first element. Splits work between threads.
StridedLayout SliceOuterDim(const StridedLayout& layout, int64_t begin, int64_t end, int64_t* base_offsets);

// True if walking the two innermost dims in square tiles beats walking dim 0
// straight: some operand steps further along dim 0 than along dim 1 (a
// transposed view), so straight runs would touch a new cache line per element.
// An operand broadcast along dim 1 (stride 0 there) does not count.
bool BenefitsFromTiling(const StridedLayout& layout);

// Like ForEachInnerRun, but the two innermost dims are walked in tiles of
// `tile` x `tile` elements (runs of at most `tile` elements along dim 0), so that
// every operand's cache lines are reused within a tile whichever dim it is
// contiguous in. Needs rank >= 2.
template <typename RunFn>
void ForEachTiledRun(const StridedLayout& layout, int64_t tile, RunFn&& run) {
  const int num_operands = layout.num_operands;
  int64_t outer_offsets[kMaxLayoutOperands] = {};
  int64_t index[kMaxLayoutDims] = {};
  int64_t inner_strides[kMaxLayoutOperands];
  for (int op = 0; op < num_operands; ++op) inner_strides[op] = layout.strides[op][0];
  for (;;) {
    for (int64_t j0 = 0; j0 < layout.sizes[1]; j0 += tile) {
      const int64_t j1 = j0 + tile < layout.sizes[1] ? j0 + tile : layout.sizes[1];
      for (int64_t i0 = 0; i0 < layout.sizes[0]; i0 += tile) {
        const int64_t length = i0 + tile < layout.sizes[0] ? tile : layout.sizes[0] - i0;
        for (int64_t j = j0; j < j1; ++j) {
          int64_t offsets[kMaxLayoutOperands];
          for (int op = 0; op < num_operands; ++op) {
            offsets[op] = outer_offsets[op] + i0 * layout.strides[op][0] + j * layout.strides[op][1];
          }
          run(offsets, length, inner_strides);
        }
      }
    }
    // Odometer over dims 2.., as in ForEachInnerRun.
    int dim = 2;
    for (; dim < layout.rank; ++dim) {
      if (++index[dim] < layout.sizes[dim]) {
        for (int op = 0; op < num_operands; ++op) outer_offsets[op] += layout.strides[op][dim];
        break;
      }
      for (int op = 0; op < num_operands; ++op) {
        outer_offsets[op] -= layout.strides[op][dim] * (layout.sizes[dim] - 1);
      }
      index[dim] = 0;
    }
    if (dim >= layout.rank) return;
  }
}

// True if the layout is a transposed view that a two-dimensional block kernel
// handles better than runs: rank >= 2, operand 0 walks dim 0 no further than
// dim 1 (true after MakeStridedLayout) and every other operand walks dim 1 no
// further than dim 0 (its contiguous dim, or a broadcast).
bool InputsRunAlongDim1(const StridedLayout& layout);

// Calls plane(offsets, size0, size1, strides0, strides1) once per index of the
// dims above the two innermost: offsets[i] is operand i's element offset of the
// plane's first element, strides0[i] / strides1[i] its strides along dims 0 and
// 1. Needs rank >= 2.
template <typename PlaneFn>
void ForEachInnerPlane(const StridedLayout& layout, PlaneFn&& plane) {
  const int num_operands = layout.num_operands;
  int64_t offsets[kMaxLayoutOperands] = {};
  int64_t strides0[kMaxLayoutOperands] = {};
  int64_t strides1[kMaxLayoutOperands] = {};
  int64_t index[kMaxLayoutDims] = {};
  for (int op = 0; op < num_operands; ++op) {
    strides0[op] = layout.strides[op][0];
    strides1[op] = layout.strides[op][1];
  }
  for (;;) {
    plane(static_cast<const int64_t*>(offsets), layout.sizes[0], layout.sizes[1],
          static_cast<const int64_t*>(strides0), static_cast<const int64_t*>(strides1));
    // Odometer over dims 2.., as in ForEachInnerRun.
    int dim = 2;
    for (; dim < layout.rank; ++dim) {
      if (++index[dim] < layout.sizes[dim]) {
        for (int op = 0; op < num_operands; ++op) offsets[op] += layout.strides[op][dim];
        break;
      }
      for (int op = 0; op < num_operands; ++op) offsets[op] -= layout.strides[op][dim] * (layout.sizes[dim] - 1);
      index[dim] = 0;
    }
    if (dim >= layout.rank) return;
  }
}

}  // namespace aclcpu

#endif  // ACLCPU_ITER_STRIDED_LAYOUT_H_
