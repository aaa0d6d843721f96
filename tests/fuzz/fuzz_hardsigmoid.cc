// Fuzz harness: aclCreateTensor + phase 1 + phase 2 of aclnnHardsigmoid and
// aclnnInplaceHardsigmoid with arbitrary dims (negative, huge, overflowing
// products), strides (negative, zero, permuted, huge), offsets, dtypes (self's
// and out's each), formats (self's and out's each), storage shapes and nulls.
//
// Every input must give exactly the status CANN's rules give (the model below,
// README "The forward pair"), never a crash or a sanitizer report, and a message
// for every failure. When phase 1 succeeds on views that fit their memory,
// phase 2 runs with every operand's storage between PROT_NONE guard pages, and
// the harness checks that every element of out's view (self's, in place) is the
// reference value computed here from the input bits (NaN as a class) and that
// no byte of out's storage outside the view changed.
#include <cmath>
#include <string>
#include <vector>

#include "aclnnop/aclnn_hardsigmoid.h"
#include "fuzz_support.h"

namespace aclcpu_fuzz {
namespace {

constexpr int kSelf = 0, kOut = 1;
const char* const kNames[2] = {"self", "out"};
constexpr int64_t kMaxRunElements = 1 << 14;
constexpr uint8_t kSentinel = 0x5A;

bool IsForwardDtype(int dtype) {  // the default SoC's list (Ascend910B2)
  return dtype == ACL_FLOAT || dtype == ACL_FLOAT16 || dtype == ACL_BF16 || dtype == ACL_INT32;
}

int DecodeDtype(ByteReader& in) {
  static const int kUsual[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_INT32};
  static const int kOthers[] = {ACL_DT_UNDEFINED, ACL_INT8, ACL_UINT8, ACL_INT16, ACL_INT64, ACL_DOUBLE,
                                ACL_BOOL, ACL_COMPLEX64, ACL_HIFLOAT8, -7, 1000};
  if (in.Byte() < 224) return kUsual[in.Below(4)];
  return EnumValue(kOthers[in.Below(sizeof(kOthers) / sizeof(kOthers[0]))]);
}

int DecodeFormat(ByteReader& in) {
  static const int kFormats[] = {ACL_FORMAT_ND, ACL_FORMAT_NCHW, ACL_FORMAT_NCL, ACL_FORMAT_NHWC, 12345};
  return EnumValue(kFormats[in.Below(sizeof(kFormats) / sizeof(kFormats[0]))]);
}

struct Operand {
  int dtype = ACL_FLOAT;
  int format = ACL_FORMAT_ND;
  View view;
  bool null_strides = false;
  int64_t storage_elements = 0;
  bool declare_storage = true;
  bool storage_fits = false;
  GuardedBuffer buffer;
  aclTensor* tensor = nullptr;
};

// The reference: min(max(x + 3, 0), 6) / 6 in float32, NaN kept, rounded once to
// the dtype; INT32: 1 for x >= 3, else 0 (README "The forward pair").
void ReferenceElement(const uint8_t* self, int dtype, uint8_t* out) {
  if (dtype == ACL_INT32) {
    int32_t x;
    std::memcpy(&x, self, 4);
    const int32_t r = x >= 3 ? 1 : 0;
    std::memcpy(out, &r, 4);
    return;
  }
  const float x = LoadAsFloat(self, dtype);
  const float shifted = x + 3.0f;
  const float r = std::isnan(shifted) ? shifted : std::fmin(std::fmax(shifted, 0.0f), 6.0f) / 6.0f;
  if (dtype == ACL_FLOAT) {
    std::memcpy(out, &r, 4);
  } else {
    const uint16_t bits = dtype == ACL_FLOAT16 ? F32ToF16(r) : F32ToBf16(r);
    std::memcpy(out, &bits, 2);
  }
}

bool SameResult(const uint8_t* actual, const uint8_t* expected, int dtype) {
  return dtype == ACL_INT32 ? std::memcmp(actual, expected, 4) == 0 : SameElement(actual, expected, dtype);
}

// The status of phase 1 by CANN's order, then ours; `out_of_storage`: accepted,
// but some view reaches past memory the library was told nothing about.
struct Expectation {
  int status = ACLNN_SUCCESS;
  bool out_of_storage = false;
};

// The staged bytes phase 1 reports out-of-place (fuzz_support.h,
// StagedInputBytes); in place there is nothing to stage. The buffers here are
// separate mappings, so only views reaching past their memory (never launched)
// meet.
uint64_t StagedWorkspaceBytes(const Operand* ops, bool in_place) {
  if (in_place || ops[kSelf].buffer.data() == nullptr || ops[kOut].buffer.data() == nullptr) return 0;
  if (IsEmptyView(ops[kSelf].view) || IsEmptyView(ops[kOut].view)) return 0;  // touches no memory
  return StagedInputBytes(ops[kSelf].view, CDataTypeSize(ops[kSelf].dtype), ops[kSelf].buffer.data(),
                          ops[kOut].view, CDataTypeSize(ops[kOut].dtype), ops[kOut].buffer.data());
}

Expectation Expect(const Operand* ops, bool in_place, const bool null_tensor[2], bool null_outputs) {
  if (null_outputs) return {ACLNN_ERR_PARAM_NULLPTR};
  if (null_tensor[kSelf] || (!in_place && null_tensor[kOut])) return {ACLNN_ERR_PARAM_NULLPTR};
  const int count = in_place ? 1 : 2;
  if (!IsForwardDtype(ops[kSelf].dtype)) return {ACLNN_ERR_PARAM_INVALID};
  for (int op = 0; op < count; ++op) {
    if (ops[op].view.dims.size() > 8) return {ACLNN_ERR_PARAM_INVALID};
  }
  if (!in_place) {
    if (ops[kOut].view.dims != ops[kSelf].view.dims) return {ACLNN_ERR_PARAM_INVALID};
    if (ops[kOut].dtype != ops[kSelf].dtype) return {ACLNN_ERR_PARAM_INVALID};
    if (ops[kOut].format != ops[kSelf].format) return {ACLNN_ERR_PARAM_INVALID};
  }
  Expectation e;
  bool empty = false;
  for (int op = 0; op < count; ++op) {
    int64_t extent = 0;
    if (HasNegative(ops[op].view) || !ViewExtent(ops[op].view, CDataTypeSize(ops[op].dtype), &extent)) {
      return {ACLNN_ERR_PARAM_INVALID};
    }
    empty = empty || IsEmptyView(ops[op].view);
  }
  if (empty) return e;
  if (ElementCount(ops[kSelf].view.dims) < 0) return {ACLNN_ERR_PARAM_INVALID};
  for (int op = 0; op < count; ++op) {
    if (ops[op].storage_fits) continue;
    if (ops[op].declare_storage && ExpectStorageCheck()) return {ACLNN_ERR_PARAM_INVALID};
    e.out_of_storage = true;
  }
  if (!OutPassesDistinctElementsRule(ops[in_place ? kSelf : kOut].view)) return {ACLNN_ERR_PARAM_INVALID};
  return e;
}

std::string Describe(const Operand* ops, bool in_place) {
  std::string text = in_place ? "in place; " : "";
  for (int op = 0; op < 2; ++op) {
    text += std::string(kNames[op]) + ": dtype=" + std::to_string(ops[op].dtype) +
            " format=" + std::to_string(ops[op].format) + " dims=[";
    for (int64_t v : ops[op].view.dims) text += std::to_string(v) + ",";
    text += "] strides=[";
    for (int64_t v : ops[op].view.strides) text += std::to_string(v) + ",";
    text += "] offset=" + std::to_string(ops[op].view.offset) + " storage=" + std::to_string(ops[op].storage_elements) +
            "; ";
  }
  return text;
}

// Every element of the written view holds the reference of the self element at
// the same position (as self held before the launch: `self_before`); every
// other byte of the written storage is what it was (`written_before`).
void CheckWritten(const Operand& self, const std::vector<uint8_t>& self_before, const Operand& written,
                  const std::vector<uint8_t>& written_before, const std::string& context) {
  const size_t size = CDataTypeSize(written.dtype);
  const std::vector<int64_t> self_offsets = ViewOffsets(self.view);
  const std::vector<int64_t> out_offsets = ViewOffsets(written.view);
  std::vector<uint8_t> expected_storage = written_before;
  for (size_t k = 0; k < out_offsets.size(); ++k) {
    ReferenceElement(&self_before[static_cast<size_t>(self_offsets[k]) * size], self.dtype,
                     &expected_storage[static_cast<size_t>(out_offsets[k]) * size]);
  }
  for (int64_t e = 0; e < written.storage_elements; ++e) {
    const size_t at = static_cast<size_t>(e) * size;
    FUZZ_CHECK(SameResult(written.buffer.data() + at, &expected_storage[at], written.dtype),
               "storage element %lld holds a wrong value; %s", static_cast<long long>(e), context.c_str());
  }
}

void RunOne(ByteReader& in) {
  const aclrtStream stream = SharedStream();
  ClearMessages();
  const bool in_place = in.Bool();
  const uint8_t nulls = in.Byte();
  const bool use_nulls = (nulls & 0xE0) == 0xE0;
  const bool null_workspace_size = use_nulls && (nulls & 1);
  const bool null_executor = use_nulls && (nulls & 2);
  const bool null_tensor[2] = {use_nulls && (nulls & 4) != 0, use_nulls && (nulls & 8) != 0};

  Operand ops[2];
  ops[kSelf].dtype = DecodeDtype(in);
  ops[kOut].dtype = in.Below(8) == 0 ? DecodeDtype(in) : ops[kSelf].dtype;
  ops[kSelf].format = DecodeFormat(in);
  ops[kOut].format = in.Below(8) == 0 ? DecodeFormat(in) : ops[kSelf].format;
  const std::vector<int64_t> shape = DecodeShape(in, 6);
  const size_t rank = shape.size();
  const bool mismatch = in.Below(16) == 0;
  for (int op = 0; op < 2; ++op) {
    Operand& o = ops[op];
    o.view.dims = shape;
    if (mismatch && op == kOut && !o.view.dims.empty()) o.view.dims[in.Below(static_cast<uint32_t>(rank))] ^= 1;
    o.view.strides = DecodeStrides(in, o.view.dims, &o.null_strides);
    if (o.null_strides) o.null_strides = LibraryDefaultStrides(&o.view);
    o.view.offset = in.Below(4) == 0 ? in.Interesting(8) : 0;
    const size_t itemsize = std::max<size_t>(CDataTypeSize(o.dtype), 1);
    int64_t extent = 0;
    const bool measurable = !HasNegative(o.view) && ViewExtent(o.view, itemsize, &extent);
    const bool empty = IsEmptyView(o.view);
    if (measurable && (empty || extent <= kMaxRunElements) && in.Below(8) != 0) {
      o.storage_elements = (empty ? 0 : extent) + in.Below(3);
      o.storage_fits = true;
    } else {
      o.storage_elements = in.Below(4);
      o.storage_fits = measurable && (empty || extent <= o.storage_elements);
    }
    o.declare_storage = in.Byte() < 240;
    o.buffer.Allocate(static_cast<size_t>(o.storage_elements) * itemsize, in.Bool());
    std::memset(o.buffer.data(), kSentinel, o.buffer.bytes());
  }
  // Self's contents: the remaining fuzzer bytes, cycled (any bit pattern).
  for (size_t b = 0; b < ops[kSelf].buffer.bytes(); ++b) {
    ops[kSelf].buffer.data()[b] = in.Byte() ^ static_cast<uint8_t>(b * 0x9e);
  }
  const bool repeat_launch = in.Below(4) == 0;
  const bool use_default_stream = in.Bool();

  for (int op = 0; op < 2; ++op) {
    Operand& o = ops[op];
    if (null_tensor[op] || (in_place && op == kOut)) continue;
    const int64_t storage_dims[1] = {o.storage_elements};
    o.tensor = CCreateTensor(o.view.dims.data(), o.view.dims.size(), o.dtype,
                             o.null_strides ? nullptr : o.view.strides.data(), o.view.offset, o.format,
                             o.declare_storage ? storage_dims : nullptr, o.declare_storage ? 1 : 0, o.buffer.data());
    FUZZ_CHECK(o.tensor != nullptr, "aclCreateTensor refused valid pointers for %s", kNames[op]);
  }
  const Expectation expected = Expect(ops, in_place, null_tensor, null_workspace_size || null_executor);
  const std::string context = Describe(ops, in_place);

  uint64_t workspace_size = 12345;
  aclOpExecutor* executor = nullptr;
  uint64_t* workspace_size_arg = null_workspace_size ? nullptr : &workspace_size;
  aclOpExecutor** executor_arg = null_executor ? nullptr : &executor;
  const aclnnStatus status =
      in_place ? aclnnInplaceHardsigmoidGetWorkspaceSize(ops[kSelf].tensor, workspace_size_arg, executor_arg)
               : aclnnHardsigmoidGetWorkspaceSize(ops[kSelf].tensor, ops[kOut].tensor, workspace_size_arg,
                                                  executor_arg);
  FUZZ_CHECK(status == expected.status, "phase 1 returned %d, expected %d; %s", status, expected.status,
             context.c_str());
  const Operand& written = ops[in_place ? kSelf : kOut];
  if (status != ACLNN_SUCCESS) {
    FUZZ_CHECK(executor == nullptr, "a failed phase 1 handed out an executor");
    const char* message = aclGetRecentErrMsg();
    FUZZ_CHECK(message != nullptr && message[0] != '\0', "phase 1 failed (%d) without recording a message", status);
    if (!in_place) {
      for (size_t b = 0; b < written.buffer.bytes(); ++b) {
        FUZZ_CHECK(written.buffer.data()[b] == kSentinel, "a failed phase 1 wrote to out");
      }
    }
  } else {
    FUZZ_CHECK(executor != nullptr, "phase 1 succeeded without an executor");
    const uint64_t staged = StagedWorkspaceBytes(ops, in_place);
    FUZZ_CHECK(workspace_size == staged, "workspace size %llu, expected %llu; %s",
               static_cast<unsigned long long>(workspace_size), static_cast<unsigned long long>(staged),
               context.c_str());
  }
  for (auto& o : ops) aclDestroyTensor(o.tensor);
  if (executor == nullptr) return;

  const int64_t elements = ElementCount(ops[kSelf].view.dims);
  if (expected.out_of_storage || elements < 0 || elements > kMaxRunElements) {
    FUZZ_CHECK(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "destroying an unlaunched executor failed");
    return;
  }
  const std::vector<uint8_t> self_before(ops[kSelf].buffer.data(), ops[kSelf].buffer.data() + ops[kSelf].buffer.bytes());
  const std::vector<uint8_t> written_before(written.buffer.data(), written.buffer.data() + written.buffer.bytes());
  if (repeat_launch) FUZZ_CHECK(aclSetAclOpExecutorRepeatable(executor) == ACLNN_SUCCESS, "repeatable failed");
  const aclrtStream launch_stream = use_default_stream ? nullptr : stream;
  const aclnnStatus launched = in_place ? aclnnInplaceHardsigmoid(nullptr, 0, executor, launch_stream)
                                        : aclnnHardsigmoid(nullptr, 0, executor, launch_stream);
  FUZZ_CHECK(launched == ACLNN_SUCCESS, "phase 2 returned %d; %s", launched, context.c_str());
  const aclnnStatus again = in_place ? aclnnInplaceHardsigmoid(nullptr, 0, executor, launch_stream)
                                     : aclnnHardsigmoid(nullptr, 0, executor, launch_stream);
  if (!repeat_launch) FUZZ_CHECK(again == ACLNN_ERR_PARAM_INVALID, "a one-shot executor ran twice");
  FUZZ_CHECK(aclrtSynchronizeStream(launch_stream) == ACL_SUCCESS, "aclrtSynchronizeStream failed");
  if (repeat_launch) {
    FUZZ_CHECK(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "destroy failed");
    if (in_place) return;  // launched twice in place: the second read the first's results
  }
  ClearMessages();
  CheckWritten(ops[kSelf], self_before, written, written_before, context);
}

}  // namespace
}  // namespace aclcpu_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  aclcpu_fuzz::ByteReader in(data, size);
  aclcpu_fuzz::RunOne(in);
  return 0;
}
