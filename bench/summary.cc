#include "bench/summary.h"

#include <unistd.h>

#include <cstdio>
#include <sstream>

namespace aclcpu_bench {
namespace {

constexpr Impl kAllImpls[] = {
    Impl::kAclcpuApi,         Impl::kAclcpuKernel,  Impl::kRoofline,        Impl::kRooflineNt,
    Impl::kConversionCeiling, Impl::kStep2Roofline, Impl::kStep2RooflineNt, Impl::kTransposedRoofline,
    Impl::kBroadcastRoofline, Impl::kTorch,         Impl::kOnednn};

std::string Key(const std::string& case_name, const std::string& impl_name) { return case_name + "/" + impl_name; }

std::string Format(const char* format, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), format, value);
  return text;
}

std::string FormatGbps(double gbps) { return gbps < 0 ? "–" : Format(gbps < 10 ? "%.2f" : "%.1f", gbps); }

std::string FormatRatio(double numerator, double denominator) {
  return numerator < 0 || denominator <= 0 ? "–" : Format("%.2f", numerator / denominator);
}

// The TSV's op column: which operator a row measures.
const char* OpName(Op op) {
  switch (op) {
    case Op::kBackward:
      return "backward";
    case Op::kForward:
      return "fwd";
    case Op::kForwardInplace:
      return "fwd_inplace";
  }
  return "?";
}

std::string FormatTime(double ns) {
  if (ns < 1e3) return Format("%.0f ns", ns);
  if (ns < 1e6) return Format("%.2f µs", ns / 1e3);
  return Format("%.2f ms", ns / 1e6);
}

}  // namespace

const char* ImplName(Impl impl) {
  switch (impl) {
    case Impl::kAclcpuApi:
      return "aclcpu_api";
    case Impl::kAclcpuKernel:
      return "aclcpu_kernel";
    case Impl::kRoofline:
      return "roofline";
    case Impl::kRooflineNt:
      return "roofline_nt";
    case Impl::kConversionCeiling:
      return "conversion_ceiling";
    case Impl::kStep2Roofline:
      return "roofline_step2";
    case Impl::kStep2RooflineNt:
      return "roofline_step2_nt";
    case Impl::kTransposedRoofline:
      return "roofline_transposed";
    case Impl::kBroadcastRoofline:
      return "roofline_broadcast";
    case Impl::kTorch:
      return "torch";
    case Impl::kOnednn:
      return "onednn";
    case Impl::kCount:
      break;
  }
  return "?";
}

void Summary::AddCase(const Case& c) { cases_.push_back(c); }

void Summary::SetUnsupported(const Case& c, Impl impl, const std::string& why) {
  cells_[Key(c.Name(), ImplName(impl))].why_not = why;
}

void Summary::Record(const benchmark::BenchmarkReporter::Run& run) {
  Cell& cell = cells_[run.run_name.function_name];
  if (run.error_occurred) {
    cell.why_not = run.error_message;
    return;
  }
  const double ns = run.GetAdjustedRealTime();  // every benchmark reports in ns
  if (run.run_type == benchmark::BenchmarkReporter::Run::RT_Iteration) {
    cell.measured = true;  // repetitions=1: the only run is the measurement
    cell.median_ns = ns;
  } else if (run.aggregate_name == "median") {
    cell.measured = true;
    cell.median_ns = ns;
  } else if (run.aggregate_name == "mean") {
    cell.spread = ns;  // completed by "stddev", which follows "mean"
  } else if (run.aggregate_name == "stddev") {
    cell.spread = cell.spread > 0 ? ns / cell.spread : 0;
  }
}

const Cell* Summary::Find(const Case& c, Impl impl) const {
  const auto it = cells_.find(Key(c.Name(), ImplName(impl)));
  return it == cells_.end() ? nullptr : &it->second;
}

double Summary::Gbps(const Case& c, Impl impl) const {
  Case measured_case = c;
  if ((impl == Impl::kRoofline || impl == Impl::kRooflineNt) && c.layout != Layout::kContiguous) {
    measured_case.layout = Layout::kContiguous;
  }
  const Cell* cell = Find(measured_case, impl);
  if (cell == nullptr || !cell->measured || cell->median_ns <= 0) return -1;
  // The roofline's own bytes (a broadcast case moves fewer than its roofline).
  return static_cast<double>(measured_case.UsefulBytes()) / cell->median_ns;  // bytes per ns = GB/s
}

std::string Summary::Table(int threads) const {
  std::ostringstream table;
  table << "| case | T | aclcpu API GB/s | API time/call (cv) | kernel alone (1T) | roofline | roofline NT "
           "| f16 conversions alone | torch | oneDNN | API/roofline | API/roofline NT | API/torch | API/oneDNN |\n"
        << "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const Case& c : cases_) {
    bool any_measured = false;  // rows filtered out by --benchmark_filter are left out
    for (Impl impl : kAllImpls) any_measured |= Find(c, impl) != nullptr && Find(c, impl)->measured;
    if (!any_measured) continue;
    const double api = Gbps(c, Impl::kAclcpuApi);
    const double roofline = Gbps(c, Impl::kRoofline);
    const double roofline_nt = Gbps(c, Impl::kRooflineNt);
    const double torch = Gbps(c, Impl::kTorch);
    const double onednn = Gbps(c, Impl::kOnednn);
    const Cell* api_cell = Find(c, Impl::kAclcpuApi);
    std::string api_time = "–";
    if (api_cell != nullptr && api_cell->measured) {
      api_time = FormatTime(api_cell->median_ns) + Format(" (%.0f%%)", api_cell->spread * 100);
    }
    table << "| " << c.Name() << " | " << threads << " | " << FormatGbps(api) << " | " << api_time << " | "
          << FormatGbps(Gbps(c, Impl::kAclcpuKernel)) << " | " << FormatGbps(roofline) << " | "
          << FormatGbps(roofline_nt) << " | " << FormatGbps(Gbps(c, Impl::kConversionCeiling)) << " | "
          << FormatGbps(torch) << " | " << FormatGbps(onednn) << " | "
          << FormatRatio(api, roofline) << " | " << FormatRatio(api, roofline_nt) << " | " << FormatRatio(api, torch)
          << " | " << FormatRatio(api, onednn) << " |\n";
  }
  return table.str();
}

std::string Summary::Tsv(int threads) const {
  std::ostringstream tsv;
  tsv << "case\top\tdtypes\tlayout\tn\tthreads\timpl\tmedian_ns\tcv\tgbps\tnote\n";
  for (const Case& c : cases_) {
    for (Impl impl : kAllImpls) {
      const Cell* cell = Find(c, impl);
      if (cell == nullptr) continue;
      tsv << c.Name() << '\t' << OpName(c.op) << '\t' << c.dtypes.name << '\t' << LayoutName(c.layout) << '\t' << c.n << '\t' << threads << '\t'
          << ImplName(impl) << '\t';
      if (cell->measured) {
        tsv << Format("%.3f", cell->median_ns) << '\t' << Format("%.4f", cell->spread) << '\t'
            << Format("%.4f", Gbps(c, impl)) << "\t\n";
      } else {
        tsv << "\t\t\t" << cell->why_not << '\n';
      }
    }
  }
  return tsv.str();
}

CollectingReporter::CollectingReporter(Summary* summary)
    : benchmark::ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular), summary_(summary) {}

void CollectingReporter::ReportRuns(const std::vector<Run>& runs) {
  for (const Run& run : runs) summary_->Record(run);
  ConsoleReporter::ReportRuns(runs);
}

}  // namespace aclcpu_bench
