// aclcpu benchmark: PyTorch (libtorch from C++) as a peer. Uses the out= variant,
// at::hardsigmoid_backward_out, on tensors wrapping the case's own buffers:
// the functional variant would allocate and page-fault a new output every call.
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
  // One tiny call with the case's dtypes: torch 1.13 has no f16 kernel for this op.
  try {
    const at::Tensor grad = at::zeros({2}, at::TensorOptions(ScalarTypeOf(c.dtypes.grad)));
    const at::Tensor self = at::zeros({2}, at::TensorOptions(ScalarTypeOf(c.dtypes.self)));
    at::Tensor out = at::empty({2}, at::TensorOptions(ScalarTypeOf(c.dtypes.out)));
    at::hardsigmoid_backward_out(out, grad, self);
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
  return std::make_unique<TorchRunner>(c, buffers);
}

}  // namespace aclcpu_bench
