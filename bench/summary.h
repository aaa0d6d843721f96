// aclcpu benchmark: collects the median of every benchmark as Google Benchmark
// reports it, and prints the comparison table (GB/s and ratios per case).
#ifndef ACLCPU_BENCH_SUMMARY_H_
#define ACLCPU_BENCH_SUMMARY_H_

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

#include "bench/bench_case.h"

namespace aclcpu_bench {

// The implementations compared, in table order.
enum class Impl {
  kAclcpuApi,
  kAclcpuKernel,
  kRoofline,
  kRooflineNt,
  kConversionCeiling,
  kStep2Roofline,
  kStep2RooflineNt,
  kTransposedRoofline,
  kBroadcastRoofline,
  kTorch,
  kOnednn,
  kCount
};
const char* ImplName(Impl impl);

// One (case, implementation) cell: a measured median, or why it is absent.
struct Cell {
  bool measured = false;
  double median_ns = 0;  // real time per call, median over repetitions
  double spread = 0;     // coefficient of variation over repetitions (0 with one repetition)
  std::string why_not;   // when not measured
};

class Summary {
 public:
  // Cases in the order they are registered (and reported).
  void AddCase(const Case& c);
  void SetUnsupported(const Case& c, Impl impl, const std::string& why);
  // Records a Google Benchmark run named "<case>/<impl>".
  void Record(const benchmark::BenchmarkReporter::Run& run);

  // The table, in Markdown, for `threads` threads.
  std::string Table(int threads) const;
  // One line per (case, implementation): the data run_bench.sh turns into bench/README.md.
  std::string Tsv(int threads) const;

 private:
  const Cell* Find(const Case& c, Impl impl) const;
  // GB/s of `impl` on `c`, or < 0 if absent. The roofline of a strided case is
  // the contiguous one of the same dtypes and size.
  double Gbps(const Case& c, Impl impl) const;

  std::vector<Case> cases_;
  std::map<std::string, Cell> cells_;  // by "<case>/<impl>"
};

// Passes everything to the console reporter and records medians into `summary`.
class CollectingReporter : public benchmark::ConsoleReporter {
 public:
  // Colours only on a terminal, so logs stay readable.
  explicit CollectingReporter(Summary* summary);
  void ReportRuns(const std::vector<Run>& runs) override;

 private:
  Summary* summary_;
};

}  // namespace aclcpu_bench

#endif  // ACLCPU_BENCH_SUMMARY_H_
