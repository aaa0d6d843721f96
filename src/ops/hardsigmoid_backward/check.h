// aclcpu: phase-1 argument checks of aclnnHardsigmoidBackward, in CANN's order.
// Each check records a message naming the argument and the rule it broke.
#ifndef ACLCPU_OPS_HARDSIGMOID_BACKWARD_CHECK_H_
#define ACLCPU_OPS_HARDSIGMOID_BACKWARD_CHECK_H_

#include "aclnn/acl_meta.h"

namespace aclcpu {
namespace hardsigmoid_backward {

constexpr const char* kPhase1Name = "aclnnHardsigmoidBackwardGetWorkspaceSize";
constexpr const char* kPhase2Name = "aclnnHardsigmoidBackward";

// CANN's documented checks, first failure wins:
//   null gradOutput, self, out (in that order)              -> 161001
//   gradOutput, then self dtype outside the SoC's list       -> 161002
//   promoted(gradOutput, self) not castable to out's dtype   -> 161002
//   rank > 8; view shape of self != gradOutput or != out     -> 161002
// No format check: torch_npu passes NCL/NCHW/NCDHW for 3/4/5-D tensors, and an
// elementwise op reads them as ND.
aclnnStatus CheckParams(const aclTensor* grad, const aclTensor* self, const aclTensor* out);

}  // namespace hardsigmoid_backward
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_BACKWARD_CHECK_H_
