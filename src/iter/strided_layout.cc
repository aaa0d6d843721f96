#include "iter/strided_layout.h"

#include <cstdlib>

namespace aclcpu {

bool StridedLayout::IsFlatContiguous() const {
  if (rank == 0) return true;
  if (rank > 1) return false;
  for (int op = 0; op < num_operands; ++op) {
    if (strides[op][0] != 1) return false;
  }
  return true;
}

int64_t StridedLayout::NumElements() const {
  int64_t count = 1;
  for (int dim = 0; dim < rank; ++dim) count *= sizes[dim];
  return count;
}

namespace {

// Orders dim a before dim b (a is "more inner") if operand 0 moves less along a;
// ties are broken by the next operands, so a broadcast (stride-0) output dim does
// not decide the order alone.
bool IsInnerThan(const StridedLayout& layout, int a, int b) {
  for (int op = 0; op < layout.num_operands; ++op) {
    const int64_t stride_a = std::llabs(layout.strides[op][a]);
    const int64_t stride_b = std::llabs(layout.strides[op][b]);
    if (stride_a != stride_b) return stride_a < stride_b;
  }
  return false;
}

void SwapDims(StridedLayout* layout, int a, int b) {
  const int64_t size = layout->sizes[a];
  layout->sizes[a] = layout->sizes[b];
  layout->sizes[b] = size;
  for (int op = 0; op < layout->num_operands; ++op) {
    const int64_t stride = layout->strides[op][a];
    layout->strides[op][a] = layout->strides[op][b];
    layout->strides[op][b] = stride;
  }
}

}  // namespace

StridedLayout MakeStridedLayout(int rank, const int64_t* sizes, int num_operands, const int64_t* const* strides) {
  StridedLayout layout;
  layout.num_operands = num_operands;
  // Reverse to innermost-first and drop size-1 dims: they move no operand.
  for (int dim = rank - 1; dim >= 0; --dim) {
    if (sizes[dim] == 1) continue;
    layout.sizes[layout.rank] = sizes[dim];
    for (int op = 0; op < num_operands; ++op) layout.strides[op][layout.rank] = strides[op][dim];
    ++layout.rank;
  }
  // Stable insertion sort (at most 8 dims): keeps the given order among ties.
  for (int i = 1; i < layout.rank; ++i) {
    for (int j = i; j > 0 && IsInnerThan(layout, j, j - 1); --j) SwapDims(&layout, j, j - 1);
  }
  // Merge dim d+1 into the run kept so far when every operand steps over the run
  // exactly as one more repetition of it.
  int kept = 0;
  for (int dim = 1; dim < layout.rank; ++dim) {
    bool mergeable = true;
    for (int op = 0; op < num_operands && mergeable; ++op) {
      mergeable = layout.strides[op][dim] == layout.strides[op][kept] * layout.sizes[kept];
    }
    if (mergeable) {
      layout.sizes[kept] *= layout.sizes[dim];
      continue;
    }
    ++kept;
    layout.sizes[kept] = layout.sizes[dim];
    for (int op = 0; op < num_operands; ++op) layout.strides[op][kept] = layout.strides[op][dim];
  }
  if (layout.rank > 0) layout.rank = kept + 1;
  return layout;
}

StridedLayout SliceOuterDim(const StridedLayout& layout, int64_t begin, int64_t end, int64_t* base_offsets) {
  StridedLayout part = layout;
  if (layout.rank == 0) {
    for (int op = 0; op < layout.num_operands; ++op) base_offsets[op] = 0;
    return part;
  }
  const int outer = layout.rank - 1;
  part.sizes[outer] = end - begin;
  for (int op = 0; op < layout.num_operands; ++op) base_offsets[op] = begin * layout.strides[op][outer];
  return part;
}

bool BenefitsFromTiling(const StridedLayout& layout) {
  if (layout.rank < 2) return false;
  for (int op = 0; op < layout.num_operands; ++op) {
    // A zero stride along dim 1 is a broadcast (the same row read again), not
    // a transposed walk: straight runs along dim 0 already suit it.
    const int64_t along_dim1 = std::llabs(layout.strides[op][1]);
    if (along_dim1 != 0 && along_dim1 < std::llabs(layout.strides[op][0])) return true;
  }
  return false;
}

bool InputsRunAlongDim1(const StridedLayout& layout) {
  if (layout.rank < 2 || layout.num_operands < 1) return false;
  if (std::llabs(layout.strides[0][0]) > std::llabs(layout.strides[0][1])) return false;
  for (int op = 1; op < layout.num_operands; ++op) {
    if (std::llabs(layout.strides[op][1]) > std::llabs(layout.strides[op][0])) return false;
  }
  return true;
}

}  // namespace aclcpu
