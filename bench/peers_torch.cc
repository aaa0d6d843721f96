// aclcpu benchmark: PyTorch (libtorch from C++) as a peer. Uses the out= variants,
// at::hardsigmoid_backward_out and at::hardsigmoid_out, and in place
// at::hardsigmoid_, on tensors wrapping the case's own buffers: the functional
// variants would allocate and page-fault a new output every call.
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <c10/util/Exception.h>
#include <torch/csrc/api/include/torch/version.h>

#include "bench/runner.h"

namespace aclcpu_bench {
namespace {

c10::ScalarType ScalarTypeOf(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return at::kFloat;
    case ACL_FLOAT16:
      return at::kHalf;
    case ACL_BF16:
      return at::kBFloat16;
    case ACL_INT32:
      return at::kInt;
    default:
      throw std::invalid_argument("benchmark: unexpected dtype");
  }
}

at::Tensor Wrap(const Case& c, Operand operand, aclDataType dtype, void* data) {
  const TensorView view = ViewOf(c, operand);
  return at::from_blob(data, view.shape, view.strides, at::TensorOptions(ScalarTypeOf(dtype)));
}

class TorchRunner : public Runner {
 public:
  TorchRunner(const Case& c, const CaseBuffers& buffers) {
    grad_ = Wrap(c, Operand::kGrad, c.dtypes.grad, buffers.grad);
    self_ = Wrap(c, Operand::kSelf, c.dtypes.self, buffers.self);
    out_ = Wrap(c, Operand::kOut, c.dtypes.out, buffers.out);
  }
  void Run() override { at::hardsigmoid_backward_out(out_, grad_, self_); }

 private:
  at::Tensor grad_, self_, out_;
};

class TorchForwardRunner : public Runner {
 public:
  TorchForwardRunner(const Case& c, const CaseBuffers& buffers) : inplace_(c.op == Op::kForwardInplace) {
    self_ = Wrap(c, Operand::kSelf, c.dtypes.self, buffers.self);
    if (!inplace_) out_ = Wrap(c, Operand::kOut, c.dtypes.out, buffers.out);
  }
  void Run() override {
    if (inplace_) {
      at::hardsigmoid_(self_);
    } else {
      at::hardsigmoid_out(out_, self_);
    }
  }

 private:
  bool inplace_;
  at::Tensor self_, out_;
};

}  // namespace

std::string InitTorch(int threads) {
  at::set_num_threads(threads);
  // ATen picks its own SIMD level; show_config() names it ("CPU capability usage: AVX2").
  const std::string config = at::show_config();
  const size_t at = config.find("CPU capability usage:");
  const std::string capability =
      at == std::string::npos ? "CPU capability unknown" : config.substr(at, config.find('\n', at) - at);
  return "torch: libtorch " + std::string(TORCH_VERSION) +
         " (headers), at::get_num_threads()=" + std::to_string(at::get_num_threads()) + ", " + capability;
}

bool TorchSupports(const Case& c, std::string* why_not) {
  // One tiny call with the case's op and dtypes: torch 1.13 has no f16 kernel for either op.
  try {
    at::Tensor self = at::zeros({2}, at::TensorOptions(ScalarTypeOf(c.dtypes.self)));
    at::Tensor out = at::empty({2}, at::TensorOptions(ScalarTypeOf(c.dtypes.out)));
    switch (c.op) {
      case Op::kBackward:
        at::hardsigmoid_backward_out(out, at::zeros({2}, at::TensorOptions(ScalarTypeOf(c.dtypes.grad))), self);
        break;
      case Op::kForward:
        at::hardsigmoid_out(out, self);
        break;
      case Op::kForwardInplace:
        at::hardsigmoid_(self);
        break;
    }
    return true;
  } catch (const c10::Error& error) {
    *why_not = error.what_without_backtrace();
    const size_t newline = why_not->find('\n');
    if (newline != std::string::npos) why_not->resize(newline);
    return false;
  }
}

std::unique_ptr<Runner> MakeTorchRunner(const Case& c, const CaseBuffers& buffers, int /*threads*/,
                                        std::string* why_not) {
  if (!TorchSupports(c, why_not)) return nullptr;
  if (c.op != Op::kBackward) return std::make_unique<TorchForwardRunner>(c, buffers);
  return std::make_unique<TorchRunner>(c, buffers);
}

}  // namespace aclcpu_bench
