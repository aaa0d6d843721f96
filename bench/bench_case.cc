#include "bench/bench_case.h"

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
    aclrtFree(buffers.grad);
    aclrtFree(buffers.self);
    aclrtFree(buffers.out);
  }
};

// The flat storage index of view element number `k` (row-major over the view shape).
int64_t StorageIndex(const InputView& view, int64_t k) {
  int64_t index = 0;
  for (size_t d = view.shape.size(); d-- > 0;) {
    index += (k % view.shape[d]) * view.strides[d];
    k /= view.shape[d];
  }
  return index;
}

}  // namespace

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kContiguous:
      return "contig";
    case Layout::kTransposed:
      return "transposed";
    case Layout::kStep2:
      return "step2";
  }
  return "?";
}

int64_t Case::UsefulBytes() const {
  return (aclDataTypeSize(dtypes.grad) + aclDataTypeSize(dtypes.self) + aclDataTypeSize(dtypes.out)) * n;
}

std::string SizeName(int64_t n) {
  if (n >= (1 << 20) && n % (1 << 20) == 0) return std::to_string(n >> 20) + "M";
  if (n >= (1 << 10) && n % (1 << 10) == 0) return std::to_string(n >> 10) + "K";
  return std::to_string(n);
}

std::string Case::Name() const { return std::string(dtypes.name) + "/" + LayoutName(layout) + "/" + SizeName(n); }

InputView InputViewOf(const Case& c) {
  switch (c.layout) {
    case Layout::kContiguous:
      return {{c.n}, {1}, c.n};
    case Layout::kTransposed:
      return {{kTransposeSide, kTransposeSide}, {1, kTransposeSide}, kTransposeSide * kTransposeSide};
    case Layout::kStep2:
      return {{c.n}, {2}, 2 * c.n};
  }
  throw std::invalid_argument("benchmark: unknown layout");
}

std::vector<int64_t> OutShapeOf(const Case& c) { return InputViewOf(c).shape; }

const CaseBuffers& BuffersFor(const Case& c) {
  static std::unique_ptr<OwnedBuffers> current;
  const std::string key = c.Name();
  if (current != nullptr && current->key == key) return current->buffers;
  current.reset();  // free the previous case before allocating the next
  const InputView view = InputViewOf(c);
  auto owned = std::make_unique<OwnedBuffers>();
  owned->key = key;
  owned->buffers.grad = DeviceAlloc(view.storage_elements * aclDataTypeSize(c.dtypes.grad));
  owned->buffers.self = DeviceAlloc(view.storage_elements * aclDataTypeSize(c.dtypes.self));
  owned->buffers.out = DeviceAlloc(c.n * aclDataTypeSize(c.dtypes.out));
  FillRandom(owned->buffers.grad, view.storage_elements, c.dtypes.grad, -1.0f, 1.0f, 0x9e3779b97f4a7c15ull);
  FillRandom(owned->buffers.self, view.storage_elements, c.dtypes.self, -4.5f, 4.5f, 0xd1b54a32d192ed03ull);
  // Touch every output page now, so no implementation pays the first-touch faults.
  std::memset(owned->buffers.out, 0, c.n * aclDataTypeSize(c.dtypes.out));
  current = std::move(owned);
  return current->buffers;
}

std::string CheckOutput(const Case& c, const CaseBuffers& buffers) {
  const InputView view = InputViewOf(c);
  constexpr int64_t kSamples = 257;
  for (int64_t s = 0; s < kSamples; ++s) {
    const int64_t k = c.n == 1 ? 0 : s * (c.n - 1) / (kSamples - 1);
    const int64_t in = StorageIndex(view, k);
    const float grad = ElementAsFloat(buffers.grad, in, c.dtypes.grad);
    const float self = ElementAsFloat(buffers.self, in, c.dtypes.self);
    const float expected = (self > -3.0f && self < 3.0f) ? grad * (1.0f / 6.0f) : 0.0f;
    const float got = ElementAsFloat(buffers.out, k, c.dtypes.out);
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
