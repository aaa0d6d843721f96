// aclcpu: what a tensor's view (dims, strides, offset, storage shape, dtype)
// amounts to — its element count, whether it is dense, the bytes it spans — or
// which rule it breaks.
//
// Measured once, when aclCreateTensor or aclInitTensor describes the tensor, and
// kept in the aclTensor: an operator's phase 1 then reads the answer instead of
// walking every dim with overflow checks on every call (like the numel and
// contiguity PyTorch's TensorImpl keeps). A view's geometry depends only on
// what those two calls set; aclSetRawTensorAddr changes the data address alone.
// Operators still decide what a problem means and report it under their own
// argument names (the tensor API accepts any view, as CANN's does).
#ifndef ACLCPU_META_VIEW_GEOMETRY_H_
#define ACLCPU_META_VIEW_GEOMETRY_H_

#include <cstddef>
#include <cstdint>
#include <limits>

namespace aclcpu {

// The first rule a view breaks, in the order they are checked.
enum class ViewProblem : uint8_t {
  kNone = 0,
  kNegativeOffset,
  kNegativeSize,          // in dim problem_dim
  kNegativeStride,        // in dim problem_dim
  kExtentOverflow,        // the last element's index does not fit in 64 bits
  kElementCountOverflow,  // the product of the dims does not fit in 64 bits
  kInvalidStorageShape,   // a negative storage dim, or their product overflows
  kOutsideStorage,        // the last element lies beyond the storage shape
  kByteExtentOverflow,    // the extent or the offset in bytes does not fit in 64 bits
};

struct ViewGeometry {
  ViewProblem problem = ViewProblem::kNone;
  int problem_dim = 0;     // kNegativeSize, kNegativeStride
  bool empty = false;      // some dim is 0
  // Dense, outermost dim first: each stride (size-1 dims aside) is the product
  // of the sizes after it.
  bool row_major = false;
  // No two elements of the view lie at the same memory location, by the rule of
  // ElementsProvablyDistinct (a sufficient condition). Operators refuse to write
  // through a view without it. Always true for a row-major or empty view.
  bool elements_distinct = true;
  int64_t elements = 0;          // the view's element count (0 when empty)
  int64_t last_index = 0;        // element index of the view's last element (the offset when empty)
  int64_t storage_elements = 0;  // the storage shape's element count, -1 without a storage shape
  int64_t element_size = 0;      // bytes per element of the dtype
  int64_t offset_bytes = 0;
  int64_t extent_bytes = 0;  // from the data address to one past the last byte the view touches
};

// True if no two indices of the view (sizes and strides, non-negative, rank <=
// 8, extent known not to overflow) can reach the same element. Exact detection
// is a knapsack problem, so this is a sufficient rule, as PyTorch's
// has_internal_overlap is: with the dims of size > 1 ordered by stride, each
// stride must exceed the largest offset all the dims before it reach together.
// A zero stride, or strides that let two indices meet, fail it; so do some
// exotic interleaved views that never meet (e.g. sizes {2, 2}, strides {3, 2}:
// offsets 0, 2, 3, 5), which is the price of a check that costs a sort of at most
// eight dims.
// Up to kMaxDistinctCheckDims dims (a view's 8, and the two that
// ViewsOfOneLayoutProvablyDisjoint adds).
constexpr size_t kMaxDistinctCheckDims = 10;

inline bool ElementsProvablyDistinct(const int64_t* sizes, const int64_t* strides, size_t rank) {
  // Operators refuse more than 8 dims before asking; such a view is simply not
  // proven distinct here.
  if (rank > kMaxDistinctCheckDims) return false;
  int64_t sorted_strides[kMaxDistinctCheckDims];
  int64_t sorted_sizes[kMaxDistinctCheckDims];
  size_t count = 0;
  for (size_t dim = 0; dim < rank; ++dim) {
    if (sizes[dim] <= 1) continue;  // a dim of one index never makes two indices meet
    size_t at = count++;
    for (; at > 0 && sorted_strides[at - 1] > strides[dim]; --at) {
      sorted_strides[at] = sorted_strides[at - 1];
      sorted_sizes[at] = sorted_sizes[at - 1];
    }
    sorted_strides[at] = strides[dim];
    sorted_sizes[at] = sizes[dim];
  }
  int64_t reach = 0;  // the largest offset the dims so far reach together
  for (size_t i = 0; i < count; ++i) {
    if (sorted_strides[i] <= reach) return false;
    reach += (sorted_sizes[i] - 1) * sorted_strides[i];  // bounded by the view's extent: no overflow
  }
  return true;
}

// True if two views of one element layout — `rank` dims of `sizes` and
// `strides` (in elements) over elements of `element_size` bytes — whose first
// elements lie `distance` > 0 bytes apart provably share no byte. It is
// ElementsProvablyDistinct on bytes: the view's dims with strides in bytes, the
// bytes of one element as a dim (size element_size, stride 1), and the pair of
// views as a dim (size 2, stride distance); any byte both views touch would be
// two indices of that view meeting. Interleaved views of one buffer ([0::2] and
// [1::2]) pass; views shifted by less than their extent with unit strides do
// not. The strides and distance come from views whose byte extents fit in 64
// bits, so no product or sum here overflows.
inline bool ViewsOfOneLayoutProvablyDisjoint(const int64_t* sizes, const int64_t* strides, size_t rank,
                                             int64_t element_size, uint64_t distance) {
  if (rank + 2 > kMaxDistinctCheckDims || distance == 0 ||
      distance > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    return false;
  }
  int64_t byte_sizes[kMaxDistinctCheckDims] = {element_size, 2};
  int64_t byte_strides[kMaxDistinctCheckDims] = {1, static_cast<int64_t>(distance)};
  for (size_t dim = 0; dim < rank; ++dim) {
    byte_sizes[dim + 2] = sizes[dim];
    byte_strides[dim + 2] = sizes[dim] > 1 ? strides[dim] * element_size : 0;  // size-1 dims are skipped
  }
  return ElementsProvablyDistinct(byte_sizes, byte_strides, rank + 2);
}

// All arithmetic is overflow-checked: shapes come from the caller and may be
// absurd. Fields after the problem found keep their defaults.
inline ViewGeometry MeasureViewGeometry(const int64_t* sizes, const int64_t* strides, size_t rank, int64_t offset,
                                        const int64_t* storage_dims, size_t storage_rank, int64_t element_size) {
  ViewGeometry geometry;
  geometry.element_size = element_size;
  geometry.last_index = offset;
  geometry.storage_elements = storage_rank == 0 ? -1 : 0;
  if (offset < 0) {
    geometry.problem = ViewProblem::kNegativeOffset;
    return geometry;
  }
  for (size_t dim = 0; dim < rank; ++dim) {
    const int64_t size = sizes[dim];
    const int64_t stride = strides[dim];
    if (size < 0 || stride < 0) {
      geometry.problem = size < 0 ? ViewProblem::kNegativeSize : ViewProblem::kNegativeStride;
      geometry.problem_dim = static_cast<int>(dim);
      return geometry;
    }
    if (size == 0) geometry.empty = true;
    int64_t step = 0;
    if (size > 0 && (__builtin_mul_overflow(size - 1, stride, &step) ||
                     __builtin_add_overflow(geometry.last_index, step, &geometry.last_index))) {
      geometry.problem = ViewProblem::kExtentOverflow;
      return geometry;
    }
  }
  if (!geometry.empty) {
    // The element count must fit too: zero strides can keep the extent small
    // while the dims multiply past 2^63 (every loop counts elements in int64_t).
    // Walked innermost first, which also tells whether the view is row-major.
    int64_t elements = 1;
    bool row_major = true;
    for (size_t dim = rank; dim-- > 0;) {
      if (sizes[dim] != 1 && strides[dim] != elements) row_major = false;
      if (__builtin_mul_overflow(elements, sizes[dim], &elements)) {
        geometry.problem = ViewProblem::kElementCountOverflow;
        return geometry;
      }
    }
    geometry.row_major = row_major;
    geometry.elements = elements;
    geometry.elements_distinct = row_major || ElementsProvablyDistinct(sizes, strides, rank);
    // The view must lie inside the storage shape (when one was given): CANN
    // documents the storage as what the data address points to, so reading or
    // writing beyond it touches someone else's memory.
    if (storage_rank > 0) {
      int64_t storage_elements = 1;
      for (size_t dim = 0; dim < storage_rank; ++dim) {
        if (storage_dims[dim] < 0 || __builtin_mul_overflow(storage_elements, storage_dims[dim], &storage_elements)) {
          geometry.problem = ViewProblem::kInvalidStorageShape;
          return geometry;
        }
      }
      geometry.storage_elements = storage_elements;
      if (geometry.last_index >= storage_elements) {
        geometry.problem = ViewProblem::kOutsideStorage;
        return geometry;
      }
    }
  }
  int64_t extent_elements = 0;
  if (__builtin_add_overflow(geometry.last_index, 1, &extent_elements) ||
      __builtin_mul_overflow(extent_elements, element_size, &geometry.extent_bytes) ||
      __builtin_mul_overflow(offset, element_size, &geometry.offset_bytes)) {
    geometry.problem = ViewProblem::kByteExtentOverflow;
  }
  return geometry;
}

}  // namespace aclcpu

#endif  // ACLCPU_META_VIEW_GEOMETRY_H_
