// aclcpu: the four entry points of aclnnHardsigmoid and aclnnInplaceHardsigmoid.
// Thin by design: check (check.cc) -> plan (plan.cc) -> the shared executor
// (ops/shared/elementwise_launch.h) in phase 1; phase 2 is the
// operator-independent executor run of libnnopbase. The in-place form is the
// out-of-place one with out = self.
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "common/error_report.h"
#include "ops/hardsigmoid/check.h"
#include "ops/hardsigmoid/plan.h"
#include "ops/shared/elementwise_launch.h"
#include "ops/shared/meta_services.h"

namespace aclcpu {
namespace hardsigmoid {
namespace {

aclnnStatus Phase1(const ElementwiseOpInfo& info, const aclTensor* self, const aclTensor* out,
                   uint64_t* workspace_size, aclOpExecutor** executor) {
  if (workspace_size == nullptr || executor == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: workspaceSize and executor must not be null.", info.phase1_name);
  }
  *executor = nullptr;
  const aclnnStatus status = CheckParams(info.phase1_name, self, out);
  if (status != ACLNN_SUCCESS) return status;
  const ElementwiseOperand operands[kNumOperands] = {{out, info.names[kOut]}, {self, info.names[kSelf]}};
  return CreateElementwiseExecutor<Plan>(
      info, operands, [&](Plan* plan) { return BuildPlan(info, operands, plan); }, workspace_size, executor);
}

}  // namespace
}  // namespace hardsigmoid
}  // namespace aclcpu

extern "C" {

aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out, uint64_t* workspaceSize,
                                             aclOpExecutor** executor) {
  using namespace aclcpu::hardsigmoid;
  return Phase1(kOpInfo, self, out, workspaceSize, executor);
}

aclnnStatus aclnnHardsigmoid(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                             const aclrtStream stream) {
  return aclcpu::Meta().run_executor(workspace, workspaceSize, executor, stream);
}

aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(const aclTensor* self, uint64_t* workspaceSize,
                                                    aclOpExecutor** executor) {
  using namespace aclcpu::hardsigmoid;
  return Phase1(kInplaceOpInfo, self, self, workspaceSize, executor);
}

aclnnStatus aclnnInplaceHardsigmoid(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    const aclrtStream stream) {
  return aclcpu::Meta().run_executor(workspace, workspaceSize, executor, stream);
}

}  // extern "C"
