// aclcpu benchmark: aclnnHardsigmoidBackward through aclcpu's public API and as
// a bare kernel, against the STREAM-style roofline moving the same bytes,
// PyTorch (libtorch) and oneDNN, all in one process on the same buffers.
//
// The thread count is ACLCPU_NUM_THREADS, which aclcpu reads once per process;
// the roofline, torch and oneDNN are set to the same count here. run_bench.sh
// runs this binary once per thread count.
//
// Extra flags (everything else goes to Google Benchmark):
//   --summary_md=PATH    also write the comparison table there
//   --summary_tsv=PATH   write every (case, implementation) median there
//   --cases=isa_sweep    the portability sweep's cases instead of the full set
//                        (bench/isa_sweep.py runs them once per SIMD target)
//   --list_targets       print the SIMD targets aclcpu has on this CPU, best
//                        first, one name a line (ACLCPU_MAX_ISA spellings), and exit
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "bench/bench_case.h"
#include "bench/runner.h"
#include "bench/summary.h"
#include "simd/targets.h"

namespace aclcpu_bench {
namespace {

constexpr int64_t kK = 1024;
constexpr int64_t kM = 1024 * 1024;

const DtypeCase kDtypeCases[] = {
    {"f32", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
    {"f16", ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
    {"bf16", ACL_BF16, ACL_BF16, ACL_BF16},
    {"mixed_f16g_f32s_f32o", ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT},  // f16 grad, f32 self -> f32 out
};
const int64_t kContiguousSizes[] = {1, kK, 64 * kK, kM, 16 * kM, 64 * kM};

// The forward pair (aclnnHardsigmoid, aclnnInplaceHardsigmoid): self and out of
// one dtype; grad is unused and set to the same so every field is a valid dtype.
const DtypeCase kForwardDtypeCases[] = {
    {"f32", ACL_FLOAT, ACL_FLOAT, ACL_FLOAT},
    {"f16", ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16},
    {"bf16", ACL_BF16, ACL_BF16, ACL_BF16},
    {"i32", ACL_INT32, ACL_INT32, ACL_INT32},
};
const int64_t kForwardContiguousSizes[] = {kK, kM, 16 * kM};
const int64_t kStep2Sizes[] = {64 * kK, kM, 16 * kM};

RunnerFactory FactoryOf(Impl impl) {
  switch (impl) {
    case Impl::kAclcpuApi:
      return &MakeAclcpuApiRunner;
    case Impl::kAclcpuKernel:
      return &MakeAclcpuKernelRunner;
    case Impl::kRoofline:
      return &MakeRooflineRunner;
    case Impl::kRooflineNt:
      return &MakeRooflineNtRunner;
    case Impl::kConversionCeiling:
      return &MakeConversionCeilingRunner;
    case Impl::kStep2Roofline:
      return &MakeStep2RooflineRunner;
    case Impl::kStep2RooflineNt:
      return &MakeStep2RooflineNtRunner;
    case Impl::kTransposedRoofline:
      return &MakeTransposedRooflineRunner;
    case Impl::kBroadcastRoofline:
      return &MakeBroadcastRooflineRunner;
    case Impl::kTorch:
      return &MakeTorchRunner;
    case Impl::kOnednn:
      return &MakeOnednnRunner;
    case Impl::kCount:
      break;
  }
  return nullptr;
}

// Whether `impl` can run `c`, decided at registration (cheaply, without buffers).
bool Supports(const Case& c, Impl impl, std::string* why_not) {
  switch (impl) {
    case Impl::kAclcpuKernel:
      if (c.op != Op::kBackward) {
        *why_not = "the kernel alone is measured for the backward op";
        return false;
      }
      if (c.layout != Layout::kContiguous && c.layout != Layout::kStep2) {
        *why_not = "kernel alone runs one strided run; 2-D views need the executor";
        return false;
      }
      return true;
    case Impl::kRoofline:
    case Impl::kRooflineNt:
      if (c.layout != Layout::kContiguous) {
        *why_not = "strided cases are compared with the contiguous roofline of the same size";
        return false;
      }
      if (impl == Impl::kRooflineNt && c.op == Op::kForwardInplace) {
        *why_not = "in place, out's lines are read first: non-temporal stores save no read";
        return false;
      }
      return true;
    case Impl::kConversionCeiling:
      // The forward pair's cases have no grad: their f16 cases are self and out.
      if (c.layout != Layout::kContiguous || c.dtypes.self != ACL_FLOAT16 || c.dtypes.out != ACL_FLOAT16 ||
          (c.op == Op::kBackward && c.dtypes.grad != ACL_FLOAT16)) {
        *why_not = "the f16 conversion ceiling is measured for contiguous all-f16 cases";
        return false;
      }
      return true;
    case Impl::kStep2Roofline:
    case Impl::kStep2RooflineNt:
      if (c.layout != Layout::kStep2 || c.op != Op::kBackward) {
        *why_not = "the step-2 roofline is measured for the backward op's step-2 cases";
        return false;
      }
      return true;
    case Impl::kTransposedRoofline:
      if (c.layout != Layout::kTransposed || c.op == Op::kForwardInplace) {
        *why_not = "the transposed-pattern roofline is measured for transposed inputs with a contiguous out";
        return false;
      }
      return true;
    case Impl::kBroadcastRoofline:
      if (c.layout != Layout::kBroadcast || c.op != Op::kBackward) {
        *why_not = "the broadcast roofline is measured for the backward op's broadcast cases";
        return false;
      }
      return true;
    case Impl::kTorch:
      return TorchSupports(c, why_not);
    case Impl::kOnednn:
      return OnednnSupports(c, why_not);
    default:
      return true;
  }
}

void RunBenchmark(benchmark::State& state, Case c, Impl impl, int threads) {
  // Spinning worker threads of the previous library (libgomp, aclcpu's pool)
  // would steal one of the two cores: let them fall asleep first.
  static Impl previous = Impl::kCount;
  if (impl != previous) std::this_thread::sleep_for(std::chrono::milliseconds(20));
  previous = impl;

  const CaseBuffers& buffers = BuffersFor(c);
  std::string why_not;
  std::unique_ptr<Runner> runner;
  // Read before the warm-up call, whose output is checked: in place, it overwrites them.
  const InputSamples inputs = SampleInputs(c, buffers);
  try {
    runner = FactoryOf(impl)(c, buffers, threads, &why_not);
    if (runner != nullptr) runner->Run();  // warm-up: caches, JIT, thread start
  } catch (const std::exception& error) {
    why_not = error.what();
    runner.reset();
  }
  if (runner == nullptr) {
    state.SkipWithError(why_not.c_str());
    return;
  }
  if (impl != Impl::kRoofline && impl != Impl::kRooflineNt && impl != Impl::kConversionCeiling &&
      impl != Impl::kStep2Roofline && impl != Impl::kStep2RooflineNt && impl != Impl::kTransposedRoofline &&
      impl != Impl::kBroadcastRoofline) {
    const std::string mismatch = CheckOutput(c, buffers, inputs);
    if (!mismatch.empty()) {
      state.SkipWithError(mismatch.c_str());
      return;
    }
  }
  for (auto _ : state) runner->Run();
  state.SetBytesProcessed(state.iterations() * c.UsefulBytes());
}

void Register(const Case& c, int threads, Summary* summary) {
  summary->AddCase(c);
  for (int i = 0; i < static_cast<int>(Impl::kCount); ++i) {
    const Impl impl = static_cast<Impl>(i);
    std::string why_not;
    if (!Supports(c, impl, &why_not)) {
      summary->SetUnsupported(c, impl, why_not);
      continue;
    }
    benchmark::RegisterBenchmark((c.Name() + "/" + ImplName(impl)).c_str(), &RunBenchmark, c, impl, threads)
        ->UseRealTime()
        ->Unit(benchmark::kNanosecond);
  }
}

void RegisterAll(int threads, Summary* summary) {
  for (const DtypeCase& dtypes : kDtypeCases) {
    for (int64_t n : kContiguousSizes) Register({dtypes, Layout::kContiguous, n}, threads, summary);
  }
  for (const DtypeCase& dtypes : kDtypeCases) {
    Register({dtypes, Layout::kTransposed, kTransposeSide * kTransposeSide}, threads, summary);
    for (int64_t n : kStep2Sizes) Register({dtypes, Layout::kStep2, n}, threads, summary);
  }
  // The forward pair, out-of-place then in place. In place, every call after
  // the first finds the previous result in self (values converge to 0.6; int32
  // to 0): the kernels have no data-dependent branches, so the time is the
  // same, and each implementation's first call is the one checked.
  for (const Op op : {Op::kForward, Op::kForwardInplace}) {
    for (const DtypeCase& dtypes : kForwardDtypeCases) {
      for (int64_t n : kForwardContiguousSizes) Register({dtypes, Layout::kContiguous, n, op}, threads, summary);
      Register({dtypes, Layout::kTransposed, kTransposeSide * kTransposeSide, op}, threads, summary);
    }
  }
}

// The portability sweep (bench/isa_sweep.py): every layout at the sizes the
// issue names, for the backward op and then the forward pair, each size's
// contiguous case first so its roofline is measured before the strided cases
// that are compared with it. 1 element is there for the fixed cost of a call;
// 4096 x 4096 is the 16M of the 2-D layouts.
void RegisterIsaSweep(int threads, Summary* summary) {
  const int64_t kSizes[] = {1, kK, kM, 16 * kM};
  for (const DtypeCase& dtypes : kDtypeCases) {
    for (int64_t n : kSizes) {
      Register({dtypes, Layout::kContiguous, n}, threads, summary);
      if (n == 1) continue;
      Register({dtypes, Layout::kStep2, n}, threads, summary);
      Register({dtypes, Layout::kBroadcast, n}, threads, summary);
      if (n == kTransposeSide * kTransposeSide) {
        Register({dtypes, Layout::kTransposed, n}, threads, summary);
        Register({dtypes, Layout::kAllTransposed, n}, threads, summary);
      }
    }
  }
  // The forward pair: contiguous and transposed (self the transpose view, out
  // dense; in place written back through it), each 4096 x 4096 case after the
  // contiguous 16M case whose roofline it is compared with.
  constexpr int64_t kSquare = kTransposeSide * kTransposeSide;
  for (const DtypeCase& dtypes : kForwardDtypeCases) {
    for (int64_t n : kForwardContiguousSizes) {
      Register({dtypes, Layout::kContiguous, n, Op::kForward}, threads, summary);
    }
    Register({dtypes, Layout::kTransposed, kSquare, Op::kForward}, threads, summary);
    for (int64_t n : {kM, kSquare}) Register({dtypes, Layout::kContiguous, n, Op::kForwardInplace}, threads, summary);
    Register({dtypes, Layout::kTransposed, kSquare, Op::kForwardInplace}, threads, summary);
  }
}

int ListTargets() {
  for (int64_t target : aclcpu::AvailableTargets()) std::printf("%s\n", aclcpu::TargetName(target));
  return 0;
}

// ACLCPU_NUM_THREADS as aclcpu reads it; unset means every core, as in aclcpu.
int ThreadsFromEnvironment() {
  const char* value = std::getenv("ACLCPU_NUM_THREADS");
  const int threads = value != nullptr ? std::atoi(value) : static_cast<int>(std::thread::hardware_concurrency());
  return threads > 0 ? threads : 1;
}

bool TakeFlag(const char* arg, const char* name, std::string* value) {
  const size_t length = std::strlen(name);
  if (std::strncmp(arg, name, length) != 0 || arg[length] != '=') return false;
  *value = arg + length + 1;
  return true;
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  if (!file) std::fprintf(stderr, "benchmark: could not write %s\n", path.c_str());
}

int Main(int argc, char** argv) {
  std::string summary_md, summary_tsv, case_set = "full";
  // Defaults first, so the command line overrides them (the last flag wins).
  // Repetitions of all cases and implementations run in a random interleaved
  // order: this VM's speed drifts over minutes, and consecutive repetitions of
  // one implementation would put the whole drift between it and its peer.
  std::vector<char*> args = {argv[0], const_cast<char*>("--benchmark_min_time=0.1"),
                             const_cast<char*>("--benchmark_repetitions=5"),
                             const_cast<char*>("--benchmark_enable_random_interleaving=true"),
                             const_cast<char*>("--benchmark_report_aggregates_only=true")};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--list_targets") == 0) return ListTargets();
    if (!TakeFlag(argv[i], "--summary_md", &summary_md) && !TakeFlag(argv[i], "--summary_tsv", &summary_tsv) &&
        !TakeFlag(argv[i], "--cases", &case_set)) {
      args.push_back(argv[i]);
    }
  }
  if (case_set != "full" && case_set != "isa_sweep") {
    std::fprintf(stderr, "benchmark: --cases must be full or isa_sweep, not %s\n", case_set.c_str());
    return 1;
  }
  int args_count = static_cast<int>(args.size());
  benchmark::Initialize(&args_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(args_count, args.data())) return 1;

  const int threads = ThreadsFromEnvironment();
  std::printf("threads: %d\n%s\n%s\n%s\n%s\n", threads, InitAclcpu(threads).c_str(), InitRoofline(threads).c_str(),
              InitTorch(threads).c_str(), InitOnednn(threads).c_str());
  std::fflush(stdout);

  Summary summary;
  if (case_set == "isa_sweep") {
    RegisterIsaSweep(threads, &summary);
  } else {
    RegisterAll(threads, &summary);
  }
  CollectingReporter reporter(&summary);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();

  const std::string table = summary.Table(threads);
  std::printf(
      "\nGB/s = useful bytes ((in1 + in2 + out) element sizes x N; fwd/ and fwd_inplace/: (self + out) x N)\n"
      "/ median time. Ratios use aclcpu API. Strided cases use the contiguous roofline of the same size.\n\n%s",
      table.c_str());
  if (!summary_md.empty()) WriteFile(summary_md, table);
  if (!summary_tsv.empty()) WriteFile(summary_tsv, summary.Tsv(threads));
  return 0;
}

}  // namespace
}  // namespace aclcpu_bench

int main(int argc, char** argv) { return aclcpu_bench::Main(argc, argv); }
