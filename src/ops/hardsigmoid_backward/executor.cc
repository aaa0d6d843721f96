#include "ops/hardsigmoid_backward/executor.h"

#include <new>

#include "aclnn/opdev/op_errno.h"
#include "common/error_report.h"
#include "ops/hardsigmoid_backward/check.h"

namespace aclcpu {
namespace hardsigmoid_backward {
namespace {

class Launch final : public Task {
 public:
  Launch(const Plan& plan, char* const view_starts[kNumOperands]) : plan_(plan) {
    for (int op = 0; op < kNumOperands; ++op) view_starts_[op] = view_starts[op];
  }

  void Run() override {
    ForEachInnerRun(plan_.layout, [this](const int64_t* offsets, int64_t length, const int64_t* strides) {
      plan_.kernel(view_starts_[kGrad] + offsets[kGrad] * plan_.element_size[kGrad], strides[kGrad],
                   view_starts_[kSelf] + offsets[kSelf] * plan_.element_size[kSelf], strides[kSelf],
                   view_starts_[kOut] + offsets[kOut] * plan_.element_size[kOut], strides[kOut], length);
    });
  }

  const char* Name() const override { return kPhase2Name; }

 private:
  const Plan plan_;
  char* view_starts_[kNumOperands];  // host address of each view's element at index 0
};

}  // namespace

Executor::Executor(const Plan& plan) : aclOpExecutor(kPhase2Name, 2, 1), plan_(plan) {
  workspace_size = plan.workspace_size;
}

aclnnStatus Executor::MakeLaunch(void* /*workspace*/, std::unique_ptr<Task>* task) const {
  task->reset();
  if (plan_.empty) return ACLNN_SUCCESS;
  void* const device[kNumOperands] = {outputs[0], inputs[0], inputs[1]};
  const char* const names[kNumOperands] = {"out", "gradOutput", "self"};
  char* view_starts[kNumOperands];
  for (int op = 0; op < kNumOperands; ++op) {
    if (device[op] == nullptr) {
      return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: %s has no device memory (its data address is null).",
                         kPhase2Name, names[op]);
    }
    char* host = static_cast<char*>(
        Runtime().device_to_host(device[op], static_cast<size_t>(plan_.extent_bytes[op]), names[op]));
    if (host == nullptr) return ACLNN_ERR_PARAM_INVALID;  // the runtime recorded why
    view_starts[op] = host + plan_.view_offset_bytes[op];
  }
  task->reset(new (std::nothrow) Launch(plan_, view_starts));
  if (*task == nullptr) return ReportError(ACLNN_ERR_INNER, "%s: out of memory.", kPhase2Name);
  return ACLNN_SUCCESS;
}

}  // namespace hardsigmoid_backward
}  // namespace aclcpu
