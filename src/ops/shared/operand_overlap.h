// aclcpu: how the view an operator writes meets, in memory, the views it reads.
// Shared by every elementwise operator; these rules are ours, beyond CANN's
// documented checks, so operators apply them after CANN's.
//
//  - The written view must have distinct elements (ViewGeometry::elements_distinct):
//    there is no single right value to leave in an element written twice.
//  - An input whose bytes do not meet the written view's is read as is.
//  - An input that is the written view itself (same first byte, element size
//    and strides: an in-place call) is read as is too: every kernel reads an
//    element before it writes that element, and no kernel writes one element
//    before reading another, so the answer is the out-of-place one.
//  - Any other overlap (a transposed view of the same buffer, the same buffer
//    shifted by a few elements, a broadcast input inside out) would let the
//    kernels read elements they already overwrote, so the answer would depend
//    on the order of the loops and on the thread split. Such an input is copied
//    into workspace before the kernels run, which gives what reading every
//    input before writing anything gives (and what CANN's computing into a
//    buffer of its own and copying into out gives). Strict mode refuses it
//    instead, as the likely bug it is.
//
// Phase 1 decides with the data addresses it is given; phase 2 checks again
// with the addresses bound then (repeatable executors may rebind them), and
// refuses an overlap phase 1 reserved no workspace for.
#ifndef ACLCPU_OPS_SHARED_OPERAND_OVERLAP_H_
#define ACLCPU_OPS_SHARED_OPERAND_OVERLAP_H_

#include <cstdint>
#include <cstring>

#include "aclnn/acl_meta.h"
#include "meta/tensor.h"

namespace aclcpu {

enum class Overlap : uint8_t {
  kDisjoint,      // no byte in common
  kSameElements,  // the same elements: in place
  kPartial,       // anything else that shares a byte
};

// The bytes a view touches: from its first element (index 0) on, `bytes` long.
struct ByteSpan {
  uintptr_t begin = 0;
  uint64_t bytes = 0;
};

inline ByteSpan ViewSpan(const void* view_start, int64_t bytes) {
  return ByteSpan{reinterpret_cast<uintptr_t>(view_start), static_cast<uint64_t>(bytes)};
}

inline bool SpansMeet(ByteSpan a, ByteSpan b) { return a.begin < b.begin + b.bytes && b.begin < a.begin + a.bytes; }

// `same_layout`: SameElementLayout of the two tensors (phase 1 computes it once).
inline Overlap ClassifyOverlap(ByteSpan written, ByteSpan read, bool same_layout) {
  if (!SpansMeet(written, read)) return Overlap::kDisjoint;
  return read.begin == written.begin && same_layout ? Overlap::kSameElements : Overlap::kPartial;
}

// True if views `a` and `b` of one shape put element i at the same byte offset
// from their first elements for every i: equal element sizes and equal strides
// in every dim of more than one index.
inline bool SameElementLayout(const aclTensor& a, const aclTensor& b) {
  if (a.geometry.element_size != b.geometry.element_size) return false;
  if (a.geometry.row_major && b.geometry.row_major) return true;
  for (size_t dim = 0; dim < a.view_dims.size(); ++dim) {
    if (a.view_dims[dim] > 1 && a.strides[dim] != b.strides[dim]) return false;
  }
  return true;
}

// Workspace for inputs copied before a launch (the partial overlaps of phase 1).
struct InputStaging {
  static constexpr int kMaxOperands = 4;
  // Byte offset of each operand's copy in the workspace; -1: read in place.
  int64_t offset[kMaxOperands] = {-1, -1, -1, -1};
  uint64_t workspace_bytes = 0;

  bool any() const { return workspace_bytes != 0; }

  // Reserves a copy of `bytes` for operand `op`, 64-byte aligned like device memory.
  void Reserve(int op, int64_t bytes) {
    offset[op] = static_cast<int64_t>(workspace_bytes);
    workspace_bytes += (static_cast<uint64_t>(bytes) + 63) & ~uint64_t{63};
  }

  // When the launch runs (after the work queued before it): copies each staged
  // operand's span into `workspace` and points its view start at the copy. The
  // copy has the view's own layout, so the kernels run unchanged on it.
  void CopyIn(char* workspace, const int64_t* span_bytes, int num_operands, char** view_starts) const {
    for (int op = 0; op < num_operands; ++op) {
      if (offset[op] < 0) continue;
      char* copy = workspace + offset[op];
      std::memcpy(copy, view_starts[op], static_cast<size_t>(span_bytes[op]));
      view_starts[op] = copy;
    }
  }
};

// 161002 with a message: `out_name`'s view breaks ViewGeometry::elements_distinct.
aclnnStatus RefuseSharedOutElements(const char* api, const char* out_name, const aclTensor& out);

enum class PartialOverlapCause : uint8_t {
  kStrictMode,        // strict mode refuses what default mode stages
  kRebindAfterPhase1,  // addresses bound after phase 1 overlap, with no workspace reserved
};

// 161002 with a message: `input_name` overlaps `out_name` other than in place.
aclnnStatus RefusePartialOverlap(const char* api, const char* out_name, const char* input_name, ByteSpan out,
                                 ByteSpan input, PartialOverlapCause cause);

}  // namespace aclcpu

#endif  // ACLCPU_OPS_SHARED_OPERAND_OVERLAP_H_
