#include "ops/shared/operand_overlap.h"

#include "aclnn/opdev/op_errno.h"
#include "common/dims_string.h"
#include "common/error_report.h"

namespace aclcpu {

aclnnStatus RefuseSharedOutElements(const char* api, const char* out_name, const aclTensor& out) {
  return ReportError(ACLNN_ERR_PARAM_INVALID,
                     "%s: %s's view (shape %s, strides %s) may hold several elements in one memory location, and "
                     "there is no single right value to write there. The rule: with the dims of more than one "
                     "index ordered by stride, each stride must exceed the largest offset the dims before it reach "
                     "together (a zero stride breaks it; so do a few views whose elements never meet).",
                     api, out_name, DimsString(out.view_dims).c_str(), DimsString(out.strides).c_str());
}

aclnnStatus RefusePartialOverlap(const char* api, const char* out_name, const char* input_name, ByteSpan out,
                                 ByteSpan input, PartialOverlapCause cause) {
  const char* why = cause == PartialOverlapCause::kStrictMode
                        ? "the kernels would read elements they already overwrote, so strict mode reports this as "
                          "the likely bug it is (outside strict mode the input is copied into workspace first)"
                        : "the kernels would read elements they already overwrote, and phase 1, which saw other "
                          "addresses, reserved no workspace to copy the input into: run phase 1 again with these "
                          "addresses";
  return ReportError(ACLNN_ERR_PARAM_INVALID,
                     "%s: %s's view (bytes %p..+%llu) overlaps %s's view (bytes %p..+%llu) without being the same "
                     "elements: %s.",
                     api, out_name, reinterpret_cast<void*>(out.begin), static_cast<unsigned long long>(out.bytes),
                     input_name, reinterpret_cast<void*>(input.begin), static_cast<unsigned long long>(input.bytes),
                     why);
}

}  // namespace aclcpu
