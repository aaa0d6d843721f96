// aclcpu: phase-1 argument checks of aclnnHardsigmoid and
// aclnnInplaceHardsigmoid, in CANN's order. Each check records a message naming
// the argument and the rule it broke.
#ifndef ACLCPU_OPS_HARDSIGMOID_CHECK_H_
#define ACLCPU_OPS_HARDSIGMOID_CHECK_H_

#include "aclnn/acl_meta.h"

namespace aclcpu {
namespace hardsigmoid {

// The entry points of each form, as messages name them.
struct EntryPoints {
  const char* phase1;
  const char* phase2;
};
constexpr EntryPoints kOutOfPlace = {"aclnnHardsigmoidGetWorkspaceSize", "aclnnHardsigmoid"};
constexpr EntryPoints kInPlace = {"aclnnInplaceHardsigmoidGetWorkspaceSize", "aclnnInplaceHardsigmoid"};

// CANN's documented checks, first failure wins (`api`: the phase-1 name the
// messages give; the in-place form passes self as out):
//   null self, out (in that order)                      -> 161001
//   self's dtype outside the SoC's list                 -> 161002
//   rank > 8; view shape of self != out                 -> 161002
//   dtype of self != out (no casting)                   -> 161002
//   storage format of self != out (equality only: torch_npu's NCHW/NCL
//   tensors pass as long as both agree)                 -> 161002
aclnnStatus CheckParams(const char* api, const aclTensor* self, const aclTensor* out);

}  // namespace hardsigmoid
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_CHECK_H_
