// aclcpu: the checks every elementwise operator applies to each view after
// CANN's documented ones: the view's own rules (measured when the tensor was
// described, meta/view_geometry.h) and, in strict mode, that the view lies in
// one live device allocation.
#ifndef ACLCPU_OPS_SHARED_VIEW_CHECKS_H_
#define ACLCPU_OPS_SHARED_VIEW_CHECKS_H_

#include <cstdint>

#include "aclnn/acl_meta.h"
#include "meta/tensor.h"

namespace aclcpu {

// Reports (161002, or 561000 for a problem this code does not know) the first
// rule `tensor`'s view breaks: CANN documents negative dims, strides and offsets
// as invalid; an extent must fit in 64 bits and lie inside the storage shape
// given to aclCreateTensor. `api` names the entry point in the message.
aclnnStatus ReportViewProblem(const char* api, const aclTensor* tensor, const char* name);

// Strict mode: a non-empty view must lie inside one live device allocation, as
// the NPU would otherwise read or write memory the tensor does not own (or fault
// on a host address). A null data address is left to phase 2, which reports it
// (repeatable executors may bind addresses only after phase 1).
aclnnStatus CheckViewInAllocation(const char* api, const aclTensor* tensor, const char* name, int64_t extent_bytes);

}  // namespace aclcpu

#endif  // ACLCPU_OPS_SHARED_VIEW_CHECKS_H_
