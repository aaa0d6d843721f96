// aclcpu kernel tests: input bytes that exercise elementwise kernels — both
// sides of ±3 and their neighbours, specials (NaN, ±inf, ±0, subnormals,
// extremes), any bit pattern, ordinary values — for the white-box tests that
// compare every SIMD target with the scalar reference (tests/unit,
// tests/hardsigmoid).
#ifndef ACLCPU_TESTS_SUPPORT_KERNEL_TEST_VALUES_H_
#define ACLCPU_TESTS_SUPPORT_KERNEL_TEST_VALUES_H_

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <tuple>
#include <vector>

#include "common/dtype.h"
#include "common/float16.h"

namespace aclcpu {

// `count` elements of `dtype` (FLOAT, FLOAT16, BF16 or INT32) as raw bytes; the
// same seed gives the same bytes.
inline std::vector<uint8_t> KernelTestValues(aclDataType dtype, size_t count, uint32_t seed) {
  std::mt19937 random(seed);
  const float specials[] = {3.0f, -3.0f, std::nextafter(3.0f, 0.0f), std::nextafter(-3.0f, 0.0f),
                            std::nextafter(3.0f, 4.0f), std::nextafter(-3.0f, -4.0f), 2.9990234f, -2.9990234f,
                            0.0f, -0.0f, INFINITY, -INFINITY, NAN, -NAN, 1e-40f, -1e-45f, 6e-8f, 1e-5f,
                            65504.0f, 70000.0f, 3.4e38f, 1.0f};
  std::uniform_real_distribution<float> ordinary(-5.0f, 5.0f);
  const size_t size = DtypeSize(dtype);
  std::vector<uint8_t> bytes(count * size);
  for (size_t i = 0; i < count; ++i) {
    const uint32_t pick = random() % 4;
    float value = pick == 0 ? specials[random() % (sizeof specials / sizeof specials[0])] : ordinary(random);
    if (dtype == ACL_INT32) {
      const int32_t integer = pick == 1 ? static_cast<int32_t>(random()) : static_cast<int32_t>(value * 2.0f);
      std::memcpy(&bytes[i * size], &integer, size);
    } else if (dtype == ACL_FLOAT) {
      if (pick == 1) value = BitsToFloat(static_cast<uint32_t>(random()));  // any bit pattern
      std::memcpy(&bytes[i * size], &value, size);
    } else {
      uint16_t bits = dtype == ACL_FLOAT16 ? FloatToHalf(value) : FloatToBf16(value);
      if (pick == 1) bits = static_cast<uint16_t>(random());
      std::memcpy(&bytes[i * size], &bits, size);
    }
  }
  return bytes;
}

// KernelTestValues(dtype, count, seed), made once per process and kept: for
// the tests that run the same inputs through every target and dtype path
// (generating them under emulation on Arm in CI costs more than the kernels
// under test). Not thread-safe: for the tests' own thread only.
inline const std::vector<uint8_t>& SharedKernelTestValues(aclDataType dtype, size_t count, uint32_t seed) {
  static std::map<std::tuple<aclDataType, size_t, uint32_t>, std::vector<uint8_t>> made;
  const auto key = std::make_tuple(dtype, count, seed);
  auto found = made.find(key);
  if (found == made.end()) found = made.emplace(key, KernelTestValues(dtype, count, seed)).first;
  return found->second;
}

}  // namespace aclcpu

#endif  // ACLCPU_TESTS_SUPPORT_KERNEL_TEST_VALUES_H_
