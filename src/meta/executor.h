// aclcpu: the aclOpExecutor object behind CANN's opaque handle.
//
// Phase 1 of an operator (in libopapi) derives from aclOpExecutor and records
// everything phase 2 needs; libnnopbase owns the executors' lifetimes (one-shot
// or repeatable) and the operator-independent part of phase 2. The executor keeps
// its own copy of the bound device addresses, so a one-shot executor never looks
// at the aclTensor objects again (frameworks destroy them right after phase 2).
#ifndef ACLCPU_META_EXECUTOR_H_
#define ACLCPU_META_EXECUTOR_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "runtime/services.h"

struct aclOpExecutor {
  static constexpr size_t kMaxOperands = 4;

  aclOpExecutor(const char* op_name, size_t num_inputs, size_t num_outputs)
      : op_name(op_name), num_inputs(num_inputs), num_outputs(num_outputs) {}
  aclOpExecutor(const aclOpExecutor&) = delete;
  aclOpExecutor& operator=(const aclOpExecutor&) = delete;
  virtual ~aclOpExecutor() = default;

  // Builds the work of one launch from the addresses bound now. Sets *task to
  // nullptr when there is nothing to do (an empty tensor). Returns an aclnn
  // status; on failure it has recorded a message.
  virtual aclnnStatus MakeLaunch(void* workspace, std::unique_ptr<aclcpu::Task>* task) const = 0;

  // For launches far shorter than a hand-off to the stream's worker: if the
  // stream is idle, runs the work now on the calling thread, straight from the
  // executor (the runtime's run_if_idle), and sets *ran. Otherwise leaves *ran
  // false and phase 2 queues MakeLaunch's task. Same checks and messages as
  // MakeLaunch. Not called in strict mode, whose checks track queued tasks.
  virtual aclnnStatus RunIfIdle(void* /*workspace*/, aclrtStream /*stream*/, bool* ran) const {
    *ran = false;
    return ACLNN_SUCCESS;
  }

  const char* const op_name;  // e.g. "aclnnHardsigmoidBackward"
  const size_t num_inputs;
  const size_t num_outputs;
  void* inputs[kMaxOperands] = {};   // device addresses, by input index
  void* outputs[kMaxOperands] = {};  // device addresses, by output index
  uint64_t workspace_size = 0;
  bool repeatable = false;
  // Set when aclSetInputTensorAddr / aclSetOutputTensorAddr bind an address
  // after phase 1: until then phase 2 may use what phase 1 derived from the
  // addresses it saw (ops/shared/elementwise_launch.h).
  bool rebound = false;
};

namespace aclcpu {

// The largest executor object an operator may define (its slot's size; see
// meta/executor_slots.h).
constexpr size_t kMaxExecutorBytes = 960;

constexpr uint32_t kMetaServicesAbi = 5;

// libnnopbase's service table for libopapi (see runtime/services.h for why).
struct MetaServices {
  uint32_t abi_version;

  // Memory for a new executor object of `bytes` (at most kMaxExecutorBytes), or
  // nullptr when out of memory. The operator constructs its executor there and
  // then adopts it; executors are never allocated with `new`.
  void* (*allocate_executor)(size_t bytes);

  // Makes a new executor known, so that phase 2 and the executor API accept it,
  // and returns the handle to give the caller (not the object's address: see
  // meta/executor_slots.h). Takes ownership.
  aclOpExecutor* (*adopt_executor)(aclOpExecutor* executor);

  // Gives back memory from allocate_executor that will not become an executor
  // (phase 1 refused the arguments after allocating); any object built in it
  // has been destroyed.
  void (*abandon_executor)(void* memory);

  // The operator-independent phase 2: checks the executor and workspace, runs a
  // tiny launch in place on an idle stream or builds and queues the launch, and
  // retires a one-shot executor.
  aclnnStatus (*run_executor)(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                              aclrtStream stream);
};

}  // namespace aclcpu

extern "C" ACL_FUNC_VISIBILITY const aclcpu::MetaServices* aclcpuMetaServices(uint32_t abi_version);

#endif  // ACLCPU_META_EXECUTOR_H_
