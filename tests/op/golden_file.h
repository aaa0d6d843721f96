// aclcpu op tests: reader for the golden files written by
// tests/golden/make_golden.py (PyTorch's hardsigmoid_backward as the oracle).
//
// File format (little-endian):
//   line 1, ASCII:  aclcpu-golden v1 name=<n> grad=<dt> self=<dt> out=<dt> shape=<d0,d1,..> count=<n>\n
//   then raw arrays in element (row-major view) order:
//     grad[count] in <grad dt>, self[count] in <self dt>, expected[count] in <out dt>
//   <dt> is f32, f16, bf16 or f64.
#ifndef ACLCPU_TESTS_OP_GOLDEN_FILE_H_
#define ACLCPU_TESTS_OP_GOLDEN_FILE_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "acl/acl.h"

namespace aclcpu_test {

// Short dtype names used in the golden files and in test names.
const char* GoldenDtypeName(aclDataType dtype);
size_t DtypeBytes(aclDataType dtype);

// The value of one element of a floating dtype, widened exactly to double.
double ElementToDouble(aclDataType dtype, const uint8_t* element);
bool ElementIsNan(aclDataType dtype, const uint8_t* element);
// "0x3e2aaaab (0.16666667)".
std::string DescribeElement(aclDataType dtype, const uint8_t* element);
// The raw bits of an element as an unsigned integer (for exact matching of inputs).
uint64_t ElementBits(aclDataType dtype, const uint8_t* element);

// Whether `actual` is what `expected` says, bit for bit; a NaN expected value
// accepts any NaN, because PyTorch's own vectorised and scalar paths disagree on
// NaN payloads (and so would any two correct implementations).
bool MatchesGolden(aclDataType dtype, const uint8_t* expected, const uint8_t* actual);

class GoldenFile {
 public:
  // Loads <ACLCPU_GOLDEN_DIR>/<name>.bin; throws std::runtime_error on any problem.
  static GoldenFile Load(const std::string& name);

  const std::string& name() const { return name_; }
  aclDataType grad_dtype() const { return grad_dtype_; }
  aclDataType self_dtype() const { return self_dtype_; }
  aclDataType out_dtype() const { return out_dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  size_t count() const { return count_; }

  const uint8_t* grad(size_t i) const { return grad_.data() + i * DtypeBytes(grad_dtype_); }
  const uint8_t* self(size_t i) const { return self_.data() + i * DtypeBytes(self_dtype_); }
  const uint8_t* expected(size_t i) const { return expected_.data() + i * DtypeBytes(out_dtype_); }

  double GradValue(size_t i) const { return ElementToDouble(grad_dtype_, grad(i)); }
  double SelfValue(size_t i) const { return ElementToDouble(self_dtype_, self(i)); }
  double ExpectedValue(size_t i) const { return ElementToDouble(out_dtype_, expected(i)); }

  // Raw arrays of the selected elements, in the order given (for building inputs).
  std::vector<uint8_t> GradBytes(const std::vector<size_t>& indices) const;
  std::vector<uint8_t> SelfBytes(const std::vector<size_t>& indices) const;
  std::vector<uint8_t> ExpectedBytes(const std::vector<size_t>& indices) const;
  std::vector<size_t> AllIndices() const;

  // Indices of the elements whose (grad, self) satisfy `predicate`.
  std::vector<size_t> Select(const std::function<bool(const GoldenFile&, size_t)>& predicate) const;

  // "index 12: grad=0x... (v) self=0x... (v)", used in failure messages.
  std::string DescribeInputs(size_t i) const;

 private:
  std::string name_;
  aclDataType grad_dtype_ = ACL_DT_UNDEFINED;
  aclDataType self_dtype_ = ACL_DT_UNDEFINED;
  aclDataType out_dtype_ = ACL_DT_UNDEFINED;
  std::vector<int64_t> shape_;
  size_t count_ = 0;
  std::vector<uint8_t> grad_;
  std::vector<uint8_t> self_;
  std::vector<uint8_t> expected_;
};

// Compares `actual` (elements in out dtype, one per selected golden element, in
// the order of `indices`) against the golden expected values. Returns an empty
// string when everything matches, otherwise the number of mismatches and a
// description of the first `max_reported` of them (index, inputs in hex, values).
std::string CompareWithGolden(const GoldenFile& golden, const std::vector<size_t>& indices,
                              const std::vector<uint8_t>& actual, size_t max_reported = 10);

}  // namespace aclcpu_test

#endif  // ACLCPU_TESTS_OP_GOLDEN_FILE_H_
