// aclcpu: executor lifetimes (one-shot or repeatable), address rebinding, and
// the operator-independent part of phase 2.
//
// Every executor handed out is kept in a registry until it is retired, so that a
// one-shot executor launched twice, or a destroyed one, is refused with a status
// and a message instead of touching freed memory.
#include "meta/executor.h"

#include <mutex>
#include <unordered_set>

#include "aclnn/opdev/op_errno.h"
#include "common/error_report.h"
#include "meta/tensor.h"

using aclcpu::ReportError;

namespace aclcpu {
namespace {

class ExecutorRegistry {
 public:
  static ExecutorRegistry& Get() {
    static ExecutorRegistry* const registry = new ExecutorRegistry;  // never destroyed: used at exit
    return *registry;
  }

  void Adopt(aclOpExecutor* executor) {
    std::lock_guard<std::mutex> lock(mutex_);
    live_.insert(executor);
  }

  // Runs `action(executor)` under the registry lock if the executor is live;
  // otherwise records why `api` refused it and returns ACLNN_ERR_PARAM_INVALID.
  template <typename Action>
  aclnnStatus WithLive(aclOpExecutor* executor, const char* api, Action action) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (live_.count(executor) == 0) {
      return ReportError(ACLNN_ERR_PARAM_INVALID,
                         "%s: executor %p is not live: a one-shot executor can be launched only once, "
                         "and a destroyed executor cannot be used.",
                         api, static_cast<void*>(executor));
    }
    return action(executor);
  }

  // Removes a live executor and hands it to the caller. Only from inside a
  // WithLive action, which holds the lock.
  aclOpExecutor* EraseLocked(aclOpExecutor* executor) {
    live_.erase(executor);
    return executor;
  }

 private:
  std::mutex mutex_;
  std::unordered_set<const aclOpExecutor*> live_;
};

void AdoptExecutor(aclOpExecutor* executor) { ExecutorRegistry::Get().Adopt(executor); }

aclnnStatus RunExecutor(void* workspace, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream) {
  if (executor == nullptr) {
    return ReportError(ACLNN_ERR_PARAM_NULLPTR, "Phase 2: executor is null; pass the executor phase 1 returned.");
  }
  ExecutorRegistry& registry = ExecutorRegistry::Get();
  std::unique_ptr<aclOpExecutor> spent;  // a one-shot executor: any launch attempt uses it up
  std::unique_ptr<Task> task;
  const aclnnStatus status = registry.WithLive(executor, "Phase 2", [&](aclOpExecutor* e) -> aclnnStatus {
    if (!e->repeatable) spent.reset(registry.EraseLocked(e));
    if (workspace_size > 0 && workspace == nullptr) {
      return ReportError(ACLNN_ERR_PARAM_NULLPTR, "%s: workspace is null but workspaceSize is %llu.", e->op_name,
                         static_cast<unsigned long long>(workspace_size));
    }
    return e->MakeLaunch(workspace, &task);
  });
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
  return ExecutorRegistry::Get().WithLive(executor, api, [&](aclOpExecutor* e) -> aclnnStatus {
    const size_t count = output ? e->num_outputs : e->num_inputs;
    if (index >= count) {
      return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: index %zu is out of range; %s has %zu %s.", api, index,
                         e->op_name, count, output ? "outputs" : "inputs");
    }
    (output ? e->outputs : e->inputs)[index] = addr;
    tensor->data = addr;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus RefuseDynamicBinding(aclOpExecutor* executor, const char* api) {
  if (executor == nullptr) return ReportError(ACLNN_ERR_INNER_NULLPTR, "%s: executor is null.", api);
  return ExecutorRegistry::Get().WithLive(executor, api, [api](aclOpExecutor* e) {
    return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: %s has no tensor-list operands.", api, e->op_name);
  });
}

constexpr MetaServices kMetaServices = {kMetaServicesAbi, &AdoptExecutor, &RunExecutor};

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
  return aclcpu::ExecutorRegistry::Get().WithLive(executor, "aclSetAclOpExecutorRepeatable", [](aclOpExecutor* e) {
    e->repeatable = true;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  if (executor == nullptr) return ReportError(ACLNN_ERR_INNER_NULLPTR, "aclDestroyAclOpExecutor: executor is null.");
  aclcpu::ExecutorRegistry& registry = aclcpu::ExecutorRegistry::Get();
  std::unique_ptr<aclOpExecutor> destroyed;
  // Launches already queued hold their own copy of what they need.
  return registry.WithLive(executor, "aclDestroyAclOpExecutor", [&](aclOpExecutor* e) {
    destroyed.reset(registry.EraseLocked(e));
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclcpu::BindAddress(executor, false, index, tensor, addr, "aclSetInputTensorAddr");
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclcpu::BindAddress(executor, true, index, tensor, addr, "aclSetOutputTensorAddr");
}

// Index over inputs first, then outputs.
aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  const size_t num_inputs = executor != nullptr ? executor->num_inputs : 0;
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
