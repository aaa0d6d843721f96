// aclcpu: the argument checks CANN's operators share, each reporting 161001 or
// 161002 with a message naming the entry point, the argument and the rule. An
// operator calls them in its own documented order (ops/<op>/check.cc).
#ifndef ACLCPU_OPS_SHARED_ARGUMENT_CHECKS_H_
#define ACLCPU_OPS_SHARED_ARGUMENT_CHECKS_H_

#include "aclnn/acl_meta.h"
#include "common/soc.h"
#include "ops/shared/elementwise_plan.h"

namespace aclcpu {

// The most dims an aclnn operator's tensors may have (CANN's documented limit).
constexpr int kMaxAclnnRank = 8;

// 161001 for the first null tensor, in the order given; then 161002 for the
// first destroyed one: destroyed tensors stay readable, marked dead, for a
// while (long in strict mode, a thread's last few otherwise), so using one is
// reported right after the null checks.
aclnnStatus CheckTensorsGiven(const char* api, const ElementwiseOperand* arguments, int count);

// The emulated SoC in *soc; 561000 naming the SoCs we know when ACLCPU_SOC names
// none (operators' dtype lists depend on it).
aclnnStatus CheckSocKnown(const char* api, const SocInfo** soc);

// 161002 if `argument`'s dtype is not in `supported` (dtype codes; `names`
// lists them for the message, e.g. "[DT_FLOAT, DT_FLOAT16]").
aclnnStatus CheckDtypeSupported(const char* api, const ElementwiseOperand& argument, const SocInfo& soc,
                                const aclDataType* supported, int count, const char* names);

// 161002 for the first argument with more than `max_rank` dims.
aclnnStatus CheckMaxRank(const char* api, const ElementwiseOperand* arguments, int count, int max_rank);

// 161002 if `other`'s view shape differs from `reference`'s.
aclnnStatus CheckSameShape(const char* api, const ElementwiseOperand& reference, const ElementwiseOperand& other);

}  // namespace aclcpu

#endif  // ACLCPU_OPS_SHARED_ARGUMENT_CHECKS_H_
