#include "ops/hardsigmoid/check.h"

#include "aclnn/opdev/op_errno.h"
#include "common/dtype.h"
#include "common/error_report.h"
#include "common/soc.h"
#include "meta/tensor.h"
#include "ops/shared/argument_checks.h"

namespace aclcpu {
namespace hardsigmoid {
namespace {

enum { kSelfArgument = 0, kOutArgument = 1, kNumArguments = 2 };

// CANN's lists: Atlas training and inference series FLOAT, FLOAT16, INT32; the
// A2/A3 class and later (Ascend910B*, Ascend910_93*, Ascend910_95) add BFLOAT16.
// Ours for the rest of our matrix: Ascend310P* and Ascend310B* as the inference
// series, without BFLOAT16 (common/soc.cc).
constexpr DtypeSet kDtypesWithBf16{ACL_FLOAT, ACL_FLOAT16, ACL_INT32, ACL_BF16};
constexpr DtypeSet kDtypesWithoutBf16{ACL_FLOAT, ACL_FLOAT16, ACL_INT32};

aclnnStatus CheckSelfDtype(const char* api, const ElementwiseOperand& self) {
  const SocInfo* soc = nullptr;
  const aclnnStatus status = CheckSocKnown(api, &soc);
  if (status != ACLNN_SUCCESS) return status;
  if (SocSupportsBf16(soc->family)) {
    return CheckDtypeSupported(api, self, *soc, kDtypesWithBf16, "[DT_FLOAT, DT_FLOAT16, DT_INT32, DT_BF16]");
  }
  return CheckDtypeSupported(api, self, *soc, kDtypesWithoutBf16, "[DT_FLOAT, DT_FLOAT16, DT_INT32]");
}

// No casting here (unlike the backward op): out has self's dtype.
aclnnStatus CheckSameDtype(const char* api, const aclTensor* self, const aclTensor* out) {
  if (self->dtype == out->dtype) return ACLNN_SUCCESS;
  return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: out has dtype %s, but it must have self's dtype %s.", api,
                     DtypeName(out->dtype), DtypeName(self->dtype));
}

// Equality only: an elementwise op reads any format as ND, so torch_npu's
// NCHW/NCL tensors pass as long as self and out agree.
aclnnStatus CheckSameFormat(const char* api, const aclTensor* self, const aclTensor* out) {
  if (self->format == out->format) return ACLNN_SUCCESS;
  return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: out has format %d, but it must have self's format %d.", api,
                     static_cast<int>(out->format), static_cast<int>(self->format));
}

}  // namespace

aclnnStatus CheckParams(const char* api, const aclTensor* self, const aclTensor* out) {
  const ElementwiseOperand arguments[kNumArguments] = {{self, "self"}, {out, "out"}};
  aclnnStatus status = CheckTensorsGiven(api, arguments, kNumArguments);
  if (status == ACLNN_SUCCESS) status = CheckSelfDtype(api, arguments[kSelfArgument]);
  if (status == ACLNN_SUCCESS) {
    status = CheckRanksAndSameShape(api, arguments, kNumArguments, kSelfArgument, kMaxAclnnRank);
  }
  if (status == ACLNN_SUCCESS) status = CheckSameDtype(api, self, out);
  if (status == ACLNN_SUCCESS) status = CheckSameFormat(api, self, out);
  return status;
}

}  // namespace hardsigmoid
}  // namespace aclcpu
