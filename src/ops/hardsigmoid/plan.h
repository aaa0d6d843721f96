// aclcpu: the phase-1 decision for one aclnnHardsigmoid or
// aclnnInplaceHardsigmoid call — the kernel for self's dtype, on top of the
// shared geometry (ops/shared/elementwise_plan.h). Phase 2 only executes it
// (ops/shared/elementwise_launch.h).
#ifndef ACLCPU_OPS_HARDSIGMOID_PLAN_H_
#define ACLCPU_OPS_HARDSIGMOID_PLAN_H_

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "ops/hardsigmoid/kernel.h"
#include "ops/shared/elementwise_launch.h"
#include "ops/shared/elementwise_plan.h"

namespace aclcpu {
namespace hardsigmoid {

// Operand order inside the plan: the output first (elementwise_plan.h).
enum Operand { kOut = 0, kSelf = 1, kNumOperands = 2 };

// aclnnHardsigmoid's executor: input 0 = self, output 0 = out.
extern const ElementwiseOpInfo kOpInfo;
// aclnnInplaceHardsigmoid's: input 0 = self as read, output 0 = self as
// written. Phase 1 binds both to self's address; rebinding both keeps the call
// in place, rebinding one makes it read one buffer and write the other (with
// the overlap rules of the out-of-place form).
extern const ElementwiseOpInfo kInplaceOpInfo;

struct Plan : ElementwisePlan<RunFn> {
  static constexpr bool kHasTileKernel = true;
  TileFn tile_kernel = nullptr;  // if set, used instead of `kernel` (transposed views)

  void Run(char* const* starts, const int64_t* strides, int64_t count) const {
    kernel(starts[kSelf], strides[kSelf], starts[kOut], strides[kOut], count);
  }
  void RunTile(char* const* starts, const int64_t* strides0, const int64_t* strides1, int64_t size0,
               int64_t size1) const {
    tile_kernel(starts[kSelf], strides0[kSelf], strides1[kSelf], starts[kOut], strides0[kOut], strides1[kOut], size0,
                size1, streaming);
  }
};

// Builds the plan for arguments that passed CheckParams (`info`: which form).
// Refuses views CANN documents as invalid (negative dims, strides or offsets) or
// whose extent does not fit in 64 bits (161002), an out view whose elements may
// share memory (161002) and, in strict mode, an out that overlaps self other
// than in place (161002).
// `operands`: out, self (Operand order), named by `info`.
aclnnStatus BuildPlan(const ElementwiseOpInfo& info, const ElementwiseOperand* operands, Plan* plan);

}  // namespace hardsigmoid
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_PLAN_H_
