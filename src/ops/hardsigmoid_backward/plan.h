// aclcpu: the phase-1 decision for one aclnnHardsigmoidBackward call — dtype
// path and kernels, on top of the shared geometry (coalesced dims, thread
// split, staging; ops/shared/elementwise_plan.h). Phase 2 only executes it
// (ops/shared/elementwise_launch.h).
#ifndef ACLCPU_OPS_HARDSIGMOID_BACKWARD_PLAN_H_
#define ACLCPU_OPS_HARDSIGMOID_BACKWARD_PLAN_H_

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "ops/shared/elementwise_launch.h"
#include "ops/shared/elementwise_plan.h"

namespace aclcpu {
namespace hardsigmoid_backward {

// Operand order inside the plan: the output first (elementwise_plan.h).
enum Operand { kOut = 0, kGrad = 1, kSelf = 2, kNumOperands = 3 };

// Names, and the executor slots: inputs 0 = gradOutput, 1 = self; output 0 = out
// (the API's argument order).
extern const ElementwiseOpInfo kOpInfo;

struct Plan : ElementwisePlan<HardsigmoidBackwardRunFn> {
  static constexpr bool kHasTileKernel = true;
  HardsigmoidBackwardTileFn tile_kernel = nullptr;  // if set, used instead of `kernel` (transposed views)

  void Run(char* const* starts, const int64_t* strides, int64_t count) const {
    kernel(starts[kGrad], strides[kGrad], starts[kSelf], strides[kSelf], starts[kOut], strides[kOut], count);
  }
  void RunTile(char* const* starts, const int64_t* strides0, const int64_t* strides1, int64_t size0,
               int64_t size1) const {
    tile_kernel(starts[kGrad], strides0[kGrad], strides1[kGrad], starts[kSelf], strides0[kSelf], strides1[kSelf],
                starts[kOut], strides0[kOut], strides1[kOut], size0, size1, streaming);
  }
};

// Builds the plan for arguments that passed CheckParams. Refuses views CANN
// documents as invalid (negative dims, strides or offsets) or whose extent does
// not fit in 64 bits (161002), an out view whose elements may share memory
// (161002), in strict mode an out that overlaps an input other than in place
// (161002), a chip without this kernel (561003) and an out dtype we have no
// conversion to (561103).
// `operands`: out, gradOutput, self (Operand order), named as in messages.
aclnnStatus BuildPlan(const ElementwiseOperand* operands, Plan* plan);

}  // namespace hardsigmoid_backward
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_BACKWARD_PLAN_H_
