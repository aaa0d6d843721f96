#include "ops/hardsigmoid_backward/check.h"

#include <initializer_list>
#include <string>
#include <utility>

#include "aclnn/opdev/op_errno.h"
#include "common/dtype.h"
#include "common/env.h"
#include "common/error_report.h"
#include "common/soc.h"
#include "meta/tensor.h"
#include "runtime/strict.h"

namespace aclcpu {
namespace hardsigmoid_backward {
namespace {

std::string ShapeString(const std::vector<int64_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += ",";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

aclnnStatus CheckNotNull(const aclTensor* grad, const aclTensor* self, const aclTensor* out) {
  const struct {
    const aclTensor* tensor;
    const char* name;
  } arguments[] = {{grad, "gradOutput"}, {self, "self"}, {out, "out"}};
  for (const auto& argument : arguments) {
    if (argument.tensor == nullptr) {
      return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: expected a tensor for argument %s but got null.",
                         kPhase1Name, argument.name);
    }
  }
  // Strict mode keeps destroyed tensors readable (marked dead) for a while, so
  // using one is reported here, right after the null checks. Elsewhere its
  // memory is already freed and cannot be looked at.
  if (StrictMode()) {
    for (const auto& argument : arguments) {
      const aclnnStatus alive = CheckTensorAlive(argument.tensor, kPhase1Name, argument.name);
      if (alive != ACLNN_SUCCESS) return alive;
    }
  }
  return ACLNN_SUCCESS;
}

// The operator's dtype list depends on the chip: BF16 only from the A2 class on.
bool IsSupportedInputDtype(aclDataType dtype, const SocInfo& soc) {
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || (dtype == ACL_BF16 && SocSupportsBf16(soc.family));
}

aclnnStatus CheckDtypes(const aclTensor* grad, const aclTensor* self, const aclTensor* out) {
  const SocInfo* soc = CurrentSoc();
  if (soc == nullptr) {
    return ReportError(ACLNN_ERR_INNER, "%s: ACLCPU_SOC=\"%s\" names no SoC aclcpu emulates; use one of: %s.",
                       kPhase1Name, GetEnv("ACLCPU_SOC"), KnownSocNames().c_str());
  }
  const char* supported = SocSupportsBf16(soc->family) ? "[DT_FLOAT, DT_FLOAT16, DT_BF16]" : "[DT_FLOAT, DT_FLOAT16]";
  for (const auto& [tensor, name] : {std::pair{grad, "gradOutput"}, std::pair{self, "self"}}) {
    if (!IsSupportedInputDtype(tensor->dtype, *soc)) {
      return ReportError(ACLNN_ERR_PARAM_INVALID,
                         "%s: %s has dtype %s, which %s (%s) does not support; supported dtypes: %s.", kPhase1Name,
                         name, DtypeName(tensor->dtype), soc->name, soc->product, supported);
    }
  }
  const aclDataType promoted = PromoteFloatingTypes(grad->dtype, self->dtype);
  if (!CanCast(promoted, out->dtype)) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: the result dtype %s (promoted from gradOutput %s and self %s) cannot be cast to out's "
                       "dtype %s.",
                       kPhase1Name, DtypeName(promoted), DtypeName(grad->dtype), DtypeName(self->dtype),
                       DtypeName(out->dtype));
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

aclnnStatus CheckShapes(const aclTensor* grad, const aclTensor* self, const aclTensor* out) {
  const struct {
    const aclTensor* tensor;
    const char* name;
  } arguments[] = {{grad, "gradOutput"}, {self, "self"}, {out, "out"}};
  for (const auto& argument : arguments) {
    if (argument.tensor->view_dims.size() > static_cast<size_t>(kMaxRank)) {
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has %zu dims; at most %d are supported.", kPhase1Name,
                         argument.name, argument.tensor->view_dims.size(), kMaxRank);
    }
  }
  for (const auto& argument : {arguments[0], arguments[2]}) {
    if (!SameDims(argument.tensor->view_dims, self->view_dims)) {
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: the shape of self %s must equal the shape of %s %s.",
                         kPhase1Name, ShapeString(self->view_dims).c_str(), argument.name,
                         ShapeString(argument.tensor->view_dims).c_str());
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace

aclnnStatus CheckParams(const aclTensor* grad, const aclTensor* self, const aclTensor* out) {
  aclnnStatus status = CheckNotNull(grad, self, out);
  if (status == ACLNN_SUCCESS) status = CheckDtypes(grad, self, out);
  if (status == ACLNN_SUCCESS) status = CheckShapes(grad, self, out);
  return status;
}

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
