// aclcpu benchmark: the STREAM-style roofline. c[i] = a[i] + b[i] over unsigned
// integers of the case's element sizes, so it moves exactly the bytes the
// operator must (two reads, one write) with the cheapest possible arithmetic:
// the cost of the memory traffic alone, measured in the same process. Two
// variants: ordinary stores, and non-temporal stores (which skip the
// read-for-ownership of out's lines and win beyond the last-level cache).
// And, for all-f16 cases, a third: the f16 conversion ceiling (ConvertRangeF16;
// the forward pair's f16 cases: ConvertCopyRangeF16).
// The forward pair's cases move one read and one write per element: for them
// the roofline is c = a ^ key (a copy, with or without non-temporal stores),
// and in place a ^= key (read-modify-write of the same lines), key being 0.
//
// Step-2 cases (both inputs [::2] views) have a roofline of their own traffic:
// c[i] = a[2i] + b[2i], which reads every line of both inputs (a stride of two
// elements leaves no line unread) and writes c once, with ordinary or
// non-temporal stores. It shows what the memory gives step-2 traffic, against
// the contiguous roofline of the same size, which reads half as many input lines.
//
// Transposed cases (each input the transpose view of a dense side x side
// buffer, out dense) have one too, of the pattern rather than of the bytes:
// aclcpu's block walk with nothing in it. Blocks of 256 input rows (128 for a
// 32-bit out) x 128 columns, row blocks outside (the shapes of
// aclcpu's blocks, ops/shared/simd/transposed_tiles-inl.h): each input's row
// segments are read into scratch, the next block's segments prefetched, and
// out's line segments (one a block column, a block's rows long) written with
// non-temporal stores from the scratch bytes -- the same reads and writes at
// the same addresses, no arithmetic, no transposing shuffles. Any
// transposition through such blocks pays at least this. A throwaway probe of
// other block shapes on the AMD Zen 5 VM (64-1024 rows x 64-512 columns, f16
// 4096^2, with the transposing shuffles) found none clearly cheaper (within
// that VM's 10-20 % noise), all two to three times a contiguous copy's time.
//
// Broadcast cases (gradOutput one row of `side` elements expanded down a side
// x side square, self and out dense) have one of their own traffic as well:
// c[r][j] = a[r][j] + b[j], a being self, b the grad row and c out. The row is
// read from L1 every time after the first, so this reads self once and writes
// out once, out with non-temporal stores row by row from the footprint at which
// aclcpu streams (every view's elements counted as aclcpu counts them:
// ops/shared/elementwise_plan.h's kStreamingMinFootprintBytes), ordinary stores
// below it. The contiguous roofline of the same size reads a second n-element
// input instead, a traffic (two reads to a write) the case never has.
//
// Compiled by Highway for every SIMD target and dispatched at run time, like
// aclcpu's kernels. Threads: one OpenMP fork-join per call, as a library call
// would do, and none below kParallelGrain elements (as every library does,
// because a fork-join costs ~1 us).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/roofline.cc"
// clang-format off
#include "hwy/foreach_target.h"  // IWYU pragma: keep (must precede highway.h)
// clang-format on

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "hwy/cache_control.h"
#include "hwy/highway.h"
#include "simd/convert-inl.h"

HWY_BEFORE_NAMESPACE();
namespace aclcpu_bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D, class V>
HWY_INLINE hn::Vec<D> WidenTo(D d, V v) {
  if constexpr (std::is_same_v<hn::TFromV<V>, hn::TFromD<D>>) {
    return v;
  } else {
    return hn::PromoteTo(d, v);
  }
}

// [begin, end) of c = a + b. With kStream, c + begin must be vector-aligned,
// and the caller fences (hwy::FlushStream) once it has made all its stores.
template <typename A, typename B, typename C, bool kStream>
HWY_INLINE void AddLoop(const void* a_raw, const void* b_raw, void* c_raw, size_t begin, size_t end) {
  const A* HWY_RESTRICT a = static_cast<const A*>(a_raw);
  const B* HWY_RESTRICT b = static_cast<const B*>(b_raw);
  C* HWY_RESTRICT c = static_cast<C*>(c_raw);
  const hn::ScalableTag<C> dc;
  const hn::Rebind<A, decltype(dc)> da;
  const hn::Rebind<B, decltype(dc)> db;
  const size_t lanes = hn::Lanes(dc);
  size_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    const auto sum = hn::Add(WidenTo(dc, hn::LoadU(da, a + i)), WidenTo(dc, hn::LoadU(db, b + i)));
    if constexpr (kStream) {
      hn::Stream(sum, dc, c + i);
    } else {
      hn::StoreU(sum, dc, c + i);
    }
  }
  for (; i < end; ++i) c[i] = static_cast<C>(C{a[i]} + C{b[i]});
}

// Calls fn(A{}, B{}, C{}) with the unsigned integer types of the element sizes
// of a, b and c, for the combinations the cases have (RooflineSupports());
// nothing for any other.
template <class Fn>
HWY_INLINE void WithElementTypes(int a_size, int b_size, int c_size, Fn&& fn) {
  switch (a_size * 100 + b_size * 10 + c_size) {
    case 444:
      return fn(uint32_t{}, uint32_t{}, uint32_t{});
    case 222:
      return fn(uint16_t{}, uint16_t{}, uint16_t{});
    case 244:
      return fn(uint16_t{}, uint32_t{}, uint32_t{});
    case 424:
      return fn(uint32_t{}, uint16_t{}, uint32_t{});
    case 224:
      return fn(uint16_t{}, uint16_t{}, uint32_t{});
    default:
      return;
  }
}

// The even elements a[0], a[2], ... of the 2 x lanes elements at `a`, as lanes
// of dc: same-size elements de-interleaved by ConcatEven (as aclcpu's step-2
// path does); 16-bit ones into 32-bit lanes by loading pairs as 32-bit lanes
// and keeping each lane's low half, the even element on little-endian targets.
template <typename A, class DC>
HWY_INLINE hn::Vec<DC> EvenElements(DC dc, const A* a) {
  using C = hn::TFromD<DC>;
#if HWY_TARGET == HWY_SCALAR
  return hn::Set(dc, static_cast<C>(a[0]));  // one lane (no ConcatEven on this target)
#else
  if constexpr (sizeof(A) == sizeof(C)) {
    const size_t lanes = hn::Lanes(dc);
    return hn::ConcatEven(dc, hn::LoadU(dc, reinterpret_cast<const C*>(a) + lanes),
                          hn::LoadU(dc, reinterpret_cast<const C*>(a)));
  } else {
    static_assert(sizeof(A) == 2 && sizeof(C) == 4, "16-bit elements into 32-bit lanes");
    static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the even element is the low half");
    return hn::And(hn::LoadU(dc, reinterpret_cast<const C*>(a)), hn::Set(dc, C{0xFFFF}));
  }
#endif
}

// [begin, end) of c[i] = a[2i] + b[2i], with ordinary or non-temporal stores
// (c + begin vector-aligned for the latter): aclcpu streams large step-2
// launches too, so the better of the two counts.
template <typename A, typename B, typename C, bool kStream>
HWY_INLINE void AddStep2Loop(const void* a_raw, const void* b_raw, void* c_raw, size_t begin, size_t end) {
  const A* HWY_RESTRICT a = static_cast<const A*>(a_raw);
  const B* HWY_RESTRICT b = static_cast<const B*>(b_raw);
  C* HWY_RESTRICT c = static_cast<C*>(c_raw);
  const hn::ScalableTag<C> dc;
  const size_t lanes = hn::Lanes(dc);
  size_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    const auto sum = hn::Add(EvenElements(dc, a + 2 * i), EvenElements(dc, b + 2 * i));
    if constexpr (kStream) {
      hn::Stream(sum, dc, c + i);
    } else {
      hn::StoreU(sum, dc, c + i);
    }
  }
  for (; i < end; ++i) c[i] = static_cast<C>(C{a[2 * i]} + C{b[2 * i]});
  if constexpr (kStream) hwy::FlushStream();
}

template <bool kStream>
void AddStep2RangeImpl(int a_size, int b_size, int c_size, const void* a, const void* b, void* c, size_t begin,
                       size_t end) {
  WithElementTypes(a_size, b_size, c_size, [&](auto a_type, auto b_type, auto c_type) {
    AddStep2Loop<decltype(a_type), decltype(b_type), decltype(c_type), kStream>(a, b, c, begin, end);
  });
}

void AddStep2Range(int a_size, int b_size, int c_size, const void* a, const void* b, void* c, size_t begin,
                   size_t end) {
  AddStep2RangeImpl<false>(a_size, b_size, c_size, a, b, c, begin, end);
}
void AddStep2RangeStream(int a_size, int b_size, int c_size, const void* a, const void* b, void* c, size_t begin,
                         size_t end) {
  AddStep2RangeImpl<true>(a_size, b_size, c_size, a, b, c, begin, end);
}

template <bool kStream>
void AddRangeImpl(int a_size, int b_size, int c_size, const void* a, const void* b, void* c, size_t begin, size_t end) {
  WithElementTypes(a_size, b_size, c_size, [&](auto a_type, auto b_type, auto c_type) {
    AddLoop<decltype(a_type), decltype(b_type), decltype(c_type), kStream>(a, b, c, begin, end);
  });
  if constexpr (kStream) hwy::FlushStream();
}

void AddRange(int a_size, int b_size, int c_size, const void* a, const void* b, void* c, size_t begin, size_t end) {
  AddRangeImpl<false>(a_size, b_size, c_size, a, b, c, begin, end);
}
void AddRangeStream(int a_size, int b_size, int c_size, const void* a, const void* b, void* c, size_t begin,
                    size_t end) {
  AddRangeImpl<true>(a_size, b_size, c_size, a, b, c, begin, end);
}

// Rows [row_begin, row_end) of c[r][j] = a[r][j] + b[j]: a and c dense side x
// side, b one row of side elements. With kStream, non-temporal stores for each
// row's vector-aligned middle, ordinary ones for the elements before it and
// after the last full vector. (For the bench's buffers those ends are empty on x86:
// aclrtMalloc returns 64-byte aligned memory, and a row is a power of two of
// at least 32 elements of 2 or 4 bytes, a multiple of 64 bytes.) One fence at
// the end, not one a row, as aclcpu fences once a part: with 4 KiB rows a
// fence a row made its call about 1.5x as long (ops/shared/elementwise_launch.h).
template <typename A, typename B, typename C, bool kStream>
HWY_INLINE void AddBroadcastRowsLoop(const void* a_raw, const void* b, void* c_raw, size_t side, size_t row_begin,
                                     size_t row_end) {
  const A* a = static_cast<const A*>(a_raw);
  C* c = static_cast<C*>(c_raw);
  const size_t lanes = hn::Lanes(hn::ScalableTag<C>());
  for (size_t r = row_begin; r < row_end; ++r) {
    const A* a_row = a + r * side;
    C* c_row = c + r * side;
    const size_t misaligned = reinterpret_cast<uintptr_t>(c_row) % (lanes * sizeof(C)) / sizeof(C);
    const size_t head = !kStream ? 0 : std::min(side, misaligned == 0 ? 0 : lanes - misaligned);
    AddLoop<A, B, C, false>(a_row, b, c_row, 0, head);
    AddLoop<A, B, C, kStream>(a_row, b, c_row, head, side);
  }
  if constexpr (kStream) hwy::FlushStream();
}

void AddBroadcastRows(int a_size, int b_size, int c_size, const void* a, const void* b, void* c, size_t side,
                      size_t row_begin, size_t row_end, bool stream) {
  WithElementTypes(a_size, b_size, c_size, [&](auto a_type, auto b_type, auto c_type) {
    using A = decltype(a_type);
    using B = decltype(b_type);
    using C = decltype(c_type);
    if (stream) {
      AddBroadcastRowsLoop<A, B, C, true>(a, b, c, side, row_begin, row_end);
    } else {
      AddBroadcastRowsLoop<A, B, C, false>(a, b, c, side, row_begin, row_end);
    }
  });
}

// [begin, end) of c = a ^ key: one read and one write per element. `key` is 0
// but arrives through the dynamic-dispatch table, so the compiler cannot turn
// the loop into memcpy or, in place, drop the stores as storing what was loaded.
template <typename T, bool kStream>
HWY_INLINE void CopyLoop(const void* a_raw, void* c_raw, T key, size_t begin, size_t end) {
  const T* HWY_RESTRICT a = static_cast<const T*>(a_raw);
  T* HWY_RESTRICT c = static_cast<T*>(c_raw);
  const hn::ScalableTag<T> d;
  const auto key_vector = hn::Set(d, key);
  const size_t lanes = hn::Lanes(d);
  size_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    const auto value = hn::Xor(hn::LoadU(d, a + i), key_vector);
    if constexpr (kStream) {
      hn::Stream(value, d, c + i);
    } else {
      hn::StoreU(value, d, c + i);
    }
  }
  for (; i < end; ++i) c[i] = static_cast<T>(a[i] ^ key);
  if constexpr (kStream) hwy::FlushStream();
}

// The same in place: a ^= key (no restrict: a is both read and written).
template <typename T>
HWY_INLINE void XorInPlaceLoop(void* a_raw, T key, size_t begin, size_t end) {
  T* a = static_cast<T*>(a_raw);
  const hn::ScalableTag<T> d;
  const auto key_vector = hn::Set(d, key);
  const size_t lanes = hn::Lanes(d);
  size_t i = begin;
  for (; i + lanes <= end; i += lanes) hn::StoreU(hn::Xor(hn::LoadU(d, a + i), key_vector), d, a + i);
  for (; i < end; ++i) a[i] = static_cast<T>(a[i] ^ key);
}

// Element sizes 4 and 2 (RooflineSupportsCopy refuses others); a is not used in place.
void CopyRange(int size, const void* a, void* c, uint32_t key, size_t begin, size_t end) {
  if (size == 4) return CopyLoop<uint32_t, false>(a, c, key, begin, end);
  if (size == 2) return CopyLoop<uint16_t, false>(a, c, static_cast<uint16_t>(key), begin, end);
}
void CopyRangeStream(int size, const void* a, void* c, uint32_t key, size_t begin, size_t end) {
  if (size == 4) return CopyLoop<uint32_t, true>(a, c, key, begin, end);
  if (size == 2) return CopyLoop<uint16_t, true>(a, c, static_cast<uint16_t>(key), begin, end);
}
void XorInPlaceRange(int size, const void* /*a*/, void* c, uint32_t key, size_t begin, size_t end) {
  if (size == 4) return XorInPlaceLoop<uint32_t>(c, key, begin, end);
  if (size == 2) return XorInPlaceLoop<uint16_t>(c, static_cast<uint16_t>(key), begin, end);
}

// The f16 conversion ceiling: c = narrow(widen(a)) ^ b on f16 bits, the two
// exact conversions any f16 kernel must do per element (the arithmetic happens
// in float32) and nothing else; b is read and used so the bytes moved are the
// roofline's. aclcpu's own conversions (simd/convert-inl.h: F16C on x86).
// Where the operator runs below 0.85x the roofline while this does not get
// much closer, the conversions, not the operator's code, are the limit.
void ConvertRangeF16(const void* a_raw, const void* b_raw, void* c_raw, size_t begin, size_t end) {
  const uint16_t* HWY_RESTRICT a = static_cast<const uint16_t*>(a_raw);
  const uint16_t* HWY_RESTRICT b = static_cast<const uint16_t*>(b_raw);
  uint16_t* HWY_RESTRICT c = static_cast<uint16_t*>(c_raw);
  const hn::ScalableTag<float> df;
  const hn::Rebind<uint16_t, decltype(df)> du16;
  const size_t lanes = hn::Lanes(df);
  size_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    const auto bits = aclcpu::HWY_NAMESPACE::F32ToF16Bits(df, aclcpu::HWY_NAMESPACE::LoadF16AsF32(df, a + i));
    hn::StoreU(hn::Xor(bits, hn::LoadU(du16, b + i)), du16, c + i);
  }
  for (; i < end; ++i) c[i] = static_cast<uint16_t>(a[i] ^ b[i]);
}

// The same ceiling for the forward pair's f16 cases: c = narrow(widen(a)), one
// read and one write an element like their roofline (CopyRange). In place c is
// a (no restrict), and the round trip leaves every non-NaN value as it is.
void ConvertCopyRangeF16(const void* a_raw, void* c_raw, size_t begin, size_t end) {
  const uint16_t* a = static_cast<const uint16_t*>(a_raw);
  uint16_t* c = static_cast<uint16_t*>(c_raw);
  const hn::ScalableTag<float> df;
  const hn::Rebind<uint16_t, decltype(df)> du16;
  const size_t lanes = hn::Lanes(df);
  size_t i = begin;
  for (; i + lanes <= end; i += lanes) {
    hn::StoreU(aclcpu::HWY_NAMESPACE::F32ToF16Bits(df, aclcpu::HWY_NAMESPACE::LoadF16AsF32(df, a + i)), du16,
               c + i);
  }
  for (; i < end; ++i) c[i] = a[i];
}

// The transposed-pattern roofline over row blocks [block_begin, block_end) of
// `rows` input rows each (see the top of this file). a and b (b may be null)
// are the dense input buffers of a_size- and b_size-byte elements, c the dense
// out of c_size-byte elements, all side x side, side a multiple of the block
// sides (`rows` x `cols`, powers of two); scratch holds rows x cols elements
// of c_size bytes. As in aclcpu's walk, the inputs meet in the row pass (here
// by xor, a wider input's segment folded onto its scratch row), so the
// scratch is one block of out's size.
void TransposedPatternRange(const void* a_raw, int a_size, const void* b_raw, int b_size, void* c_raw,
                            int c_size, size_t side, size_t rows, size_t cols, size_t block_begin,
                            size_t block_end, uint8_t* scratch) {
  const uint8_t* inputs[2] = {static_cast<const uint8_t*>(a_raw), static_cast<const uint8_t*>(b_raw)};
  const size_t sizes[2] = {static_cast<size_t>(a_size), static_cast<size_t>(b_size)};
  uint8_t* c = static_cast<uint8_t*>(c_raw);
  const hn::ScalableTag<uint8_t> d;
  const size_t lanes = hn::Lanes(d);
  const size_t row_bytes = cols * static_cast<size_t>(c_size);  // a power of two
  const size_t out_segment = rows * static_cast<size_t>(c_size);
  for (size_t block = block_begin; block < block_end; ++block) {
    const size_t r0 = block * rows;
    for (size_t q0 = 0; q0 < side; q0 += cols) {
      for (size_t r = 0; r < rows; ++r) {
        uint8_t* scratch_row = scratch + r * row_bytes;
        for (int k = 0; k < 2 && inputs[k] != nullptr; ++k) {
          const uint8_t* src = inputs[k] + ((r0 + r) * side + q0) * sizes[k];
          const size_t bytes = cols * sizes[k];
          for (size_t at = 0; at < bytes; at += lanes) {
            uint8_t* to = scratch_row + (at & (row_bytes - 1));
            const auto value = hn::LoadU(d, src + at);
            hn::Store(k == 0 && at < row_bytes ? value : hn::Xor(value, hn::Load(d, to)), d, to);
          }
          for (size_t at = 0; at < bytes; at += 64) hwy::Prefetch(src + bytes + at);  // the next block's
        }
      }
      for (size_t q = 0; q < cols; ++q) {
        uint8_t* dst = c + ((q0 + q) * side + r0) * c_size;
        const uint8_t* from = scratch + q * out_segment;
        for (size_t at = 0; at < out_segment; at += lanes) hn::Stream(hn::Load(d, from + at), d, dst + at);
      }
    }
  }
  hwy::FlushStream();
}

}  // namespace HWY_NAMESPACE
}  // namespace aclcpu_bench
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <omp.h>

#include <algorithm>

#include "acl/acl.h"
#include "hwy/aligned_allocator.h"
#include "bench/runner.h"
#include "ops/shared/elementwise_plan.h"  // kStreamingMinFootprintBytes

namespace aclcpu_bench {
HWY_EXPORT(AddRange);
HWY_EXPORT(AddRangeStream);
HWY_EXPORT(AddStep2Range);
HWY_EXPORT(AddStep2RangeStream);
HWY_EXPORT(AddBroadcastRows);
HWY_EXPORT(ConvertRangeF16);
HWY_EXPORT(ConvertCopyRangeF16);
HWY_EXPORT(CopyRange);
HWY_EXPORT(CopyRangeStream);
HWY_EXPORT(XorInPlaceRange);
HWY_EXPORT(TransposedPatternRange);

namespace {

// Below this many elements one thread does it all (torch uses the same grain).
constexpr size_t kParallelGrain = 32768;
// Chunk starts are multiples of this many elements, so non-temporal stores stay
// vector-aligned in every thread.
constexpr size_t kChunkAlign = 64;

// Runs part(index, parts) once on each of `threads` OpenMP threads (one
// fork-join per call, as a library call would do), or part(0, 1) on the
// calling thread for fewer than kParallelGrain elements.
template <class Part>
void ForkJoin(int threads, size_t elements, Part&& part) {
  if (threads <= 1 || elements < kParallelGrain) {
    part(size_t{0}, size_t{1});
    return;
  }
#pragma omp parallel num_threads(threads)
  part(static_cast<size_t>(omp_get_thread_num()), static_cast<size_t>(omp_get_num_threads()));
}

bool RooflineSupports(int a_size, int b_size, int c_size) {
  const int key = a_size * 100 + b_size * 10 + c_size;
  return key == 444 || key == 222 || key == 244 || key == 424 || key == 224;
}

// The forward pair's one-input rooflines: element sizes of FLOAT/INT32 and FLOAT16/BF16.
bool RooflineSupportsCopy(int size) { return size == 4 || size == 2; }

enum class Loop {
  kAdd,           // c = a + b (backward: two inputs)
  kAddStream,     // the same, non-temporal stores
  kAddStep2,      // c[i] = a[2i] + b[2i] (backward, step-2 inputs)
  kAddStep2Stream,  // the same, non-temporal stores
  kConvertF16,    // the f16 conversion ceiling (backward, all-f16)
  kConvertF16Copy,  // the same for the forward pair's f16 cases (in place: c is a)
  kCopy,          // c = a ^ 0 (forward, out-of-place)
  kCopyStream,    // the same, non-temporal stores
  kXorInPlace,    // c ^= 0, c being self (forward, in place)
};

class RooflineRunner : public Runner {
 public:
  RooflineRunner(const Case& c, const CaseBuffers& buffers, int threads, Loop loop)
      : a_size_(static_cast<int>(aclDataTypeSize(c.dtypes.grad))),
        b_size_(static_cast<int>(aclDataTypeSize(c.dtypes.self))),
        c_size_(static_cast<int>(aclDataTypeSize(c.dtypes.out))),
        self_size_(static_cast<int>(aclDataTypeSize(c.dtypes.self))),
        buffers_(buffers),
        n_(static_cast<size_t>(c.n)),
        threads_(threads),
        loop_(loop) {}

  void Run() override {
    ForkJoin(threads_, n_, [this](size_t part, size_t parts) {
      const size_t chunk = (n_ / parts + kChunkAlign - 1) / kChunkAlign * kChunkAlign;
      const size_t begin = std::min(n_, chunk * part);
      Part(begin, std::min(n_, begin + chunk));
    });
  }

 private:
  void Part(size_t begin, size_t end) const {
    switch (loop_) {
      case Loop::kAdd:
        return HWY_DYNAMIC_DISPATCH(AddRange)(a_size_, b_size_, c_size_, buffers_.grad, buffers_.self,
                                              buffers_.out, begin, end);
      case Loop::kAddStream:
        return HWY_DYNAMIC_DISPATCH(AddRangeStream)(a_size_, b_size_, c_size_, buffers_.grad, buffers_.self,
                                                    buffers_.out, begin, end);
      case Loop::kAddStep2:
        return HWY_DYNAMIC_DISPATCH(AddStep2Range)(a_size_, b_size_, c_size_, buffers_.grad, buffers_.self,
                                                   buffers_.out, begin, end);
      case Loop::kAddStep2Stream:
        return HWY_DYNAMIC_DISPATCH(AddStep2RangeStream)(a_size_, b_size_, c_size_, buffers_.grad, buffers_.self,
                                                         buffers_.out, begin, end);
      case Loop::kConvertF16:
        return HWY_DYNAMIC_DISPATCH(ConvertRangeF16)(buffers_.grad, buffers_.self, buffers_.out, begin, end);
      case Loop::kConvertF16Copy:
        return HWY_DYNAMIC_DISPATCH(ConvertCopyRangeF16)(buffers_.self, buffers_.out, begin, end);
      case Loop::kCopy:
        return HWY_DYNAMIC_DISPATCH(CopyRange)(self_size_, buffers_.self, buffers_.out, key_, begin, end);
      case Loop::kCopyStream:
        return HWY_DYNAMIC_DISPATCH(CopyRangeStream)(self_size_, buffers_.self, buffers_.out, key_, begin, end);
      case Loop::kXorInPlace:
        return HWY_DYNAMIC_DISPATCH(XorInPlaceRange)(self_size_, buffers_.self, buffers_.out, key_, begin, end);
    }
  }

  int a_size_, b_size_, c_size_;
  int self_size_;
  uint32_t key_ = 0;  // the forward rooflines' xor: leaves the data as it is
  CaseBuffers buffers_;
  size_t n_;
  int threads_;
  Loop loop_;
};

std::unique_ptr<Runner> MakeRoofline(const Case& c, const CaseBuffers& buffers, int threads, Loop loop,
                                     std::string* why_not) {
  if (c.layout != Layout::kContiguous) {
    *why_not = "the roofline is contiguous; strided cases use the contiguous one of the same size";
    return nullptr;
  }
  if (c.op != Op::kBackward) {
    if (loop == Loop::kConvertF16) {
      if (c.dtypes.self != ACL_FLOAT16) {
        *why_not = "the conversion ceiling is for f16 cases";
        return nullptr;
      }
      return std::make_unique<RooflineRunner>(c, buffers, threads, Loop::kConvertF16Copy);
    }
    if (loop == Loop::kAddStream && c.op == Op::kForwardInplace) {
      *why_not = "in place, out's lines are read first: non-temporal stores save no read";
      return nullptr;
    }
    if (!RooflineSupportsCopy(static_cast<int>(aclDataTypeSize(c.dtypes.self)))) {
      *why_not = "no roofline for this element size";
      return nullptr;
    }
    const Loop forward_loop = c.op == Op::kForwardInplace ? Loop::kXorInPlace
                              : loop == Loop::kAddStream  ? Loop::kCopyStream
                                                          : Loop::kCopy;
    return std::make_unique<RooflineRunner>(c, buffers, threads, forward_loop);
  }
  if (!RooflineSupports(aclDataTypeSize(c.dtypes.grad), aclDataTypeSize(c.dtypes.self),
                        aclDataTypeSize(c.dtypes.out))) {
    *why_not = "no roofline for these element sizes";
    return nullptr;
  }
  if (loop == Loop::kConvertF16 &&
      (c.dtypes.grad != ACL_FLOAT16 || c.dtypes.self != ACL_FLOAT16 || c.dtypes.out != ACL_FLOAT16)) {
    *why_not = "the conversion ceiling is for all-f16 cases";
    return nullptr;
  }
  return std::make_unique<RooflineRunner>(c, buffers, threads, loop);
}

std::unique_ptr<Runner> MakeStep2Roofline(const Case& c, const CaseBuffers& buffers, int threads, Loop loop,
                                          std::string* why_not) {
  if (c.layout != Layout::kStep2 || c.op != Op::kBackward) {
    *why_not = "the step-2 roofline is for the backward op's step-2 cases";
    return nullptr;
  }
  if (!RooflineSupports(aclDataTypeSize(c.dtypes.grad), aclDataTypeSize(c.dtypes.self),
                        aclDataTypeSize(c.dtypes.out))) {
    *why_not = "no roofline for these element sizes";
    return nullptr;
  }
  return std::make_unique<RooflineRunner>(c, buffers, threads, loop);
}

// The transposed-pattern roofline (see the top of this file): row blocks split
// between the threads, one scratch each.
class TransposedPatternRunner : public Runner {
 public:
  TransposedPatternRunner(const Case& c, const CaseBuffers& buffers, int threads)
      : a_(c.op == Op::kBackward ? buffers.grad : buffers.self),
        b_(c.op == Op::kBackward ? buffers.self : nullptr),
        out_(buffers.out),
        a_size_(static_cast<int>(aclDataTypeSize(c.op == Op::kBackward ? c.dtypes.grad : c.dtypes.self))),
        b_size_(static_cast<int>(aclDataTypeSize(c.dtypes.self))),
        c_size_(static_cast<int>(aclDataTypeSize(c.dtypes.out))),
        rows_(c_size_ == 2 ? 256 : 128),
        threads_(std::max(threads, 1)),
        scratch_(hwy::AllocateAligned<uint8_t>(static_cast<size_t>(threads_) * ScratchBytes())) {}

  void Run() override {
    const size_t side = static_cast<size_t>(kTransposeSide);
    const size_t blocks = side / rows_;
    ForkJoin(threads_, side * side, [&](size_t part, size_t parts) {
      uint8_t* scratch = scratch_.get() + part * ScratchBytes();
      HWY_DYNAMIC_DISPATCH(TransposedPatternRange)(a_, a_size_, b_, b_size_, out_, c_size_, side, rows_, kCols,
                                                   blocks * part / parts, blocks * (part + 1) / parts, scratch);
    });
  }

 private:
  static constexpr size_t kCols = 128;  // a block's columns, as aclcpu's
  // A block of out: rows_ x kCols elements.
  size_t ScratchBytes() const { return rows_ * kCols * static_cast<size_t>(c_size_); }

  const void* a_;
  const void* b_;
  void* out_;
  int a_size_, b_size_, c_size_;
  size_t rows_;
  int threads_;
  hwy::AlignedFreeUniquePtr<uint8_t[]> scratch_;
};

// The broadcast roofline (see the top of this file): rows split between the
// threads like RooflineRunner's elements, and none below kParallelGrain elements.
class BroadcastRooflineRunner : public Runner {
 public:
  BroadcastRooflineRunner(const Case& c, const CaseBuffers& buffers, int threads)
      : self_size_(static_cast<int>(aclDataTypeSize(c.dtypes.self))),
        grad_size_(static_cast<int>(aclDataTypeSize(c.dtypes.grad))),
        out_size_(static_cast<int>(aclDataTypeSize(c.dtypes.out))),
        buffers_(buffers),
        n_(static_cast<size_t>(c.n)),
        side_(static_cast<size_t>(BroadcastSide(c.n))),
        stream_(static_cast<int64_t>(self_size_ + grad_size_ + out_size_) * c.n >=
                aclcpu::kStreamingMinFootprintBytes),
        threads_(threads) {}

  void Run() override {
    ForkJoin(threads_, n_,
             [this](size_t part, size_t parts) { Rows(side_ * part / parts, side_ * (part + 1) / parts); });
  }

 private:
  void Rows(size_t begin, size_t end) const {
    HWY_DYNAMIC_DISPATCH(AddBroadcastRows)(self_size_, grad_size_, out_size_, buffers_.self, buffers_.grad,
                                           buffers_.out, side_, begin, end, stream_);
  }

  int self_size_, grad_size_, out_size_;
  CaseBuffers buffers_;
  size_t n_;
  size_t side_;
  bool stream_;
  int threads_;
};

}  // namespace

std::unique_ptr<Runner> MakeBroadcastRooflineRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                    std::string* why_not) {
  if (c.layout != Layout::kBroadcast || c.op != Op::kBackward) {
    *why_not = "the broadcast roofline is for the backward op's broadcast cases";
    return nullptr;
  }
  if (!RooflineSupports(aclDataTypeSize(c.dtypes.self), aclDataTypeSize(c.dtypes.grad),
                        aclDataTypeSize(c.dtypes.out))) {
    *why_not = "no roofline for these element sizes";
    return nullptr;
  }
  return std::make_unique<BroadcastRooflineRunner>(c, buffers, threads);
}

std::unique_ptr<Runner> MakeTransposedRooflineRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                     std::string* why_not) {
  if (c.layout != Layout::kTransposed || c.op == Op::kForwardInplace) {
    *why_not = "the transposed-pattern roofline is for transposed inputs with a contiguous out";
    return nullptr;
  }
  return std::make_unique<TransposedPatternRunner>(c, buffers, threads);
}

std::string InitRoofline(int threads) {
  return "roofline: c = a + b (same element sizes; forward pair: c = a ^ 0, in place a ^= 0), OpenMP fork-join per call, " + std::to_string(threads) +
         " thread(s) from " + std::to_string(kParallelGrain) + " elements, 1 below";
}

std::unique_ptr<Runner> MakeRooflineRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                           std::string* why_not) {
  return MakeRoofline(c, buffers, threads, Loop::kAdd, why_not);
}

std::unique_ptr<Runner> MakeRooflineNtRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                             std::string* why_not) {
  return MakeRoofline(c, buffers, threads, Loop::kAddStream, why_not);
}

std::unique_ptr<Runner> MakeStep2RooflineRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                std::string* why_not) {
  return MakeStep2Roofline(c, buffers, threads, Loop::kAddStep2, why_not);
}

std::unique_ptr<Runner> MakeStep2RooflineNtRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                  std::string* why_not) {
  return MakeStep2Roofline(c, buffers, threads, Loop::kAddStep2Stream, why_not);
}

std::unique_ptr<Runner> MakeConversionCeilingRunner(const Case& c, const CaseBuffers& buffers, int threads,
                                                    std::string* why_not) {
  return MakeRoofline(c, buffers, threads, Loop::kConvertF16, why_not);
}

}  // namespace aclcpu_bench
#endif  // HWY_ONCE
