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

}  // namespace aclcpu

#endif  // ACLCPU_ITER_STRIDED_LAYOUT_H_
