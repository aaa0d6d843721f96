// aclcpu benchmark: stand-ins for peers that were not found at build time, so
// the benchmark builds and runs with aclcpu and the roofline alone.
#include "bench/runner.h"

namespace aclcpu_bench {

#ifndef ACLCPU_BENCH_HAVE_TORCH
std::string InitTorch(int /*threads*/) { return "torch: absent (libtorch-dev not found at build time)"; }
bool TorchSupports(const Case& /*c*/, std::string* why_not) {
  *why_not = "libtorch absent";
  return false;
}
std::unique_ptr<Runner> MakeTorchRunner(const Case& c, const CaseBuffers& /*buffers*/, int /*threads*/,
                                        std::string* why_not) {
  TorchSupports(c, why_not);
  return nullptr;
}
#endif

#ifndef ACLCPU_BENCH_HAVE_ONEDNN
std::string InitOnednn(int /*threads*/) { return "oneDNN: absent (libdnnl-dev not found at build time)"; }
bool OnednnSupports(const Case& /*c*/, std::string* why_not) {
  *why_not = "oneDNN absent";
  return false;
}
std::unique_ptr<Runner> MakeOnednnRunner(const Case& c, const CaseBuffers& /*buffers*/, int /*threads*/,
                                         std::string* why_not) {
  OnednnSupports(c, why_not);
  return nullptr;
}
#endif

}  // namespace aclcpu_bench
