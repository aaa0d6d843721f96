#include "bench/bench_case.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "acl/acl.h"

namespace aclcpu_bench {
namespace {

// A small, fast generator: filling 64M-element buffers with std::mt19937 would
// take longer than measuring them.
class XorShift {
 public:
  explicit XorShift(uint64_t seed) : state_(seed) {}
  // Uniform in [lo, hi).
  float Uniform(float lo, float hi) {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    const float unit = static_cast<float>(state_ >> 40) * (1.0f / 16777216.0f);
    return lo + (hi - lo) * unit;
  }

 private:
  uint64_t state_;
};

uint16_t FloatToBf16Bits(float value) {
  uint32_t bits;
  std::memcpy(&bits, &value, sizeof(bits));
  return static_cast<uint16_t>(bits >> 16);  // any bf16 value will do as input data
}

float ElementAsFloat(const void* base, int64_t index, aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT:
      return static_cast<const float*>(base)[index];
    case ACL_FLOAT16: {
      aclFloat16 half;
      std::memcpy(&half, static_cast<const uint16_t*>(base) + index, sizeof(half));
      return aclFloat16ToFloat(half);
    }
    case ACL_BF16: {
      const uint32_t bits = uint32_t{static_cast<const uint16_t*>(base)[index]} << 16;
      float value;
      std::memcpy(&value, &bits, sizeof(value));
      return value;
    }
    case ACL_INT32:
      return static_cast<float>(static_cast<const int32_t*>(base)[index]);
    default:
      throw std::invalid_argument("benchmark: unexpected dtype");
  }
}

void FillRandom(void* base, int64_t count, aclDataType dtype, float lo, float hi, uint64_t seed) {
  XorShift rng(seed);
  for (int64_t i = 0; i < count; ++i) {
    const float value = rng.Uniform(lo, hi);
    switch (dtype) {
      case ACL_FLOAT:
        static_cast<float*>(base)[i] = value;
        break;
      case ACL_FLOAT16: {
        const aclFloat16 half = aclFloatToFloat16(value);
        std::memcpy(static_cast<uint16_t*>(base) + i, &half, sizeof(half));
        break;
      }
      case ACL_BF16:
        static_cast<uint16_t*>(base)[i] = FloatToBf16Bits(value);
        break;
      case ACL_INT32:
        static_cast<int32_t*>(base)[i] = static_cast<int32_t>(std::lround(value));
        break;
      default:
        throw std::invalid_argument("benchmark: unexpected dtype");
    }
  }
}

void* DeviceAlloc(size_t bytes) {
  void* memory = nullptr;
  if (aclrtMalloc(&memory, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    throw std::runtime_error("benchmark: aclrtMalloc failed");
  }
  return memory;
}

struct OwnedBuffers {
  std::string key;
  CaseBuffers buffers;
  ~OwnedBuffers() {
    if (buffers.grad != nullptr) aclrtFree(buffers.grad);
    if (buffers.out != buffers.self) aclrtFree(buffers.out);  // in place, out is self
    aclrtFree(buffers.self);
  }
};

// The positions CheckOutput samples: evenly spread view elements.
constexpr int64_t kSamples = 257;
int64_t SampledElement(const Case& c, int64_t s) { return c.n == 1 ? 0 : s * (c.n - 1) / (kSamples - 1); }

// The forward pair's definition (README.md, Semantics): float32 arithmetic, a
// division by 6; INT32 truncates CANN's piecewise formula, so 1 from self >= 3.
float HardsigmoidOf(float self, aclDataType dtype) {
  if (dtype == ACL_INT32) return self >= 3.0f ? 1.0f : 0.0f;
  return std::min(std::max(self + 3.0f, 0.0f), 6.0f) / 6.0f;
}

// The flat storage index of view element number `k` (row-major over the view shape).
int64_t StorageIndex(const TensorView& view, int64_t k) {
  int64_t index = 0;
  for (size_t d = view.shape.size(); d-- > 0;) {
    index += (k % view.shape[d]) * view.strides[d];
    k /= view.shape[d];
  }
  return index;
}

}  // namespace

const char* OpPrefix(Op op) {
  switch (op) {
    case Op::kBackward:
      return "";
    case Op::kForward:
      return "fwd/";
    case Op::kForwardInplace:
      return "fwd_inplace/";
  }
  return "?/";
}

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kContiguous:
      return "contig";
    case Layout::kTransposed:
      return "transposed";
    case Layout::kStep2:
      return "step2";
    case Layout::kAllTransposed:
      return "alltransposed";
    case Layout::kBroadcast:
      return "broadcast";
  }
  return "?";
}

int64_t Case::UsefulBytes() const {
  if (op != Op::kBackward) return (aclDataTypeSize(dtypes.self) + aclDataTypeSize(dtypes.out)) * n;
  const int64_t grad_elements = layout == Layout::kBroadcast ? BroadcastSide(n) : n;
  return aclDataTypeSize(dtypes.grad) * grad_elements + (aclDataTypeSize(dtypes.self) + aclDataTypeSize(dtypes.out)) * n;
}

int64_t BroadcastSide(int64_t n) {
  int64_t side = 1;
  while (side * side < n) side *= 2;
  if (side * side != n) throw std::invalid_argument("benchmark: a broadcast case needs a power-of-4 size");
  return side;
}

std::string SizeName(int64_t n) {
  if (n >= (1 << 20) && n % (1 << 20) == 0) return std::to_string(n >> 20) + "M";
  if (n >= (1 << 10) && n % (1 << 10) == 0) return std::to_string(n >> 10) + "K";
  return std::to_string(n);
}

std::string Case::Name() const {
  return std::string(OpPrefix(op)) + dtypes.name + "/" + LayoutName(layout) + "/" + SizeName(n);
}

TensorView ViewOf(const Case& c, Operand operand) {
  if (c.op == Op::kForwardInplace && operand == Operand::kOut) return ViewOf(c, Operand::kSelf);
  const bool input = operand != Operand::kOut;
  switch (c.layout) {
    case Layout::kContiguous:
      return {{c.n}, {1}, c.n};
    case Layout::kTransposed:
      if (input) return {{kTransposeSide, kTransposeSide}, {1, kTransposeSide}, kTransposeSide * kTransposeSide};
      return {{kTransposeSide, kTransposeSide}, {kTransposeSide, 1}, kTransposeSide * kTransposeSide};
    case Layout::kAllTransposed:
      return {{kTransposeSide, kTransposeSide}, {1, kTransposeSide}, kTransposeSide * kTransposeSide};
    case Layout::kStep2:
      if (input) return {{c.n}, {2}, 2 * c.n};
      return {{c.n}, {1}, c.n};
    case Layout::kBroadcast: {
      const int64_t side = BroadcastSide(c.n);
      if (operand == Operand::kGrad) return {{side, side}, {0, 1}, side};
      return {{side, side}, {side, 1}, c.n};
    }
  }
  throw std::invalid_argument("benchmark: unknown layout");
}

const CaseBuffers& BuffersFor(const Case& c) {
  static std::unique_ptr<OwnedBuffers> current;
  const std::string key = c.Name();
  if (current != nullptr && current->key == key) return current->buffers;
  current.reset();  // free the previous case before allocating the next
  const int64_t self_elements = ViewOf(c, Operand::kSelf).storage_elements;
  const int64_t out_elements = ViewOf(c, Operand::kOut).storage_elements;
  auto owned = std::make_unique<OwnedBuffers>();
  owned->key = key;
  if (c.op == Op::kBackward) {
    const int64_t grad_elements = ViewOf(c, Operand::kGrad).storage_elements;
    owned->buffers.grad = DeviceAlloc(grad_elements * aclDataTypeSize(c.dtypes.grad));
    FillRandom(owned->buffers.grad, grad_elements, c.dtypes.grad, -1.0f, 1.0f, 0x9e3779b97f4a7c15ull);
  }
  owned->buffers.self = DeviceAlloc(self_elements * aclDataTypeSize(c.dtypes.self));
  FillRandom(owned->buffers.self, self_elements, c.dtypes.self, -4.5f, 4.5f, 0xd1b54a32d192ed03ull);
  if (c.op == Op::kForwardInplace) {
    owned->buffers.out = owned->buffers.self;
  } else {
    owned->buffers.out = DeviceAlloc(out_elements * aclDataTypeSize(c.dtypes.out));
    // Touch every output page now, so no implementation pays the first-touch faults.
    std::memset(owned->buffers.out, 0, out_elements * aclDataTypeSize(c.dtypes.out));
  }
  current = std::move(owned);
  return current->buffers;
}

InputSamples SampleInputs(const Case& c, const CaseBuffers& buffers) {
  InputSamples samples;
  const TensorView self_view = ViewOf(c, Operand::kSelf);
  for (int64_t s = 0; s < kSamples; ++s) {
    samples.self.push_back(ElementAsFloat(buffers.self, StorageIndex(self_view, SampledElement(c, s)), c.dtypes.self));
  }
  if (c.op == Op::kBackward) {
    const TensorView grad_view = ViewOf(c, Operand::kGrad);
    for (int64_t s = 0; s < kSamples; ++s) {
      samples.grad.push_back(
          ElementAsFloat(buffers.grad, StorageIndex(grad_view, SampledElement(c, s)), c.dtypes.grad));
    }
  }
  return samples;
}

std::string CheckOutput(const Case& c, const CaseBuffers& buffers, const InputSamples& inputs) {
  const TensorView out_view = ViewOf(c, Operand::kOut);
  for (int64_t s = 0; s < kSamples; ++s) {
    const int64_t k = SampledElement(c, s);
    const float self = inputs.self[s];
    const float expected = c.op != Op::kBackward                ? HardsigmoidOf(self, c.dtypes.self)
                           : (self > -3.0f && self < 3.0f) ? inputs.grad[s] * (1.0f / 6.0f)
                                                           : 0.0f;
    const float got = ElementAsFloat(buffers.out, StorageIndex(out_view, k), c.dtypes.out);
    if (!(std::fabs(got - expected) <= std::fabs(expected) * (1.0f / 128.0f) + 1e-30f)) {
      char message[160];
      std::snprintf(message, sizeof(message), "wrong result at element %lld: got %g, expected %g",
                    static_cast<long long>(k), got, expected);
      return message;
    }
  }
  return "";
}

}  // namespace aclcpu_bench
