// aclcpu: the argument checks CANN's operators share, each reporting 161001 or
// 161002 with a message naming the entry point, the argument and the rule. An
// operator calls them in its own documented order (ops/<op>/check.cc).
//
// Each check is an inline test of the accepted case, which every valid call
// takes, and an out-of-line report for the rest: a tiny call's phase 1 is
// mostly fixed cost, and these checks were a quarter of it as plain calls with
// the message code in between (bench/instruction_count).
#ifndef ACLCPU_OPS_SHARED_ARGUMENT_CHECKS_H_
#define ACLCPU_OPS_SHARED_ARGUMENT_CHECKS_H_

#include <cstdint>
#include <vector>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "common/dtype.h"
#include "common/soc.h"
#include "meta/tensor.h"
#include "ops/shared/elementwise_plan.h"

namespace aclcpu {

// The most dims an aclnn operator's tensors may have (CANN's documented limit).
constexpr int kMaxAclnnRank = 8;

// The reports behind the checks below, out of line.
aclnnStatus ReportTensorNotGiven(const char* api, const ElementwiseOperand* arguments, int count);
aclnnStatus ReportUnknownSoc(const char* api);
aclnnStatus ReportDtypeNotSupported(const char* api, const ElementwiseOperand& argument, const SocInfo& soc,
                                    const char* names);
aclnnStatus ReportRanksOrShapes(const char* api, const ElementwiseOperand* arguments, int count, int reference,
                                int max_rank);

// 161001 for the first null tensor, in the order given; then 161002 for the
// first destroyed one: destroyed tensors stay readable, marked dead, for a
// while (long in strict mode, a thread's last few otherwise), so using one is
// reported right after the null checks.
inline aclnnStatus CheckTensorsGiven(const char* api, const ElementwiseOperand* arguments, int count) {
  for (int i = 0; i < count; ++i) {
    const aclTensor* tensor = arguments[i].tensor;
    if (tensor == nullptr || tensor->magic != aclTensor::kLiveMagic) {
      return ReportTensorNotGiven(api, arguments, count);
    }
  }
  return ACLNN_SUCCESS;
}

// The emulated SoC in *soc; 561000 naming the SoCs we know when ACLCPU_SOC names
// none (operators' dtype lists depend on it).
inline aclnnStatus CheckSocKnown(const char* api, const SocInfo** soc) {
  *soc = CurrentSoc();
  return *soc != nullptr ? ACLNN_SUCCESS : ReportUnknownSoc(api);
}

// 161002 if `argument`'s dtype is not in `supported`; `names` lists the set for
// the message, e.g. "[DT_FLOAT, DT_FLOAT16]".
inline aclnnStatus CheckDtypeSupported(const char* api, const ElementwiseOperand& argument, const SocInfo& soc,
                                       DtypeSet supported, const char* names) {
  // The code as given (common/raw_enum.h): any int, which DtypeSet handles.
  if (supported.Has(argument.tensor->dtype)) return ACLNN_SUCCESS;
  return ReportDtypeNotSupported(api, argument, soc, names);
}

// The rank and shape rules, together: 161002 for the first argument with more
// than `max_rank` dims, then for the first argument (in the order given) whose
// view shape differs from that of arguments[reference].
inline aclnnStatus CheckRanksAndSameShape(const char* api, const ElementwiseOperand* arguments, int count,
                                          int reference, int max_rank) {
  const std::vector<int64_t>& reference_dims = arguments[reference].tensor->view_dims;
  const int64_t* const expected = reference_dims.data();
  const size_t rank = reference_dims.size();
  // Early exits to the report: as flags and-ed through the loops this took
  // twice the instructions.
  if (rank > static_cast<size_t>(max_rank)) goto report;
  for (int i = 0; i < count; ++i) {
    if (i == reference) continue;
    const std::vector<int64_t>& dims = arguments[i].tensor->view_dims;
    if (dims.size() != rank) goto report;
    for (size_t dim = 0; dim < rank; ++dim) {
      if (dims[dim] != expected[dim]) goto report;
    }
  }
  return ACLNN_SUCCESS;
report:
  return ReportRanksOrShapes(api, arguments, count, reference, max_rank);
}

}  // namespace aclcpu

#endif  // ACLCPU_OPS_SHARED_ARGUMENT_CHECKS_H_
