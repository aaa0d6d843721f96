// aclcpu: the part of an elementwise operator's phase-1 plan that does not
// depend on what the operator computes: how its views lie in memory, how the
// loops walk them (coalesced dims, tiles, thread split) and what workspace
// overlapping inputs need. Each operator adds its kernels (ops/<op>/plan.h) and
// runs the loops through elementwise_launch.h.
//
// Operands are numbered out first, then the inputs: the iterator walks operand
// 0 fastest-first (writes are the costlier stream).
#ifndef ACLCPU_OPS_SHARED_ELEMENTWISE_PLAN_H_
#define ACLCPU_OPS_SHARED_ELEMENTWISE_PLAN_H_

#include <cstdint>
#include <string>

#include "aclnn/acl_meta.h"
#include "iter/strided_layout.h"
#include "ops/shared/operand_overlap.h"

namespace aclcpu {

constexpr int kMaxElementwiseOperands = 3;
constexpr int kElementwiseOut = 0;  // operand 0 is the written view

// One operand as the API passed it, with the name messages use.
struct ElementwiseOperand {
  const aclTensor* tensor;
  const char* name;
};

struct ElementwiseGeometry {
  ElementwiseGeometry() {}  // leaves `layout` unconstructed (see there)

  int num_operands = 0;
  bool empty = false;    // some dim is 0: nothing to do
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
  int64_t element_size[kMaxElementwiseOperands] = {};
  int64_t view_offset_bytes[kMaxElementwiseOperands] = {};
  // Bytes from each tensor's data address to one past the last byte its view
  // touches: the device range phase 2 must be able to access.
  int64_t extent_bytes[kMaxElementwiseOperands] = {};
  // Bytes from each view's first element to one past the last byte it touches
  // (extent_bytes - view_offset_bytes): what overlap is judged on.
  int64_t span_bytes[kMaxElementwiseOperands] = {};
  // Whether each input puts its elements where out does (SameElementLayout): an
  // input at out's own address with this is an in-place operand.
  bool same_layout_as_out[kMaxElementwiseOperands] = {};
  // Inputs that overlap out other than in place, copied into the workspace when
  // the launch runs (ops/shared/operand_overlap.h).
  InputStaging staging;
  int64_t footprint_bytes = 0;  // bytes every view together moves (saturated)
  bool tiled = false;           // walk the two innermost dims in tiles (transposed views)
  int parts = 1;                // pieces the launch is split into, one per thread
  bool runs_inline = false;     // small enough to run on the launching thread when the stream is idle

  // Out written as one dense run (the inputs may step, as [::2] views do): where
  // streaming (non-temporal) kernels apply.
  bool OutIsOneDenseRun() const {
    return flat || (layout.rank == 1 && layout.strides[kElementwiseOut][0] == 1);
  }
  // Whether the launch is large enough for non-temporal stores to pay off.
  bool WorthStreaming() const;
};

// Step 1, right after CANN's checks: each view's own rules (view_checks.h), in
// strict mode that each lies in its device allocation (checked in the API's
// argument order, `api_order`: operand indices), and whether there is anything
// to do. Fills the per-operand sizes and offsets and `empty`.
aclnnStatus MeasureElementwiseViews(const char* api, const ElementwiseOperand* operands, int num_operands,
                                    const int* api_order, ElementwiseGeometry* geometry);

// Step 2, for a non-empty call after the operator chose its kernels: out's
// elements must be distinct memory; inputs that overlap out other than in place
// are staged (strict mode: refused); then the loops: coalesced dims, tiling,
// thread split, inline runs. The shapes are equal (CANN's checks).
aclnnStatus PlanElementwiseLoops(const char* api, const ElementwiseOperand* operands, int num_operands,
                                 ElementwiseGeometry* geometry);

// "elements=... coalesced=[...] path=... isa=... threads=..." and the staged
// inputs, for the ACLCPU_VERBOSE plan line; `isa`: the SIMD target's name.
std::string DescribeElementwiseGeometry(const ElementwiseGeometry& geometry, const ElementwiseOperand* operands,
                                        const char* isa);

}  // namespace aclcpu

#endif  // ACLCPU_OPS_SHARED_ELEMENTWISE_PLAN_H_
