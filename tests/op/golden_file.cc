#include "golden_file.h"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>

#ifndef ACLCPU_GOLDEN_DIR
#error "ACLCPU_GOLDEN_DIR must name the directory of the golden files"
#endif

namespace aclcpu_test {
namespace {

// The files are little-endian and read by memcpy.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "golden files are little-endian");

aclDataType DtypeFromName(const std::string& name) {
  if (name == "f32") return ACL_FLOAT;
  if (name == "f16") return ACL_FLOAT16;
  if (name == "bf16") return ACL_BF16;
  if (name == "f64") return ACL_DOUBLE;
  throw std::runtime_error("golden file: unknown dtype '" + name + "'");
}

// IEEE binary16, decoded by hand (the tests must not rely on the library's own
// conversions, nor on compiler support for _Float16).
double HalfToDouble(uint16_t bits) {
  const bool negative = (bits & 0x8000) != 0;
  const int exponent = (bits >> 10) & 0x1F;
  const int mantissa = bits & 0x3FF;
  double magnitude;
  if (exponent == 0) {
    magnitude = std::ldexp(static_cast<double>(mantissa), -24);
  } else if (exponent == 0x1F) {
    magnitude = mantissa == 0 ? std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  } else {
    magnitude = std::ldexp(static_cast<double>(mantissa | 0x400), exponent - 25);
  }
  return negative ? -magnitude : magnitude;
}

std::vector<uint8_t> Gather(const std::vector<uint8_t>& array, size_t element_bytes,
                            const std::vector<size_t>& indices) {
  std::vector<uint8_t> gathered(indices.size() * element_bytes);
  for (size_t k = 0; k < indices.size(); ++k) {
    std::memcpy(gathered.data() + k * element_bytes, array.data() + indices[k] * element_bytes, element_bytes);
  }
  return gathered;
}

}  // namespace

const char* GoldenDtypeName(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT: return "f32";
    case ACL_FLOAT16: return "f16";
    case ACL_BF16: return "bf16";
    case ACL_DOUBLE: return "f64";
    default: return "?";
  }
}

size_t DtypeBytes(aclDataType dtype) {
  switch (dtype) {
    case ACL_FLOAT: return 4;
    case ACL_FLOAT16:
    case ACL_BF16: return 2;
    case ACL_DOUBLE: return 8;
    default: throw std::runtime_error("golden file: not a floating dtype");
  }
}

uint64_t ElementBits(aclDataType dtype, const uint8_t* element) {
  uint64_t bits = 0;
  std::memcpy(&bits, element, DtypeBytes(dtype));  // little-endian: low bytes first
  return bits;
}

double ElementToDouble(aclDataType dtype, const uint8_t* element) {
  const uint64_t bits = ElementBits(dtype, element);
  switch (dtype) {
    case ACL_FLOAT: {
      float value;
      const uint32_t narrow = static_cast<uint32_t>(bits);
      std::memcpy(&value, &narrow, 4);
      return value;
    }
    case ACL_BF16: {
      float value;
      const uint32_t widened = static_cast<uint32_t>(bits) << 16;
      std::memcpy(&value, &widened, 4);
      return value;
    }
    case ACL_FLOAT16: return HalfToDouble(static_cast<uint16_t>(bits));
    case ACL_DOUBLE: {
      double value;
      std::memcpy(&value, &bits, 8);
      return value;
    }
    default: throw std::runtime_error("golden file: not a floating dtype");
  }
}

bool ElementIsNan(aclDataType dtype, const uint8_t* element) { return std::isnan(ElementToDouble(dtype, element)); }

std::string DescribeElement(aclDataType dtype, const uint8_t* element) {
  char text[64];
  std::snprintf(text, sizeof(text), "0x%0*" PRIx64 " (%.9g)", static_cast<int>(2 * DtypeBytes(dtype)),
                ElementBits(dtype, element), ElementToDouble(dtype, element));
  return text;
}

bool MatchesGolden(aclDataType dtype, const uint8_t* expected, const uint8_t* actual) {
  if (ElementIsNan(dtype, expected)) return ElementIsNan(dtype, actual);
  return std::memcmp(expected, actual, DtypeBytes(dtype)) == 0;
}

GoldenFile GoldenFile::Load(const std::string& name) {
  const std::string path = std::string(ACLCPU_GOLDEN_DIR) + "/" + name + ".bin";
  std::ifstream file(path, std::ios::binary);
  if (!file) throw std::runtime_error("cannot open golden file " + path);
  std::string header;
  std::getline(file, header);

  // Header: "aclcpu-golden v1 key=value ..."; keys may come in any order.
  std::istringstream words(header);
  std::string magic, version;
  words >> magic >> version;
  if (magic != "aclcpu-golden" || version != "v1") throw std::runtime_error("not a v1 golden file: " + path);
  std::map<std::string, std::string> fields;
  for (std::string word; words >> word;) {
    const size_t equals = word.find('=');
    if (equals == std::string::npos) throw std::runtime_error("bad header field '" + word + "' in " + path);
    fields[word.substr(0, equals)] = word.substr(equals + 1);
  }
  // A 0-d tensor is written as "shape=" (present, empty).
  for (const char* key : {"name", "grad", "self", "out", "shape", "count"}) {
    if (fields.count(key) == 0) throw std::runtime_error(std::string("golden header lacks ") + key + ": " + path);
  }

  GoldenFile golden;
  golden.name_ = fields["name"];
  golden.grad_dtype_ = DtypeFromName(fields["grad"]);
  golden.self_dtype_ = DtypeFromName(fields["self"]);
  golden.out_dtype_ = DtypeFromName(fields["out"]);
  golden.count_ = std::stoull(fields["count"]);
  std::istringstream dims(fields["shape"]);
  for (std::string dim; std::getline(dims, dim, ',');) golden.shape_.push_back(std::stoll(dim));

  const auto read_array = [&](std::vector<uint8_t>& array, aclDataType dtype) {
    array.resize(golden.count_ * DtypeBytes(dtype));
    file.read(reinterpret_cast<char*>(array.data()), static_cast<std::streamsize>(array.size()));
    if (static_cast<size_t>(file.gcount()) != array.size()) throw std::runtime_error("truncated golden file " + path);
  };
  read_array(golden.grad_, golden.grad_dtype_);
  read_array(golden.self_, golden.self_dtype_);
  read_array(golden.expected_, golden.out_dtype_);
  if (file.peek() != std::ifstream::traits_type::eof()) throw std::runtime_error("trailing bytes in " + path);

  int64_t shape_elements = 1;
  for (int64_t dim : golden.shape_) shape_elements *= dim;
  if (static_cast<size_t>(shape_elements) != golden.count_) throw std::runtime_error("shape/count mismatch in " + path);
  return golden;
}

std::vector<uint8_t> GoldenFile::GradBytes(const std::vector<size_t>& indices) const {
  return Gather(grad_, DtypeBytes(grad_dtype_), indices);
}
std::vector<uint8_t> GoldenFile::SelfBytes(const std::vector<size_t>& indices) const {
  return Gather(self_, DtypeBytes(self_dtype_), indices);
}
std::vector<uint8_t> GoldenFile::ExpectedBytes(const std::vector<size_t>& indices) const {
  return Gather(expected_, DtypeBytes(out_dtype_), indices);
}

std::vector<size_t> GoldenFile::AllIndices() const {
  std::vector<size_t> indices(count_);
  for (size_t i = 0; i < count_; ++i) indices[i] = i;
  return indices;
}

std::vector<size_t> GoldenFile::Select(const std::function<bool(const GoldenFile&, size_t)>& predicate) const {
  std::vector<size_t> selected;
  for (size_t i = 0; i < count_; ++i) {
    if (predicate(*this, i)) selected.push_back(i);
  }
  return selected;
}

std::string GoldenFile::DescribeInputs(size_t i) const {
  return "index " + std::to_string(i) + ": grad=" + DescribeElement(grad_dtype_, grad(i)) +
         " self=" + DescribeElement(self_dtype_, self(i));
}

std::string CompareWithGolden(const GoldenFile& golden, const std::vector<size_t>& indices,
                              const std::vector<uint8_t>& actual, size_t max_reported) {
  const aclDataType out = golden.out_dtype();
  const size_t bytes = DtypeBytes(out);
  if (actual.size() != indices.size() * bytes) {
    return "result has " + std::to_string(actual.size()) + " bytes, expected " + std::to_string(indices.size() * bytes);
  }
  size_t mismatches = 0;
  std::string report;
  for (size_t k = 0; k < indices.size(); ++k) {
    const uint8_t* got = actual.data() + k * bytes;
    if (MatchesGolden(out, golden.expected(indices[k]), got)) continue;
    if (mismatches++ < max_reported) {
      report += "\n  " + golden.DescribeInputs(indices[k]) + " expected=" +
                DescribeElement(out, golden.expected(indices[k])) + " actual=" + DescribeElement(out, got);
    }
  }
  if (mismatches == 0) return "";
  return std::to_string(mismatches) + " of " + std::to_string(indices.size()) + " elements of " + golden.name() +
         " differ from PyTorch; first ones:" + report;
}

}  // namespace aclcpu_test
