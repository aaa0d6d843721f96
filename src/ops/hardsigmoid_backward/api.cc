// aclcpu: the two entry points of aclnnHardsigmoidBackward. Thin by design:
// check (check.cc) -> plan (plan.cc) -> the shared executor
// (ops/shared/elementwise_launch.h) in phase 1; phase 2 is the
// operator-independent executor run of libnnopbase.
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "common/error_report.h"
#include "ops/hardsigmoid_backward/check.h"
#include "ops/hardsigmoid_backward/plan.h"
#include "ops/shared/elementwise_launch.h"
#include "ops/shared/meta_services.h"

extern "C" {

aclnnStatus aclnnHardsigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  using namespace aclcpu::hardsigmoid_backward;
  if (workspaceSize == nullptr || executor == nullptr) {
    return aclcpu::ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: workspaceSize and executor must not be null.",
                               kPhase1Name);
  }
  *executor = nullptr;
  const aclnnStatus status = CheckParams(gradOutput, self, out);
  if (status != ACLNN_SUCCESS) return status;
  const aclcpu::ElementwiseOperand operands[kNumOperands] = {{out, "out"}, {gradOutput, "gradOutput"}, {self, "self"}};
  return aclcpu::CreateElementwiseExecutor<Plan>(
      kOpInfo, operands, [&](Plan* plan) { return BuildPlan(operands, plan); }, workspaceSize,
      executor);
}

aclnnStatus aclnnHardsigmoidBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream) {
  return aclcpu::Meta().run_executor(workspace, workspaceSize, executor, stream);
}

}  // extern "C"
