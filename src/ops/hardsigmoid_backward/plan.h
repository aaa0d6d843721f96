// aclcpu: the phase-1 decision for one aclnnHardsigmoidBackward call — dtype
// path, coalesced geometry, workspace size. Phase 2 only executes it.
#ifndef ACLCPU_OPS_HARDSIGMOID_BACKWARD_PLAN_H_
#define ACLCPU_OPS_HARDSIGMOID_BACKWARD_PLAN_H_

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "iter/strided_layout.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "ops/shared/operand_overlap.h"

namespace aclcpu {
namespace hardsigmoid_backward {

// Operand order inside the plan: the output first, so the iterator walks it
// fastest-first (writes are the costlier stream).
enum Operand { kOut = 0, kGrad = 1, kSelf = 2, kNumOperands = 3 };

struct Plan {
  Plan() {}  // leaves `layout` unconstructed (see there)

  bool empty = false;  // some dim is 0: nothing to do
  int64_t elements = 0;  // elements of each view
  bool flat = false;     // one run of `elements` with unit strides in every operand
  // The coalesced dims, read only when !flat (and !empty). A flat plan, which
  // every dense call has, never constructs it: zeroing its 264 bytes took a
  // tenth of a tiny call (~6 ns of ~60, a `rep stos`). In a union so that the
  // constructor can skip it; copying a plan copies the union's bytes, which is
  // defined whether or not the layout was constructed.
  union {
    StridedLayout layout;
  };
  int64_t element_size[kNumOperands] = {};
  int64_t view_offset_bytes[kNumOperands] = {};
  // Bytes from each tensor's data address to one past the last byte its view
  // touches: the device range phase 2 must be able to access.
  int64_t extent_bytes[kNumOperands] = {};
  // Bytes from each view's first element to one past the last byte it touches
  // (extent_bytes - view_offset_bytes): what overlap is judged on.
  int64_t span_bytes[kNumOperands] = {};
  // Whether each input puts its elements where out does (SameElementLayout): an
  // input at out's own address with this is an in-place operand.
  bool same_layout_as_out[kNumOperands] = {};
  // Inputs that overlap out other than in place, copied into the workspace when
  // the launch runs (ops/shared/operand_overlap.h).
  InputStaging staging;
  int64_t target = 0;  // the SIMD target the kernel was chosen for
  bool streaming = false;  // the kernel uses non-temporal stores (huge contiguous outputs)
  bool tiled = false;  // walk the two innermost dims in tiles (transposed views)
  int parts = 1;       // pieces the launch is split into, one per thread
  bool runs_inline = false;  // small enough to run on the launching thread when the stream is idle
  HardsigmoidBackwardRunFn kernel = nullptr;
  HardsigmoidBackwardTileFn tile_kernel = nullptr;  // if set, used instead of `kernel` (transposed views)
  // Only staged inputs need device workspace (staging.workspace_bytes); a CPU
  // needs none otherwise.
  uint64_t workspace_size = 0;
};

// Builds the plan for arguments that passed CheckParams. Refuses views CANN
// documents as invalid (negative dims, strides or offsets) or whose extent does
// not fit in 64 bits (161002), an out view whose elements may share memory
// (161002), in strict mode an out that overlaps an input other than in place
// (161002), a chip without this kernel (561003) and an out dtype we have no
// conversion to (561103).
aclnnStatus BuildPlan(const aclTensor* grad, const aclTensor* self, const aclTensor* out, Plan* plan);

}  // namespace hardsigmoid_backward
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_BACKWARD_PLAN_H_
