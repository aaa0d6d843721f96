// aclcpu: executor lifetimes (one-shot or repeatable), address rebinding, and
// the operator-independent part of phase 2.
//
// Every executor handed out is kept in a registry until it is retired, so that a
// one-shot executor launched twice, or a destroyed one, is refused with a status
// and a message instead of touching freed memory.
#include "meta/executor.h"

#include <deque>
#include <mutex>
#include <new>
#include <unordered_map>
#include <unordered_set>

#include "aclnn/opdev/op_errno.h"
#include "common/error_report.h"
#include "common/fault_injection.h"
#include "meta/tensor.h"
#include "runtime/strict.h"

using aclcpu::ReportError;

namespace aclcpu {
namespace {

// Strict mode keeps this many retired executors (spent or destroyed) before
// freeing the oldest: until then their addresses cannot be reused by a new
// executor, so a stale handle is refused with the reason instead of silently
// running someone else's executor.
constexpr size_t kExecutorQuarantine = 1024;

constexpr const char* kSpentReason =
    "was already launched: a one-shot executor runs once (call aclSetAclOpExecutorRepeatable right after phase 1 "
    "to launch it again, or run phase 1 again)";
constexpr const char* kDestroyedReason = "was destroyed by aclDestroyAclOpExecutor";

class ExecutorRegistry {
 public:
  static ExecutorRegistry& Get() {
    static ExecutorRegistry* const registry = new ExecutorRegistry;  // never destroyed: used at exit
    return *registry;
  }

  // False if the registry entry cannot be allocated (nothing registered).
  bool Adopt(aclOpExecutor* executor) {
    std::lock_guard<std::mutex> lock(mutex_);
    try {
      if (InjectFault(FaultSite::kExecutorRegister)) throw std::bad_alloc();
      live_.insert(executor);
    } catch (const std::bad_alloc&) {
      return false;
    }
    return true;
  }

  // Runs `action(executor)` under the registry lock if the executor is live;
  // otherwise records why `api` refused it and returns ACLNN_ERR_PARAM_INVALID.
  template <typename Action>
  aclnnStatus WithLive(aclOpExecutor* executor, const char* api, Action action) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (live_.count(executor) == 0) {
      const auto retired = retired_reasons_.find(executor);
      if (retired != retired_reasons_.end()) {
        return ReportError(ACLNN_ERR_PARAM_INVALID, "%s: executor %p %s.", api, static_cast<void*>(executor),
                           retired->second);
      }
      return ReportError(ACLNN_ERR_PARAM_INVALID,
                         "%s: executor %p is not live: a one-shot executor can be launched only once, "
                         "and a destroyed executor cannot be used.",
                         api, static_cast<void*>(executor));
    }
    return action(executor);
  }

  // Runs `action(executor)` under the registry lock if the executor is live;
  // silently does nothing otherwise.
  template <typename Action>
  void IfLive(const aclOpExecutor* executor, Action action) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (live_.count(executor) != 0) action(executor);
  }

  // Removes a live executor and hands it to the caller. Only from inside a
  // WithLive action, which holds the lock.
  aclOpExecutor* EraseLocked(aclOpExecutor* executor) {
    live_.erase(executor);
    return executor;
  }

  // Frees a retired executor — in strict mode only once it leaves the
  // quarantine, remembering meanwhile why it was retired.
  void Dispose(std::unique_ptr<aclOpExecutor> executor, const char* reason) {
    if (executor == nullptr || !StrictMode()) return;  // the default mode frees it right here
    std::unique_ptr<aclOpExecutor> evicted;
    std::lock_guard<std::mutex> lock(mutex_);
    retired_reasons_[executor.get()] = reason;
    quarantine_.push_back(std::move(executor));
    if (quarantine_.size() > kExecutorQuarantine) {
      evicted = std::move(quarantine_.front());
      quarantine_.pop_front();
      retired_reasons_.erase(evicted.get());
    }
  }

 private:
  std::mutex mutex_;
  std::unordered_set<const aclOpExecutor*> live_;
  // Strict mode only.
  std::deque<std::unique_ptr<aclOpExecutor>> quarantine_;
  std::unordered_map<const aclOpExecutor*, const char*> retired_reasons_;
};

// Strict mode: the workspace must be at least what phase 1 asked for and lie in
// live device memory, as the NPU's kernels would write all of it.
aclnnStatus CheckWorkspace(const aclOpExecutor& e, void* workspace, uint64_t workspace_size) {
  if (workspace_size < e.workspace_size) {
    return ReportError(ACLNN_ERR_PARAM_INVALID,
                       "%s: workspaceSize (%llu) is smaller than the %llu bytes phase 1 asked for.", e.op_name,
                       static_cast<unsigned long long>(workspace_size),
                       static_cast<unsigned long long>(e.workspace_size));
  }
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

aclnnStatus AdoptExecutor(aclOpExecutor* executor) {
  if (ExecutorRegistry::Get().Adopt(executor)) return ACLNN_SUCCESS;
  const char* op_name = executor->op_name;
  delete executor;
  return ReportError(ACLNN_ERR_INNER_CREATE_EXECUTOR, "%s: out of memory registering the executor.", op_name);
}

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
    if (StrictMode()) {
      const aclnnStatus checked = CheckWorkspace(*e, workspace, workspace_size);
      if (checked != ACLNN_SUCCESS) return checked;
    }
    return e->MakeLaunch(workspace, &task);
  });
  registry.Dispose(std::move(spent), kSpentReason);
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
  if (StrictMode()) {
    const aclnnStatus alive = CheckTensorAlive(tensor, api, "tensor");
    if (alive != ACLNN_SUCCESS) return alive;
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
  const aclnnStatus status = registry.WithLive(executor, "aclDestroyAclOpExecutor", [&](aclOpExecutor* e) {
    destroyed.reset(registry.EraseLocked(e));
    return ACLNN_SUCCESS;
  });
  registry.Dispose(std::move(destroyed), aclcpu::kDestroyedReason);
  return status;
}

aclnnStatus aclSetInputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclcpu::BindAddress(executor, false, index, tensor, addr, "aclSetInputTensorAddr");
}

aclnnStatus aclSetOutputTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  return aclcpu::BindAddress(executor, true, index, tensor, addr, "aclSetOutputTensorAddr");
}

// Index over inputs first, then outputs.
aclnnStatus aclSetTensorAddr(aclOpExecutor* executor, const size_t index, aclTensor* tensor, void* addr) {
  // The executor is read only once the registry knows it is live: a stale
  // handle may point at freed memory.
  size_t num_inputs = 0;
  if (executor != nullptr) {
    aclcpu::ExecutorRegistry::Get().IfLive(executor, [&](const aclOpExecutor* e) { num_inputs = e->num_inputs; });
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
