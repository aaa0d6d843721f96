// aclcpu benchmark: oneDNN as a peer. oneDNN 2.6 has no hardsigmoid, so this is
// an exact-window emulation in two passes: eltwise_clip_v2 backward with
// alpha=-3, beta=3 (diff_src = diff_dst where -3 < src < 3, else 0: the same
// strict window) and then eltwise_linear forward, x1/6, in place. Its numerics
// differ in corner cases (NaN/inf grads outside the window, -0, bf16
// subnormals); see perf-baselines.md section 6. Random data avoids them.
#include <omp.h>

#include <dnnl.hpp>

#include "bench/runner.h"

namespace aclcpu_bench {
namespace {

using Dt = dnnl::memory::data_type;

bool OnednnDtype(aclDataType dtype, Dt* out) {
  switch (dtype) {
    case ACL_FLOAT:
      *out = Dt::f32;
      return true;
    case ACL_BF16:
      *out = Dt::bf16;
      return true;
    default:
      return false;
  }
}

class OnednnRunner : public Runner {
 public:
  OnednnRunner(const Case& c, const CaseBuffers& buffers, Dt dt)
      : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_) {
    const dnnl::memory::desc md({c.n}, dt, dnnl::memory::format_tag::a);
    const dnnl::eltwise_forward::primitive_desc hint(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_training, dnnl::algorithm::eltwise_clip_v2, md, -3.0f,
                                    3.0f),
        engine_);
    backward_ = dnnl::eltwise_backward(dnnl::eltwise_backward::primitive_desc(
        dnnl::eltwise_backward::desc(dnnl::algorithm::eltwise_clip_v2, md, md, -3.0f, 3.0f), engine_, hint));
    scale_ = dnnl::eltwise_forward(dnnl::eltwise_forward::primitive_desc(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::eltwise_linear, md,
                                    1.0f / 6.0f, 0.0f),
        engine_));
    self_ = dnnl::memory(md, engine_, buffers.self);
    grad_ = dnnl::memory(md, engine_, buffers.grad);
    out_ = dnnl::memory(md, engine_, buffers.out);
  }

  void Run() override {
    backward_.execute(stream_, {{DNNL_ARG_SRC, self_}, {DNNL_ARG_DIFF_DST, grad_}, {DNNL_ARG_DIFF_SRC, out_}});
    scale_.execute(stream_, {{DNNL_ARG_SRC, out_}, {DNNL_ARG_DST, out_}});
    stream_.wait();
  }

 private:
  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::eltwise_backward backward_;
  dnnl::eltwise_forward scale_;
  dnnl::memory self_, grad_, out_;
};

}  // namespace

std::string InitOnednn(int threads) {
  omp_set_num_threads(threads);
  const dnnl_version_t* version = dnnl::version();
  return "oneDNN " + std::to_string(version->major) + "." + std::to_string(version->minor) + "." +
         std::to_string(version->patch) + ", OpenMP " + std::to_string(threads) +
         " thread(s) (forks at every size), clip_v2 bwd + linear x1/6: exact window, 2 passes";
}

bool OnednnSupports(const Case& c, std::string* why_not) {
  if (c.op != Op::kBackward) {
    *why_not = "the forward pair is compared with the roofline and PyTorch only";
    return false;
  }
  Dt dt;
  if (c.dtypes.grad != c.dtypes.self || c.dtypes.self != c.dtypes.out || !OnednnDtype(c.dtypes.out, &dt)) {
    *why_not = "oneDNN 2.6 eltwise: f32 or bf16 with one dtype for all tensors (no f16 on this CPU, no mix)";
    return false;
  }
  if (c.layout != Layout::kContiguous) {
    *why_not =
        "oneDNN 2.6 eltwise backward takes one layout for diff_dst and diff_src (strided in, dense out "
        "needs an extra reorder)";
    return false;
  }
  return true;
}

std::unique_ptr<Runner> MakeOnednnRunner(const Case& c, const CaseBuffers& buffers, int /*threads*/,
                                         std::string* why_not) {
  Dt dt;
  if (!OnednnSupports(c, why_not) || !OnednnDtype(c.dtypes.out, &dt)) return nullptr;
  try {
    return std::make_unique<OnednnRunner>(c, buffers, dt);
  } catch (const dnnl::error& error) {
    *why_not = std::string("oneDNN: ") + error.what();
    return nullptr;
  }
}

}  // namespace aclcpu_bench
