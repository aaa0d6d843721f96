// aclcpu: the executor phase 1 of aclnnHardsigmoidBackward returns, and the
// launch task phase 2 queues on the stream.
#ifndef ACLCPU_OPS_HARDSIGMOID_BACKWARD_EXECUTOR_H_
#define ACLCPU_OPS_HARDSIGMOID_BACKWARD_EXECUTOR_H_

#include <memory>

#include "meta/executor.h"
#include "ops/hardsigmoid_backward/plan.h"

namespace aclcpu {
namespace hardsigmoid_backward {

// Inputs: 0 = gradOutput, 1 = self; output 0 = out (the API's argument order).
class Executor final : public aclOpExecutor {
 public:
  Executor();

  // Phase 1 builds the plan in place, before the executor is adopted (a tiny
  // call's phase 1 is mostly fixed cost; a copy of the plan was a tenth of it).
  Plan* mutable_plan() { return &plan_; }

  // Translates the bound device addresses to host addresses (the runtime checks
  // them) and captures them with a copy of the plan, so the launch depends on
  // neither this executor nor the aclTensor objects.
  aclnnStatus MakeLaunch(void* workspace, std::unique_ptr<Task>* task) const override;

  // Launches of at most a few thousand elements run straight from the plan.
  aclnnStatus RunIfIdle(void* workspace, aclrtStream stream, bool* ran) const override;

 private:
  // The bound data addresses in the operand order of Plan.
  void BoundAddresses(void* device[kNumOperands]) const;

  // Checks the bound data addresses and stores the host address of each view's
  // first element (operand order of Plan).
  aclnnStatus ViewStarts(char* view_starts[kNumOperands]) const;

  // Refuses bound addresses that make out overlap an input other than in place
  // when phase 1 planned no staging for it (or in strict mode): addresses may be
  // rebound after phase 1 (ops/shared/operand_overlap.h).
  aclnnStatus CheckOverlap(void* const device[kNumOperands]) const;

  Plan plan_;
};

}  // namespace hardsigmoid_backward
}  // namespace aclcpu

#endif  // ACLCPU_OPS_HARDSIGMOID_BACKWARD_EXECUTOR_H_
