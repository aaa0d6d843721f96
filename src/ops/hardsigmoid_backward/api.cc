// aclcpu: the two entry points of aclnnHardsigmoidBackward. Thin by design:
// check (check.cc) -> plan (plan.cc) -> executor (executor.cc) in phase 1; phase 2
// is the operator-independent executor run of libnnopbase.
#include <cstdlib>
#include <new>

#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "common/error_report.h"
#include "meta/tensor.h"
#include "ops/hardsigmoid_backward/check.h"
#include "ops/hardsigmoid_backward/executor.h"

namespace aclcpu {
namespace {

const MetaServices* LoadMetaServices() {
  const MetaServices* const services = aclcpuMetaServices(kMetaServicesAbi);
  if (services == nullptr) AbortOnAbiMismatch("libnnopbase.so", kMetaServicesAbi);
  return services;
}

// Looked up when the library is loaded (libnnopbase, a dependency, is loaded and
// relocated by then, and aclcpuMetaServices returns a constant table), so that
// the three uses in a call read a pointer instead of a guarded local static.
const MetaServices* const g_meta_services = LoadMetaServices();

const MetaServices& Meta() { return *g_meta_services; }

}  // namespace
}  // namespace aclcpu

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
  aclnnStatus status = CheckParams(gradOutput, self, out);
  if (status != ACLNN_SUCCESS) return status;

  static_assert(sizeof(Executor) <= aclcpu::kMaxExecutorBytes, "Executor must fit an executor slot");
  void* memory = aclcpu::Meta().allocate_executor(sizeof(Executor));
  if (memory == nullptr) {
    // Arguments the plan refuses are reported as such, whatever the memory.
    Plan plan;
    status = BuildPlan(gradOutput, self, out, &plan);
    if (status != ACLNN_SUCCESS) return status;
    return aclcpu::ReportError(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: out of memory creating the executor.",
                               kPhase1Name);
  }
  Executor* created = new (memory) Executor();
  Plan* plan = created->mutable_plan();
  status = BuildPlan(gradOutput, self, out, plan);
  if (status != ACLNN_SUCCESS) {
    created->~Executor();
    aclcpu::Meta().abandon_executor(memory);
    return status;
  }
  created->workspace_size = plan->workspace_size;
  created->inputs[0] = gradOutput->data;
  created->inputs[1] = self->data;
  created->outputs[0] = out->data;
  *workspaceSize = plan->workspace_size;
  *executor = aclcpu::Meta().adopt_executor(created);
  return ACLNN_SUCCESS;
}

aclnnStatus aclnnHardsigmoidBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream) {
  return aclcpu::Meta().run_executor(workspace, workspaceSize, executor, stream);
}

}  // extern "C"
