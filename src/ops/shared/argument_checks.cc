#include "ops/shared/argument_checks.h"

#include "common/dims_string.h"
#include "common/env.h"
#include "common/error_report.h"

namespace aclcpu {

aclnnStatus ReportTensorNotGiven(const char* api, const ElementwiseOperand* arguments, int count) {
  for (int i = 0; i < count; ++i) {
    if (arguments[i].tensor == nullptr) {
      return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: expected a tensor for argument %s but got null.", api,
                         arguments[i].name);
    }
  }
  for (int i = 0; i < count; ++i) {
    const aclnnStatus alive = CheckTensorAlive(arguments[i].tensor, api, arguments[i].name);
    if (alive != ACLNN_SUCCESS) return alive;
  }
  return ACLNN_SUCCESS;
}

aclnnStatus ReportUnknownSoc(const char* api) {
  return ReportError(ACLNN_ERR_INNER, "%s: ACLCPU_SOC=\"%s\" names no SoC aclcpu emulates; use one of: %s.", api,
                     GetEnv("ACLCPU_SOC"), KnownSocNames().c_str());
}

aclnnStatus ReportDtypeNotSupported(const char* api, const ElementwiseOperand& argument, const SocInfo& soc,
                                    const char* names) {
  return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, which %s (%s) does not support; supported dtypes: %s.",
                     api, argument.name, DtypeName(argument.tensor->dtype), soc.name, soc.product, names);
}

aclnnStatus ReportRanksOrShapes(const char* api, const ElementwiseOperand* arguments, int count, int reference,
                                int max_rank) {
  for (int i = 0; i < count; ++i) {
    const size_t rank = arguments[i].tensor->view_dims.size();
    if (rank > static_cast<size_t>(max_rank)) {
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has %zu dims; at most %d are supported.", api,
                         arguments[i].name, rank, max_rank);
    }
  }
  const ElementwiseOperand& expected = arguments[reference];
  for (int i = 0; i < count; ++i) {
    const ElementwiseOperand& other = arguments[i];
    if (other.tensor->view_dims == expected.tensor->view_dims) continue;
    return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the shape of %s %s must equal the shape of %s %s.", api,
                       expected.name, DimsString(expected.tensor->view_dims).c_str(), other.name,
                       DimsString(other.tensor->view_dims).c_str());
  }
  return ACLNN_SUCCESS;
}

}  // namespace aclcpu
