// aclcpu reliability tests: what the fuzz harnesses, the targeted view tests and
// the stress test share. Black-box: public CANN headers only.
//
//   ByteReader        turns fuzzer bytes into values, biased towards the ones that
//                     break size arithmetic (0, 1, -1, 2^31, 2^32, 2^62, INT64_MIN/MAX...)
//   GuardedBuffer     memory whose first and last bytes touch PROT_NONE pages, so a
//                     read or write one element outside faults at once
//   Reference*        an independent scalar model of aclnnHardsigmoidBackward
//                     (float32 compute, RNE to the promoted dtype, then to out's)
//   ViewModel         CANN's phase-1 rules as the harnesses expect them, and the
//                     storage elements a view reaches (overflow-checked)
//   FUZZ_CHECK        prints the broken clause and aborts (libFuzzer saves the input)
#ifndef ACLCPU_TESTS_FUZZ_FUZZ_SUPPORT_H_
#define ACLCPU_TESTS_FUZZ_FUZZ_SUPPORT_H_

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "c_enum_calls.h"

#define FUZZ_CHECK(condition, ...)                                                        \
  do {                                                                                    \
    if (!(condition)) {                                                                   \
      std::fprintf(stderr, "aclcpu fuzz: %s:%d: check failed: %s\n  ", __FILE__, __LINE__, \
                   #condition);                                                           \
      std::fprintf(stderr, __VA_ARGS__);                                                  \
      std::fprintf(stderr, "\n");                                                         \
      const char* recent = aclGetRecentErrMsg();                                          \
      if (recent != nullptr) std::fprintf(stderr, "  recent message: %s\n", recent);      \
      std::abort();                                                                       \
    }                                                                                     \
  } while (0)

namespace aclcpu_fuzz {

// ---- input decoding ---------------------------------------------------------------------

class ByteReader {
 public:
  ByteReader(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  bool empty() const { return pos_ >= size_; }
  size_t remaining() const { return size_ - pos_; }

  // Past the end every read returns zeros, so every input decodes to something.
  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }
  uint64_t U64() {
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value = (value << 8) | Byte();
    return value;
  }
  int64_t I64() { return static_cast<int64_t>(U64()); }
  int32_t I32() { return static_cast<int32_t>(static_cast<uint32_t>(U64() >> 32)); }
  bool Bool() { return (Byte() & 1) != 0; }
  // Uniform-ish in [0, n).
  uint32_t Below(uint32_t n) { return n == 0 ? 0 : Byte() % n; }

  // A dim, stride or offset: mostly small and valid, sometimes one of the values
  // that break size arithmetic, sometimes 8 raw bytes.
  int64_t Interesting(int64_t small_limit) {
    static const int64_t kSpecial[] = {
        0, 1, 2, -1, -2, 3, 7, 8, 31, 32, 33, 64,
        INT64_C(1) << 31, (INT64_C(1) << 31) - 1, INT64_C(1) << 32, (INT64_C(1) << 32) + 1,
        INT64_C(1) << 40, INT64_C(1) << 61, INT64_C(1) << 62, (INT64_C(1) << 62) + 1,
        INT64_C(3074457345618258603),  // ceil(2^63 / 3)
        std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max() - 1,
        std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::min() + 1,
        std::numeric_limits<int64_t>::max() / 2, std::numeric_limits<int64_t>::max() / 4 + 1,
    };
    const uint8_t kind = Byte();
    if (kind < 176) return static_cast<int64_t>(Byte()) % (small_limit + 1);
    if (kind < 240) return kSpecial[Byte() % (sizeof(kSpecial) / sizeof(kSpecial[0]))];
    return I64();
  }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

// ---- guard-paged memory -----------------------------------------------------------------

// `bytes` of read-write memory between two PROT_NONE pages. With end_at_guard the
// last byte is the one right before the trailing guard page, otherwise the first
// byte is the one right after the leading guard page; either way an access one
// element past that end faults.
class GuardedBuffer {
 public:
  GuardedBuffer() = default;
  GuardedBuffer(size_t bytes, bool end_at_guard) { Allocate(bytes, end_at_guard); }
  GuardedBuffer(const GuardedBuffer&) = delete;
  GuardedBuffer& operator=(const GuardedBuffer&) = delete;
  GuardedBuffer(GuardedBuffer&& other) noexcept { *this = std::move(other); }
  GuardedBuffer& operator=(GuardedBuffer&& other) noexcept {
    if (this != &other) {
      Release();
      map_ = other.map_;
      map_bytes_ = other.map_bytes_;
      data_ = other.data_;
      bytes_ = other.bytes_;
      other.map_ = nullptr;
      other.map_bytes_ = 0;
      other.data_ = nullptr;
      other.bytes_ = 0;
    }
    return *this;
  }
  ~GuardedBuffer() { Release(); }

  void Allocate(size_t bytes, bool end_at_guard) {
    Release();
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t body = (bytes + page - 1) / page * page;
    map_bytes_ = body + 2 * page;
    void* map = mmap(nullptr, map_bytes_, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    FUZZ_CHECK(map != MAP_FAILED, "mmap of %zu bytes failed", map_bytes_);
    map_ = static_cast<uint8_t*>(map);
    if (body > 0) FUZZ_CHECK(mprotect(map_ + page, body, PROT_READ | PROT_WRITE) == 0, "mprotect failed");
    data_ = end_at_guard ? map_ + page + body - bytes : map_ + page;
    bytes_ = bytes;
  }

  uint8_t* data() const { return data_; }
  size_t bytes() const { return bytes_; }

 private:
  void Release() {
    if (map_ != nullptr) munmap(map_, map_bytes_);
    map_ = nullptr;
    data_ = nullptr;
    bytes_ = 0;
  }
  uint8_t* map_ = nullptr;
  size_t map_bytes_ = 0;
  uint8_t* data_ = nullptr;
  size_t bytes_ = 0;
};

// ---- an independent model of the operator -------------------------------------------------

inline uint32_t FloatBits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}
inline float BitsFloat(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

inline float F16ToF32(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exponent = (h >> 10) & 0x1fu;
  const uint32_t mantissa = h & 0x3ffu;
  if (exponent == 0x1f) return BitsFloat(sign | 0x7f800000u | (mantissa << 13));
  if (exponent == 0) {
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // exact
    return sign != 0 ? -magnitude : magnitude;
  }
  return BitsFloat(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// Round to nearest, ties to even; NaN stays NaN (quiet), infinities and overflow give infinity.
inline uint16_t F32ToF16(float f) {
  const uint32_t x = FloatBits(f);
  const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
  const uint32_t magnitude = x & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);
  if (magnitude >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // >= 65520: infinity
  if (magnitude < 0x38800000u) {                                               // below 2^-14: subnormal
    const float scaled = std::fabs(f) * 16777216.0f;                           // exact: times 2^24
    return static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(scaled)));
  }
  uint32_t rebased = magnitude - 0x38000000u;
  rebased += 0xfffu + ((rebased >> 13) & 1u);
  return static_cast<uint16_t>(sign | (rebased >> 13));
}

inline float Bf16ToF32(uint16_t b) { return BitsFloat(static_cast<uint32_t>(b) << 16); }

inline uint16_t F32ToBf16(float f) {
  const uint32_t x = FloatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40u);
  return static_cast<uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

inline bool IsInputDtype(int dtype) { return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16; }
inline bool IsWritableOutDtype(int dtype) { return IsInputDtype(dtype) || dtype == ACL_DOUBLE; }

inline size_t ItemSize(int dtype) {
  switch (dtype) {
    case ACL_FLOAT: return 4;
    case ACL_FLOAT16:
    case ACL_BF16: return 2;
    case ACL_DOUBLE: return 8;
    default: return 0;
  }
}

inline float LoadAsFloat(const uint8_t* element, int dtype) {
  switch (dtype) {
    case ACL_FLOAT: {
      float f;
      std::memcpy(&f, element, 4);
      return f;
    }
    case ACL_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, element, 2);
      return F16ToF32(h);
    }
    default: {
      uint16_t b;
      std::memcpy(&b, element, 2);
      return Bf16ToF32(b);
    }
  }
}

inline int PromotedDtype(int grad, int self) { return grad == self ? grad : ACL_FLOAT; }

// Rounds a float32 result to `dtype` and widens it back (exactly) to float.
inline float RoundThrough(float value, int dtype) {
  if (dtype == ACL_FLOAT16) return F16ToF32(F32ToF16(value));
  if (dtype == ACL_BF16) return Bf16ToF32(F32ToBf16(value));
  return value;
}

// The expected element of out, as raw little-endian bytes in `bytes` (ItemSize(out)).
inline void ReferenceElement(const uint8_t* grad, int grad_dtype, const uint8_t* self, int self_dtype, int out_dtype,
                             uint8_t* bytes) {
  const float g = LoadAsFloat(grad, grad_dtype);
  const float s = LoadAsFloat(self, self_dtype);
  const volatile float alpha = 1.0f / 6.0f;  // no contraction or reassociation
  const float computed = (-3.0f < s && s < 3.0f) ? g * alpha : 0.0f;
  const float promoted = RoundThrough(computed, PromotedDtype(grad_dtype, self_dtype));
  switch (out_dtype) {
    case ACL_FLOAT: std::memcpy(bytes, &promoted, 4); break;
    case ACL_DOUBLE: {
      const double wide = promoted;
      std::memcpy(bytes, &wide, 8);
      break;
    }
    case ACL_FLOAT16: {
      const uint16_t h = F32ToF16(promoted);
      std::memcpy(bytes, &h, 2);
      break;
    }
    default: {
      const uint16_t b = F32ToBf16(promoted);
      std::memcpy(bytes, &b, 2);
      break;
    }
  }
}

inline bool IsNanElement(const uint8_t* bytes, int dtype) {
  switch (dtype) {
    case ACL_FLOAT: {
      float f;
      std::memcpy(&f, bytes, 4);
      return std::isnan(f);
    }
    case ACL_DOUBLE: {
      double d;
      std::memcpy(&d, bytes, 8);
      return std::isnan(d);
    }
    case ACL_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, bytes, 2);
      return (h & 0x7c00u) == 0x7c00u && (h & 0x3ffu) != 0;
    }
    default: {
      uint16_t b;
      std::memcpy(&b, bytes, 2);
      return (b & 0x7f80u) == 0x7f80u && (b & 0x7fu) != 0;
    }
  }
}

// Bit-exact equality, except that any NaN matches any NaN.
inline bool SameElement(const uint8_t* actual, const uint8_t* expected, int dtype) {
  const bool expected_nan = IsNanElement(expected, dtype);
  if (expected_nan || IsNanElement(actual, dtype)) return expected_nan && IsNanElement(actual, dtype);
  return std::memcmp(actual, expected, ItemSize(dtype)) == 0;
}

// ---- views ------------------------------------------------------------------------------

struct View {
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;  // one per dim, in elements
  int64_t offset = 0;
};

// 1 + the largest storage element index a view reaches, as the library computes it
// in phase 1: offset + sum((dim - 1) * stride) over dims > 0, overflow-checked.
// Returns false (extent not representable in 64 bits, in elements or in bytes of
// `itemsize`) or true with *extent set. Negative values must be screened first.
inline bool ViewExtent(const View& view, size_t itemsize, int64_t* extent) {
  __int128 last = view.offset;
  const __int128 max = std::numeric_limits<int64_t>::max();
  for (size_t d = 0; d < view.dims.size(); ++d) {
    if (view.dims[d] > 0) last += static_cast<__int128>(view.dims[d] - 1) * view.strides[d];
    if (last > max) return false;  // terms are non-negative: no later one brings it back
  }
  if (last + 1 > max) return false;
  if ((last + 1) * static_cast<__int128>(itemsize) > max) return false;
  if (static_cast<__int128>(view.offset) * static_cast<__int128>(itemsize) > max) return false;
  *extent = static_cast<int64_t>(last + 1);
  return true;
}

// README "Aliasing": two views with the strides of `view` (and its element
// size) whose first bytes lie `distance` apart share no byte by the documented
// sufficient rule: every byte either view touches is start + a sum of
// index x step over the steps (1 byte, size itemsize), (distance, size 2) and the
// view's dims in bytes; ordered by step, each step must exceed what all
// smaller ones reach together. Ours, written from the README, not the library's.
inline bool OneLayoutInterleavesWithoutMeeting(const View& view, size_t itemsize, uint64_t distance) {
  if (distance == 0) return false;
  std::vector<std::pair<uint64_t, uint64_t>> steps = {{1, itemsize}, {distance, 2}};  // (step, count)
  for (size_t d = 0; d < view.dims.size(); ++d) {
    if (view.dims[d] > 1) {
      steps.emplace_back(static_cast<uint64_t>(view.strides[d]) * itemsize, static_cast<uint64_t>(view.dims[d]));
    }
  }
  std::sort(steps.begin(), steps.end());
  unsigned __int128 reach = 0;
  for (const auto& [step, count] : steps) {
    if (count <= 1) continue;
    if (step <= reach) return false;
    reach += static_cast<unsigned __int128>(step) * (count - 1);
  }
  return true;
}

// README "Aliasing", the staging model both operator harnesses share: an input
// view whose bytes meet out's, other than as the same elements (same first byte,
// element size and strides over dims of more than one index), is copied into
// workspace first: the bytes from its first element to one past the last byte
// it touches, rounded up to 64. Views must be non-negative and measurable
// (ViewExtent true); `in_data` / `out_data` are their buffers' addresses.
inline uint64_t StagedInputBytes(const View& in, size_t in_itemsize, const void* in_data, const View& out,
                                 size_t out_itemsize, const void* out_data) {
  const auto span = [](const View& view, size_t itemsize, const void* data, uint64_t* begin, uint64_t* end) {
    int64_t extent = 0;
    ViewExtent(view, itemsize, &extent);
    const uint64_t base = reinterpret_cast<uintptr_t>(data);
    *begin = base + static_cast<uint64_t>(view.offset) * itemsize;
    *end = base + static_cast<uint64_t>(extent) * itemsize;
  };
  uint64_t in_begin = 0, in_end = 0, out_begin = 0, out_end = 0;
  span(in, in_itemsize, in_data, &in_begin, &in_end);
  span(out, out_itemsize, out_data, &out_begin, &out_end);
  if (in_begin >= out_end || out_begin >= in_end) return 0;
  bool same_elements = in_begin == out_begin && in_itemsize == out_itemsize;
  for (size_t d = 0; same_elements && d < in.dims.size(); ++d) {
    same_elements = in.dims[d] <= 1 || in.strides[d] == out.strides[d];
  }
  if (same_elements) return 0;
  bool same_layout = in_itemsize == out_itemsize;
  for (size_t d = 0; same_layout && d < in.dims.size(); ++d) {
    same_layout = in.dims[d] <= 1 || in.strides[d] == out.strides[d];
  }
  const uint64_t distance = in_begin > out_begin ? in_begin - out_begin : out_begin - in_begin;
  if (same_layout && OneLayoutInterleavesWithoutMeeting(in, in_itemsize, distance)) return 0;
  return ((in_end - in_begin) + 63) & ~uint64_t{63};
}

inline bool HasNegative(const View& view) {
  if (view.offset < 0) return true;
  for (size_t d = 0; d < view.dims.size(); ++d) {
    if (view.dims[d] < 0 || view.strides[d] < 0) return true;
  }
  return false;
}

inline bool IsEmptyView(const View& view) {
  for (int64_t dim : view.dims) {
    if (dim == 0) return true;
  }
  return false;
}

// Number of elements, or -1 if it does not fit in 63 bits (or a dim is negative).
inline int64_t ElementCount(const std::vector<int64_t>& dims) {
  int64_t count = 1;
  for (int64_t dim : dims) {
    if (dim < 0) return -1;
    if (__builtin_mul_overflow(count, dim, &count)) return -1;
  }
  return count;
}

// Storage element index of each view position, in row-major order of the view.
inline std::vector<int64_t> ViewOffsets(const View& view) {
  std::vector<int64_t> offsets;
  const int64_t count = ElementCount(view.dims);
  if (count <= 0) return offsets;
  offsets.reserve(static_cast<size_t>(count));
  std::vector<int64_t> index(view.dims.size(), 0);
  for (int64_t n = 0; n < count; ++n) {
    int64_t offset = view.offset;
    for (size_t d = 0; d < view.dims.size(); ++d) offset += index[d] * view.strides[d];
    offsets.push_back(offset);
    for (size_t d = view.dims.size(); d-- > 0;) {
      if (++index[d] < view.dims[d]) break;
      index[d] = 0;
    }
  }
  return offsets;
}

// Row-major strides (wrapping silently for absurd dims: the harness only needs
// some value there, and must not itself overflow a signed integer).
inline std::vector<int64_t> RowMajor(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) {
    strides[d - 1] = static_cast<int64_t>(static_cast<uint64_t>(strides[d]) * static_cast<uint64_t>(dims[d]));
  }
  return strides;
}

// Strides for `dims`: row-major, a permutation of row-major, small arbitrary
// (zero included: broadcast or self-overlapping views), or interesting values.
inline std::vector<int64_t> DecodeStrides(ByteReader& in, const std::vector<int64_t>& dims, bool* null_strides) {
  std::vector<int64_t> strides = RowMajor(dims);
  *null_strides = false;
  const uint8_t mode = in.Below(8);
  if (mode == 0) {
    *null_strides = true;
  } else if (mode == 1 || mode == 2) {  // dims permuted in storage (transposes)
    std::vector<size_t> order(dims.size());
    for (size_t d = 0; d < order.size(); ++d) order[d] = d;
    for (size_t d = order.size(); d > 1; --d) std::swap(order[d - 1], order[in.Below(static_cast<uint32_t>(d))]);
    int64_t stride = 1 + (mode == 2 ? in.Below(3) : 0);
    for (size_t k = order.size(); k-- > 0;) {
      strides[order[k]] = stride;
      const int64_t dim = dims[order[k]] > 0 ? dims[order[k]] : 1;
      if (__builtin_mul_overflow(stride, dim, &stride)) stride = 1;
    }
  } else if (mode == 3 || mode == 4) {
    for (auto& stride : strides) stride = in.Below(6);
  } else if (mode == 5) {
    for (auto& stride : strides) stride = in.Interesting(16);
  }
  // mode 6, 7: row-major
  return strides;
}

// The README's rule for a written view ("Aliasing"): take the dims of more than
// one index by increasing stride; each stride must exceed the sum of
// (size - 1) * stride over the dims taken before it.
inline bool OutPassesDistinctElementsRule(const View& view) {
  std::vector<std::pair<int64_t, int64_t>> stride_size;
  for (size_t d = 0; d < view.dims.size(); ++d) {
    if (view.dims[d] > 1) stride_size.emplace_back(view.strides[d], view.dims[d]);
  }
  std::sort(stride_size.begin(), stride_size.end());
  int64_t reach = 0;
  for (const auto& [stride, size] : stride_size) {
    if (stride <= reach) return false;
    reach += (size - 1) * stride;
  }
  return true;
}

// A shape: rank 0 to 8 mostly, 9 to 12 rarely (beyond CANN's limit); dims
// below `small_limit`, or, one input in four, values that break size
// arithmetic.
inline std::vector<int64_t> DecodeShape(ByteReader& in, uint32_t small_limit) {
  const uint8_t rank_byte = in.Byte();
  const size_t rank = rank_byte < 240 ? rank_byte % 9 : 9 + rank_byte % 4;
  std::vector<int64_t> shape(rank);
  const bool huge_dims = in.Below(4) == 0;
  for (auto& dim : shape) dim = huge_dims ? in.Interesting(5) : in.Below(small_limit);
  return shape;
}

// For a view passed with stride == nullptr: writes the strides the library
// computes then (row-major, dims <= 0 counting as 1) into view->strides, from
// the innermost dim out. Returns false, leaving the strides written so far, if
// that arithmetic would overflow: the harness then passes explicit strides.
inline bool LibraryDefaultStrides(View* view) {
  int64_t stride = 1;
  for (size_t d = view->dims.size(); d-- > 0;) {
    view->strides[d] = stride;
    const int64_t dim = view->dims[d] > 0 ? view->dims[d] : 1;
    if (__builtin_mul_overflow(stride, dim, &stride)) return false;
  }
  return true;
}

// Process-wide runtime set-up: aclInit, device 0, one extra stream.
inline aclrtStream SharedStream() {
  static aclrtStream stream = [] {
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream created = nullptr;
    FUZZ_CHECK(aclrtCreateStream(&created) == ACL_SUCCESS, "aclrtCreateStream failed");
    return created;
  }();
  return stream;
}

// Drops the calling thread's recorded messages.
inline void ClearMessages() { (void)aclGetRecentErrMsg(); }

// Whether phase 1 must refuse a view that reaches past the storage shape given
// to aclCreateTensor (issue clause 2; the library does since commit f092109).
// ACLCPU_FUZZ_STORAGE_CHECK=0 tolerates a library without the check.
inline bool ExpectStorageCheck() {
  static const bool expect = [] {
    const char* value = std::getenv("ACLCPU_FUZZ_STORAGE_CHECK");
    return value == nullptr || value[0] != '0';
  }();
  return expect;
}

// Dtypes and formats are any int32_t a C caller can pass: values outside the
// enums' ranges (aclDataType's is -64..63) included, which the library reads as
// integers (src/common/raw_enum.h; docs/reliability.md, finding 5), so the
// fuzz stage's UBSan (-fsanitize=enum) checks that it never loads one as its
// enum type. The harnesses hold them as int and call through
// tests/support/c_enum_calls.c, as a C program would.
inline int EnumValue(int32_t raw) { return raw; }

}  // namespace aclcpu_fuzz

#endif  // ACLCPU_TESTS_FUZZ_FUZZ_SUPPORT_H_
