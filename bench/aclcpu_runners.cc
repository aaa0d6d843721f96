// aclcpu benchmark: aclcpu itself, through the public API and as the bare kernel.
#include <stdexcept>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "bench/runner.h"
#include "ops/hardsigmoid_backward/kernel.h"
#include "simd/targets.h"

namespace aclcpu_bench {
namespace {

aclrtStream g_stream = nullptr;

aclTensor* CreateTensor(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                        int64_t storage_elements, aclDataType dtype, void* device) {
  aclTensor* tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND,
                                      &storage_elements, 1, device);
  if (tensor == nullptr) throw std::runtime_error("benchmark: aclCreateTensor failed");
  return tensor;
}

aclTensor* CreateTensor(const Case& c, Operand operand, aclDataType dtype, void* device) {
  const TensorView view = ViewOf(c, operand);
  return CreateTensor(view.shape, view.strides, view.storage_elements, dtype, device);
}

class AclcpuApiRunner : public Runner {
 public:
  AclcpuApiRunner(const Case& c, const CaseBuffers& buffers) {
    grad_ = CreateTensor(c, Operand::kGrad, c.dtypes.grad, buffers.grad);
    self_ = CreateTensor(c, Operand::kSelf, c.dtypes.self, buffers.self);
    out_ = CreateTensor(c, Operand::kOut, c.dtypes.out, buffers.out);
  }
  ~AclcpuApiRunner() override {
    aclDestroyTensor(grad_);
    aclDestroyTensor(self_);
    aclDestroyTensor(out_);
  }

  // Status checks cost a compare each; a failed call must not pass for a fast one.
  void Run() override {
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    if (aclnnHardsigmoidBackwardGetWorkspaceSize(grad_, self_, out_, &workspace_size, &executor) != 0 ||
        workspace_size != 0 || aclnnHardsigmoidBackward(nullptr, 0, executor, g_stream) != 0 ||
        aclrtSynchronizeStream(g_stream) != ACL_SUCCESS) {
      throw std::runtime_error(std::string("aclnnHardsigmoidBackward failed: ") + aclGetRecentErrMsg());
    }
  }

 private:
  aclTensor* grad_ = nullptr;
  aclTensor* self_ = nullptr;
  aclTensor* out_ = nullptr;
};

// aclnnHardsigmoid (out-of-place) or aclnnInplaceHardsigmoid, the same way.
class AclcpuForwardApiRunner : public Runner {
 public:
  AclcpuForwardApiRunner(const Case& c, const CaseBuffers& buffers) : inplace_(c.op == Op::kForwardInplace) {
    self_ = CreateTensor(c, Operand::kSelf, c.dtypes.self, buffers.self);
    if (!inplace_) out_ = CreateTensor(c, Operand::kOut, c.dtypes.out, buffers.out);
  }
  ~AclcpuForwardApiRunner() override {
    aclDestroyTensor(self_);
    if (out_ != nullptr) aclDestroyTensor(out_);
  }

  void Run() override {
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    const bool ok =
        inplace_ ? aclnnInplaceHardsigmoidGetWorkspaceSize(self_, &workspace_size, &executor) == 0 &&
                       workspace_size == 0 && aclnnInplaceHardsigmoid(nullptr, 0, executor, g_stream) == 0
                 : aclnnHardsigmoidGetWorkspaceSize(self_, out_, &workspace_size, &executor) == 0 &&
                       workspace_size == 0 && aclnnHardsigmoid(nullptr, 0, executor, g_stream) == 0;
    if (!ok || aclrtSynchronizeStream(g_stream) != ACL_SUCCESS) {
      throw std::runtime_error(std::string(inplace_ ? "aclnnInplaceHardsigmoid" : "aclnnHardsigmoid") +
                               " failed: " + aclGetRecentErrMsg());
    }
  }

 private:
  bool inplace_;
  aclTensor* self_ = nullptr;
  aclTensor* out_ = nullptr;
};

aclDataType PromotedType(const DtypeCase& dtypes) { return dtypes.grad == dtypes.self ? dtypes.grad : ACL_FLOAT; }

class AclcpuKernelRunner : public Runner {
 public:
  AclcpuKernelRunner(aclcpu::HardsigmoidBackwardRunFn kernel, const CaseBuffers& buffers, int64_t in_stride, int64_t n)
      : kernel_(kernel), buffers_(buffers), in_stride_(in_stride), n_(n) {}
  void Run() override { kernel_(buffers_.grad, in_stride_, buffers_.self, in_stride_, buffers_.out, 1, n_); }

 private:
  aclcpu::HardsigmoidBackwardRunFn kernel_;
  CaseBuffers buffers_;
  int64_t in_stride_;
  int64_t n_;
};

}  // namespace

std::string InitAclcpu(int threads) {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
      aclrtCreateStream(&g_stream) != ACL_SUCCESS) {
    throw std::runtime_error("benchmark: aclcpu runtime set-up failed");
  }
  return "aclcpu: ACLCPU_NUM_THREADS=" + std::to_string(threads) + ", SIMD target " +
         aclcpu::TargetName(aclcpu::ChosenTarget()) + " (kernel alone: always 1 thread)";
}

std::unique_ptr<Runner> MakeAclcpuApiRunner(const Case& c, const CaseBuffers& buffers, int /*threads*/,
                                            std::string* /*why_not*/) {
  if (c.op != Op::kBackward) return std::make_unique<AclcpuForwardApiRunner>(c, buffers);
  return std::make_unique<AclcpuApiRunner>(c, buffers);
}

std::unique_ptr<Runner> MakeAclcpuKernelRunner(const Case& c, const CaseBuffers& buffers, int /*threads*/,
                                               std::string* why_not) {
  if (c.op != Op::kBackward) {
    *why_not = "the kernel alone is measured for the backward op";
    return nullptr;
  }
  if (c.layout != Layout::kContiguous && c.layout != Layout::kStep2) {
    *why_not = "kernel alone runs one strided run; 2-D views need the executor";
    return nullptr;
  }
  const aclcpu::HardsigmoidBackwardRunFn kernel =
      aclcpu::SelectKernel(c.dtypes.grad, c.dtypes.self, PromotedType(c.dtypes), c.dtypes.out, aclcpu::ChosenTarget());
  if (kernel == nullptr) {
    *why_not = "no kernel for these dtypes";
    return nullptr;
  }
  return std::make_unique<AclcpuKernelRunner>(kernel, buffers, c.layout == Layout::kStep2 ? 2 : 1, c.n);
}

}  // namespace aclcpu_bench
