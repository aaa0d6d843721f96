#include "ops/hardsigmoid_backward/check.h"

#include <initializer_list>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "common/dims_string.h"
#include "common/dtype.h"
#include "common/env.h"
#include "common/error_report.h"
#include "common/soc.h"
#include "meta/tensor.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace hardsigmoid_backward {
namespace {

// The three arguments in the API's order, with the names messages use.
struct Argument {
  const aclTensor* tensor;
  const char* name;
};
enum { kGradArgument = 0, kSelfArgument = 1, kOutArgument = 2, kNumArguments = 3 };

aclnnStatus CheckNotNull(const Argument* arguments) {
  for (int i = 0; i < kNumArguments; ++i) {
    if (arguments[i].tensor == nullptr) {
      return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: expected a tensor for argument %s but got null.",
                         kPhase1Name, arguments[i].name);
    }
  }
  // Destroyed tensors stay readable, marked dead, for a while (long in strict
  // mode, a thread's last few otherwise), so using one is reported here, right
  // after the null checks.
  for (int i = 0; i < kNumArguments; ++i) {
    const aclnnStatus alive = CheckTensorAlive(arguments[i].tensor, kPhase1Name, arguments[i].name);
    if (alive != ACLNN_SUCCESS) return alive;
  }
  return ACLNN_SUCCESS;
}

// The operator's dtype list depends on the chip: BF16 only from the A2 class on.
bool IsSupportedInputDtype(int32_t dtype, const SocInfo& soc) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || (dtype == ACL_BF16 && SocSupportsBf16(soc.family));
}

aclnnStatus CheckDtypes(const Argument* arguments) {
  const SocInfo* soc = CurrentSoc();
  if (soc == nullptr) {
    return ReportError(ACLNN_ERR_INNER, "%s: ACLCPU_SOC=\"%s\" names no SoC aclcpu emulates; use one of: %s.",
                       kPhase1Name, GetEnv("ACLCPU_SOC"), KnownSocNames().c_str());
  }
  for (const int i : {kGradArgument, kSelfArgument}) {
    const aclTensor* tensor = arguments[i].tensor;
    if (!IsSupportedInputDtype(tensor->dtype, *soc)) {
      return ReportError(ACLNN_ERR_PARAM_INVALID,
                         "%s: %s has dtype %s, which %s (%s) does not support; supported dtypes: %s.", kPhase1Name,
                         arguments[i].name, DtypeName(tensor->dtype), soc->name, soc->product,
                         SocSupportsBf16(soc->family) ? "[DT_FLOAT, DT_FLOAT16, DT_BF16]" : "[DT_FLOAT, DT_FLOAT16]");
    }
  }
  // Dtype codes as given (common/raw_enum.h): out's may be any int.
  const int32_t grad = arguments[kGradArgument].tensor->dtype;
  const int32_t self = arguments[kSelfArgument].tensor->dtype;
  const int32_t out = arguments[kOutArgument].tensor->dtype;
  const aclDataType promoted = PromoteFloatingTypes(grad, self);
  if (!CanCast(promoted, out)) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: the result dtype %s (promoted from gradOutput %s and self %s) cannot be cast to out's "
                       "dtype %s.",
                       kPhase1Name, DtypeName(promoted), DtypeName(grad), DtypeName(self), DtypeName(out));
  }
  return ACLNN_SUCCESS;
}

bool SameDims(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t rank = a.size();
  if (b.size() != rank) return false;
  for (size_t dim = 0; dim < rank; ++dim) {
    if (a[dim] != b[dim]) return false;
  }
  return true;
}

aclnnStatus CheckShapes(const Argument* arguments) {
  for (int i = 0; i < kNumArguments; ++i) {
    const size_t rank = arguments[i].tensor->view_dims.size();
    if (rank > static_cast<size_t>(kMaxRank)) {
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has %zu dims; at most %d are supported.", kPhase1Name,
                         arguments[i].name, rank, kMaxRank);
    }
  }
  const std::vector<int64_t>& self_dims = arguments[kSelfArgument].tensor->view_dims;
  for (const int i : {kGradArgument, kOutArgument}) {
    const std::vector<int64_t>& dims = arguments[i].tensor->view_dims;
    if (!SameDims(dims, self_dims)) {
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the shape of self %s must equal the shape of %s %s.",
                         kPhase1Name, DimsString(self_dims).c_str(), arguments[i].name, DimsString(dims).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus CheckParams(const aclTensor* grad, const aclTensor* self, const aclTensor* out) {
  const Argument arguments[kNumArguments] = {{grad, "gradOutput"}, {self, "self"}, {out, "out"}};
  aclnnStatus status = CheckNotNull(arguments);
  if (status == ACLNN_SUCCESS) status = CheckDtypes(arguments);
  if (status == ACLNN_SUCCESS) status = CheckShapes(arguments);
  return status;
}

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
