// aclcpu: executor lifetimes (one-shot or repeatable), address rebinding, and
// the operator-independent part of phase 2.
//
// Every executor lives in a slot with a state word (meta/executor_slots.h), so
// that a one-shot executor launched twice, or a destroyed one, is refused with a
// status and a message instead of touching freed memory.
#include "meta/executor.h"

#include <memory>

#include "aclnn/opdev/op_errno.h"
#include "common/error_report.h"
#include "meta/executor_slots.h"
#include "meta/tensor.h"
#include "runtime/strict.h"

using aclcpu::ReportError;

namespace aclcpu {
namespace {

constexpr const char* kSpentReason =
    "was already launched: a one-shot executor runs once (call aclSetAclOpExecutorRepeatable right after phase 1 "
    "to launch it again, or run phase 1 again)";
constexpr const char* kDestroyedReason = "was destroyed by aclDestroyAclOpExecutor";

// The status and message for a handle ExecutorSlots::Acquire refused.
aclnnStatus RefuseNotLive(const aclOpExecutor* executor, const char* api, const char* reason) {
  if (reason != nullptr) {
    return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: executor %p %s.", api, static_cast<const void*>(executor),
                       reason);
  }
  return ReportError(ACLNN_ERR_PARAM_INVALID,
                     "%s: executor %p is not live: a one-shot executor can be launched only once, and a destroyed "
                     "executor cannot be used.",
                     api, static_cast<const void*>(executor));
}

// Runs `action(object)` with exclusive use of the live executor `handle` names,
// which stays live; otherwise records why `api` refused the handle.
template <typename Action>
aclnnStatus WithLive(aclOpExecutor* handle, const char* api, Action action) {
  ExecutorSlots& slots = ExecutorSlots::Get();
  const char* reason = nullptr;
  aclOpExecutor* const executor = slots.Acquire(handle, &reason);
  if (executor == nullptr) return RefuseNotLive(handle, api, reason);
  const aclnnStatus status = action(executor);
  slots.Release(executor);
  return status;
}

// The workspace must hold what phase 1 asked for (the launch writes all of it),
// in every mode: a cheap check, and the launch would otherwise write past it.
aclnnStatus CheckWorkspaceSize(const aclOpExecutor& e, void* workspace, uint64_t workspace_size) {
  if (workspace_size < e.workspace_size) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: workspaceSize (%llu) is smaller than the %llu bytes phase 1 asked for.", e.op_name,
                       static_cast<unsigned long long>(workspace_size),
                       static_cast<unsigned long long>(e.workspace_size));
  }
  if (workspace_size > 0 && workspace == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: workspace is null but workspaceSize is %llu.", e.op_name,
                       static_cast<unsigned long long>(workspace_size));
  }
  return ACLNN_SUCCESS;
}

// Strict mode: the workspace must lie in live device memory, as the NPU's
// kernels would write all of it.
aclnnStatus CheckWorkspaceMemory(const aclOpExecutor& e, void* workspace, uint64_t workspace_size) {
  if (workspace == nullptr || workspace_size == 0) return ACLNN_SUCCESS;
  DeviceRange allocation{};
  const DeviceAddressState state = Runtime().find_allocation(workspace, &allocation);
  const uintptr_t start = reinterpret_cast<uintptr_t>(workspace);
  const uintptr_t base = reinterpret_cast<uintptr_t>(allocation.base);
  if (state == kLiveDeviceMemory && start - base <= allocation.size &&
      workspace_size <= allocation.size - (start - base)) {
    return ACLNN_SUCCESS;
  }
  if (state == kLiveDeviceMemory) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: workspace %p of workspaceSize %llu bytes runs past the end of its device allocation %p "
                       "(%zu bytes).",
                       e.op_name, workspace, static_cast<unsigned long long>(workspace_size), allocation.base,
                       allocation.size);
  }
  return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: workspace %p is not device memory (%s); allocate it with aclrtMalloc.",
                     e.op_name, workspace,
                     state == kFreedDeviceMemory ? "it was freed by aclrtFree" : "aclrtMalloc did not return it");
}

void* AllocateExecutor(size_t bytes) { return ExecutorSlots::Get().Allocate(bytes); }

aclOpExecutor* AdoptExecutor(aclOpExecutor* executor) { return ExecutorSlots::Get().Publish(executor); }

void AbandonExecutor(void* memory) { ExecutorSlots::Get().Abandon(memory); }

aclnnStatus RunExecutor(void* workspace, uint64_t workspace_size, aclOpExecutor* handle, aclrtStream stream) {
  if (handle == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "Phase 2: executor is null; pass the executor phase 1 returned.");
  }
  ExecutorSlots& slots = ExecutorSlots::Get();
  const char* reason = nullptr;
  aclOpExecutor* const executor = slots.Acquire(handle, &reason);
  if (executor == nullptr) return RefuseNotLive(handle, "Phase 2", reason);
  std::unique_ptr<Task> task;
  aclnnStatus status = CheckWorkspaceSize(*executor, workspace, workspace_size);
  if (status == ACLNN_SUCCESS && StrictMode()) status = CheckWorkspaceMemory(*executor, workspace, workspace_size);
  bool ran = false;
  if (status == ACLNN_SUCCESS && !StrictMode()) status = executor->RunIfIdle(workspace, stream, &ran);
  if (status == ACLNN_SUCCESS && !ran) status = executor->MakeLaunch(workspace, &task);
  // A one-shot executor is used up by any launch attempt, as in CANN.
  if (executor->repeatable) {
    slots.Release(executor);
  } else {
    slots.Retire(executor, kSpentReason);
  }
  if (status != ACLNN_SUCCESS || task == nullptr) return status;

  const char* name = task->Name();
  if (Runtime().submit(stream, task.release()) != ACL_SUCCESS) {
    return ReportError(ACLNN_ERR_RUNTIME_ERROR, "%s: could not queue the launch on the stream (see above).", name);
  }
  return ACLNN_SUCCESS;
}

// Binds `addr` to operand `index` of `slots` (inputs or outputs), and to the
// tensor as CANN does, so later phase-1 calls with that tensor see it too.
aclnnStatus BindAddress(aclOpExecutor* executor, bool output, size_t index, aclTensor* tensor, void* addr,
                        const char* api) {
  if (executor == nullptr || tensor == nullptr) {
    return ReportError(ACLNN_ERR_INNER_NULLPTR, "%s: executor and tensor must not be null.", api);
  }
  const aclnnStatus alive = CheckTensorAlive(tensor, api, "tensor");
  if (alive != ACLNN_SUCCESS) return alive;
  return WithLive(executor, api, [&](aclOpExecutor* e) -> aclnnStatus {
    const size_t count = output ? e->num_outputs : e->num_inputs;
    if (index >= count) {
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: index %zu is out of range; %s has %zu %s.", api, index,
                         e->op_name, count, output ? "outputs" : "inputs");
    }
    (output ? e->outputs : e->inputs)[index] = addr;
    e->rebound = true;
    tensor->data = addr;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus RefuseDynamicBinding(aclOpExecutor* executor, const char* api) {
  if (executor == nullptr) return ReportError(ACLNN_ERR_INNER_NULLPTR, "%s: executor is null.", api);
  return WithLive(executor, api, [api](aclOpExecutor* e) {
    return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has no tensor-list operands.", api, e->op_name);
  });
}

constexpr MetaServices kMetaServices = {kMetaServicesAbi, &AllocateExecutor, &AdoptExecutor, &AbandonExecutor,
                                        &RunExecutor};

}  // namespace
}  // namespace aclcpu

extern "C" {

const aclcpu::MetaServices* aclcpuMetaServices(uint32_t abi_version) {
  return abi_version == aclcpu::kMetaServicesAbi ? &aclcpu::kMetaServices : nullptr;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  if (executor == nullptr) {
    return ReportError(ACLNN_ERR_INNER_NULLPTR, "aclSetAclOpExecutorRepeatable: executor is null.");
  }
  return aclcpu::WithLive(executor, "aclSetAclOpExecutorRepeatable", [](aclOpExecutor* e) {
    e->repeatable = true;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* handle) {
  if (handle == nullptr) return ReportError(ACLNN_ERR_INNER_NULLPTR, "aclDestroyAclOpExecutor: executor is null.");
  // Launches already queued hold their own copy of what they need.
  aclcpu::ExecutorSlots& slots = aclcpu::ExecutorSlots::Get();
  const char* reason = nullptr;
  aclOpExecutor* const executor = slots.Acquire(handle, &reason);
  if (executor == nullptr) return aclcpu::RefuseNotLive(handle, "aclDestroyAclOpExecutor", reason);
  slots.Retire(executor, aclcpu::kDestroyedReason);
  return ACLNN_SUCCESS;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclcpu::BindAddress(executor, false, index, tensor, addr, "aclSetInputTensorAddr");
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclcpu::BindAddress(executor, true, index, tensor, addr, "aclSetOutputTensorAddr");
}

// Index over inputs first, then outputs.
aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  // The executor is read only once its slot says it is live: a stale
  // handle may point at freed memory.
  size_t num_inputs = 0;
  if (executor != nullptr) {
    aclcpu::ExecutorSlots& slots = aclcpu::ExecutorSlots::Get();
    const char* reason = nullptr;
    if (aclOpExecutor* const object = slots.Acquire(executor, &reason)) {
      num_inputs = object->num_inputs;
      slots.Release(object);
    }
  }
  return index < num_inputs ? aclcpu::BindAddress(executor, false, index, tensor, addr, "aclSetTensorAddr")
                            : aclcpu::BindAddress(executor, true, index - num_inputs, tensor, addr,
                                                  "aclSetTensorAddr");
}

aclnnStatus aclSetDynamicInputTensorAddr(aclOpExecutor* executor, size_t, const size_t, aclTensorList*, void*) {
  return aclcpu::RefuseDynamicBinding(executor, "aclSetDynamicInputTensorAddr");
}
aclnnStatus aclSetDynamicOutputTensorAddr(aclOpExecutor* executor, size_t, const size_t, aclTensorList*, void*) {
  return aclcpu::RefuseDynamicBinding(executor, "aclSetDynamicOutputTensorAddr");
}
aclnnStatus aclSetDynamicTensorAddr(aclOpExecutor* executor, size_t, const size_t, aclTensorList*, void*) {
  return aclcpu::RefuseDynamicBinding(executor, "aclSetDynamicTensorAddr");
}

aclnnStatus AclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclSetInputTensorAddr(executor, index, tensor, addr);
}
aclnnStatus AclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclSetOutputTensorAddr(executor, index, tensor, addr);
}
aclnnStatus AclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclSetTensorAddr(executor, index, tensor, addr);
}

}  // extern "C"
