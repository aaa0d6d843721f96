// aclcpu benchmark: what one measured case is (dtypes, layout, size) and the
// device buffers every implementation of that case reads and writes.
#ifndef ACLCPU_BENCH_BENCH_CASE_H_
#define ACLCPU_BENCH_BENCH_CASE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl_base.h"

namespace aclcpu_bench {

// The operator a case measures. The forward pair reads self only (grad is unused)
// and, in place, writes through self's own view.
enum class Op {
  kBackward,        // aclnnHardsigmoidBackward(gradOutput, self, out)
  kForward,         // aclnnHardsigmoid(self, out)
  kForwardInplace,  // aclnnInplaceHardsigmoid(self)
};

// "" for the backward op (its names predate the forward pair), else "fwd/" or "fwd_inplace/".
const char* OpPrefix(Op op);

// The dtypes of one case: gradOutput, self and out (the forward pair uses self's, and out's equals it).
struct DtypeCase {
  const char* name;  // short, usable in a benchmark name
  aclDataType grad;
  aclDataType self;
  aclDataType out;
};

enum class Layout {
  kContiguous,     // all three tensors dense, 1-D
  kTransposed,     // both inputs are the transpose of a dense 4096x4096 buffer; out dense
                   // (in place: self, read and written, is that transpose)
  kStep2,          // both inputs are [::2] views of 2N-element buffers; out dense
  kAllTransposed,  // inputs and out are all the transpose of dense 4096x4096 buffers
  kBroadcast,      // gradOutput one dense row expanded (stride 0) over the rows of a square;
                   // self and out dense
};

// Side of the square matrix in the transposed layout (n is then its square).
inline constexpr int64_t kTransposeSide = 4096;

const char* LayoutName(Layout layout);

struct Case {
  DtypeCase dtypes;
  Layout layout;
  int64_t n;  // elements of out
  Op op = Op::kBackward;

  // Bytes the operator must move at minimum: both inputs read and out written
  // once, (in1 + in2 + out element sizes) x n, whatever the layout; except that
  // a broadcast gradOutput is one row, read once. Forward: (self + out) x n,
  // in place as well (self is read, then written).
  int64_t UsefulBytes() const;
  // "f32/contig/1M", "fwd/f32/contig/1M": identifies the case in benchmark names and tables.
  std::string Name() const;
};

// The three tensors of a case.
enum class Operand { kGrad, kSelf, kOut };

// A view of one tensor: shape and strides in elements over `storage_elements`.
struct TensorView {
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;
  int64_t storage_elements;
};

TensorView ViewOf(const Case& c, Operand operand);

// Side of the square a broadcast case of n elements is laid out in (n is a
// power of 4: 1K -> 32 x 32, 1M -> 1024 x 1024, 16M -> 4096 x 4096).
int64_t BroadcastSide(int64_t n);

// Device memory (aclrtMalloc, huge-page backed) holding one case's inputs,
// filled with random data (self in [-4.5, 4.5], so about 2/3 of the elements
// fall inside the window; INT32 self rounded to integers), and its output.
// Forward cases have no grad (nullptr); in place, out is self.
struct CaseBuffers {
  void* grad = nullptr;
  void* self = nullptr;
  void* out = nullptr;
};

// The buffers of `c`. Only the most recently requested case is kept, since
// Google Benchmark runs the implementations of one case one after the other and
// the large cases take hundreds of MB each.
const CaseBuffers& BuffersFor(const Case& c);

// The inputs at the positions CheckOutput samples, read before the run it
// checks: an in-place case overwrites its input.
struct InputSamples {
  std::vector<float> grad;  // empty for the forward pair
  std::vector<float> self;
};
InputSamples SampleInputs(const Case& c, const CaseBuffers& buffers);

// Samples out at the same positions and compares with the operator's
// definition computed from `inputs` (tolerance: one 16-bit rounding).
// Returns "" on success, else what differs; catches layout mistakes in a runner.
std::string CheckOutput(const Case& c, const CaseBuffers& buffers, const InputSamples& inputs);

// "1", "1K", "64K", "1M", "16M", "64M".
std::string SizeName(int64_t n);

}  // namespace aclcpu_bench

#endif  // ACLCPU_BENCH_BENCH_CASE_H_
