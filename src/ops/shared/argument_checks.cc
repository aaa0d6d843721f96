#include "ops/shared/argument_checks.h"

#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "common/dims_string.h"
#include "common/dtype.h"
#include "common/env.h"
#include "common/error_report.h"
#include "meta/tensor.h"

namespace aclcpu {
namespace {

bool SameDims(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  const size_t rank = a.size();
  if (b.size() != rank) return false;
  for (size_t dim = 0; dim < rank; ++dim) {
    if (a[dim] != b[dim]) return false;
  }
  return true;
}

}  // namespace

aclnnStatus CheckTensorsGiven(const char* api, const ElementwiseOperand* arguments, int count) {
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

aclnnStatus CheckSocKnown(const char* api, const SocInfo** soc) {
  *soc = CurrentSoc();
  if (*soc != nullptr) return ACLNN_SUCCESS;
  return ReportError(ACLNN_ERR_INNER, "%s: ACLCPU_SOC=\"%s\" names no SoC aclcpu emulates; use one of: %s.", api,
                     GetEnv("ACLCPU_SOC"), KnownSocNames().c_str());
}

aclnnStatus CheckDtypeSupported(const char* api, const ElementwiseOperand& argument, const SocInfo& soc,
                                const aclDataType* supported, int count, const char* names) {
  const int32_t dtype = argument.tensor->dtype;  // the code as given (common/raw_enum.h)
  for (int i = 0; i < count; ++i) {
    if (dtype == supported[i]) return ACLNN_SUCCESS;
  }
  return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has dtype %s, which %s (%s) does not support; supported dtypes: %s.",
                     api, argument.name, DtypeName(dtype), soc.name, soc.product, names);
}

aclnnStatus CheckMaxRank(const char* api, const ElementwiseOperand* arguments, int count, int max_rank) {
  for (int i = 0; i < count; ++i) {
    const size_t rank = arguments[i].tensor->view_dims.size();
    if (rank > static_cast<size_t>(max_rank)) {
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has %zu dims; at most %d are supported.", api,
                         arguments[i].name, rank, max_rank);
    }
  }
  return ACLNN_SUCCESS;
}

aclnnStatus CheckSameShape(const char* api, const ElementwiseOperand& reference, const ElementwiseOperand& other) {
  const std::vector<int64_t>& reference_dims = reference.tensor->view_dims;
  const std::vector<int64_t>& dims = other.tensor->view_dims;
  if (SameDims(dims, reference_dims)) return ACLNN_SUCCESS;
  return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the shape of %s %s must equal the shape of %s %s.", api,
                     reference.name, DimsString(reference_dims).c_str(), other.name, DimsString(dims).c_str());
}

}  // namespace aclcpu
