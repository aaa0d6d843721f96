// aclcpu benchmark: one implementation of one case, set up once and then run
// repeatedly by the timing loop. Every implementation (aclcpu, the roofline,
// the peers) provides a factory; peers that were not found at build time
// provide one that always declines (see peers_absent.cc).
#ifndef ACLCPU_BENCH_RUNNER_H_
#define ACLCPU_BENCH_RUNNER_H_

#include <memory>
#include <string>

#include "bench/bench_case.h"

namespace aclcpu_bench {

class Runner {
 public:
  virtual ~Runner() = default;
  // One complete call: returns when out holds the result.
  virtual void Run() = 0;
};

// Each factory returns nullptr and says why in *why_not when the implementation
// cannot compute `c` (dtype or layout unsupported, peer absent). `threads` is the
// process's thread count (ACLCPU_NUM_THREADS); aclcpu reads it itself.
using RunnerFactory = std::unique_ptr<Runner> (*)(const Case& c, const CaseBuffers& buffers, int threads,
                                                  std::string* why_not);

// aclcpu through the public API: phase 1 + phase 2 + aclrtSynchronizeStream per
// call, on tensors created once.
std::unique_ptr<Runner> MakeAclcpuApiRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                            std::string* why_not);
// aclcpu's kernel function alone (single-threaded by nature; one strided run, so
// not for the transposed layout, whose blocking lives in the executor).
std::unique_ptr<Runner> MakeAclcpuKernelRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                               std::string* why_not);
// STREAM-style c = a + b moving the same bytes as the case (contiguous only).
std::unique_ptr<Runner> MakeRooflineRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                           std::string* why_not);
std::unique_ptr<Runner> MakeRooflineNtRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                             std::string* why_not);
// c[i] = a[2i] + b[2i] on the step-2 cases' buffers: the roofline of step-2
// traffic (every line of both inputs read), for step-2 cases only; with
// ordinary or non-temporal stores.
std::unique_ptr<Runner> MakeStep2RooflineRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                std::string* why_not);
std::unique_ptr<Runner> MakeStep2RooflineNtRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                  std::string* why_not);
// Transposed cases with a contiguous out: aclcpu's block walk with nothing in
// it (each input's block rows read, out's line segments written with
// non-temporal stores), the roofline of that access pattern.
std::unique_ptr<Runner> MakeTransposedRooflineRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                     std::string* why_not);
// Broadcast cases (backward): c[r][j] = a[r][j] + b[j] on the case's own
// buffers, self read, the grad row from L1, out written row by row (with
// non-temporal stores where aclcpu streams): the roofline of that traffic.
std::unique_ptr<Runner> MakeBroadcastRooflineRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                    std::string* why_not);
// The same fork-join doing only an exact f16 widen + narrow per element
// (all-f16 contiguous cases): the ceiling an exact f16 kernel has here.
std::unique_ptr<Runner> MakeConversionCeilingRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                    std::string* why_not);
// PyTorch's at::hardsigmoid_backward_out.
std::unique_ptr<Runner> MakeTorchRunner(const Case& c, const CaseBuffers& buffers, int threads, std::string* why_not);
// oneDNN eltwise_clip_v2 backward (alpha=-3, beta=3) then eltwise_linear x1/6 in place.
std::unique_ptr<Runner> MakeOnednnRunner(const Case& c, const CaseBuffers& buffers, int threads, std::string* why_not);

// Process-wide set-up of each implementation for `threads` threads, and a
// one-line description for the report ("torch 1.13.1, 2 threads, ..." or "absent").
std::string InitAclcpu(int threads);
std::string InitRoofline(int threads);
std::string InitTorch(int threads);
std::string InitOnednn(int threads);

// Whether the peer can compute this case, decided without running it at full
// size (so unsupported cases are not registered at all).
bool TorchSupports(const Case& c, std::string* why_not);
bool OnednnSupports(const Case& c, std::string* why_not);

}  // namespace aclcpu_bench

#endif  // ACLCPU_BENCH_RUNNER_H_
