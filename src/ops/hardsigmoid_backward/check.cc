#include "ops/hardsigmoid_backward/check.h"

#include "aclnn/opdev/op_errno.h"
#include "common/dtype.h"
#include "common/error_report.h"
#include "common/soc.h"
#include "meta/tensor.h"
#include "ops/shared/argument_checks.h"

namespace aclcpu {
namespace hardsigmoid_backward {
namespace {

// The three arguments in the API's order.
enum { kGradArgument = 0, kSelfArgument = 1, kOutArgument = 2, kNumArguments = 3 };

// The operator's dtype list depends on the chip: BF16 only from the A2 class on.
constexpr DtypeSet kDtypesWithBf16{ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr DtypeSet kDtypesWithoutBf16{ACL_FLOAT, ACL_FLOAT16};

aclnnStatus CheckDtypes(const ElementwiseOperand* arguments) {
  const SocInfo* soc = nullptr;
  aclnnStatus status = CheckSocKnown(kPhase1Name, &soc);
  if (status != ACLNN_SUCCESS) return status;
  const bool bf16 = SocSupportsBf16(soc->family);
  const DtypeSet supported = bf16 ? kDtypesWithBf16 : kDtypesWithoutBf16;
  const char* const names = bf16 ? "[DT_FLOAT, DT_FLOAT16, DT_BF16]" : "[DT_FLOAT, DT_FLOAT16]";
  status = CheckDtypeSupported(kPhase1Name, arguments[kGradArgument], *soc, supported, names);
  if (status != ACLNN_SUCCESS) return status;
  status = CheckDtypeSupported(kPhase1Name, arguments[kSelfArgument], *soc, supported, names);
  if (status != ACLNN_SUCCESS) return status;
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

// The rank limit for all three, then gradOutput's and out's shapes against self's.
aclnnStatus CheckShapes(const ElementwiseOperand* arguments) {
  return CheckRanksAndSameShape(kPhase1Name, arguments, kNumArguments, kSelfArgument, kMaxAclnnRank);
}

}  // namespace

aclnnStatus CheckParams(const aclTensor* grad, const aclTensor* self, const aclTensor* out) {
  const ElementwiseOperand arguments[kNumArguments] = {{grad, "gradOutput"}, {self, "self"}, {out, "out"}};
  aclnnStatus status = CheckTensorsGiven(kPhase1Name, arguments, kNumArguments);
  if (status == ACLNN_SUCCESS) status = CheckDtypes(arguments);
  if (status == ACLNN_SUCCESS) status = CheckShapes(arguments);
  return status;
}

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
