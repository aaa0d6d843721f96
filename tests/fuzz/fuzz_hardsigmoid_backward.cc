// Fuzz harness: aclCreateTensor + phase 1 + phase 2 of aclnnHardsigmoidBackward
// with arbitrary dims (negative, huge, overflowing products), strides (negative,
// zero, huge), offsets, dtypes, formats, storage shapes and null arguments.
//
// Every input must give exactly the status CANN's rules give (the model below,
// README "Phase 1"), never a crash or a sanitizer report. When phase 1 succeeds
// on a view that fits the memory behind it, phase 2 runs with every operand's
// storage between PROT_NONE guard pages (out's storage ends or starts right at a
// guard page, chosen by the input), and the harness checks that
//   - every element of out's view is the reference value (NaN as a class); an
//     out view whose elements may share memory is refused in phase 1 (README
//     "Aliasing"), and one that was accepted must indeed have distinct elements,
//   - no byte of out's storage outside the view changed.
// A view reaching past the storage shape given to aclCreateTensor must be refused
// with 161002 (ACLCPU_FUZZ_STORAGE_CHECK=0 tolerates a library without that
// check); a view past memory whose storage shape was not given (storageDimsNum
// = 0) is accepted, and never launched.
#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "fuzz_support.h"

namespace aclcpu_fuzz {
namespace {

constexpr int kOut = 0, kGrad = 1, kSelf = 2;
const char* const kNames[3] = {"out", "gradOutput", "self"};
// Views of at most this many elements (and storages of at most this many) run
// phase 2; bigger ones only go through phase 1.
constexpr int64_t kMaxRunElements = 1 << 14;
constexpr uint8_t kSentinel = 0xA5;

int DecodeDtype(ByteReader& in, bool is_out) {
  static const int kInputs[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  static const int kOuts[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};
  static const int kOthers[] = {ACL_DT_UNDEFINED, ACL_INT8,     ACL_INT32,     ACL_UINT8,   ACL_INT16,
                                ACL_UINT16,       ACL_UINT32,   ACL_INT64,     ACL_UINT64,  ACL_DOUBLE,
                                ACL_BOOL,         ACL_STRING,   ACL_COMPLEX64, ACL_COMPLEX128, ACL_INT4,
                                ACL_UINT1,        ACL_COMPLEX32, ACL_HIFLOAT8, ACL_FLOAT8_E5M2, 1000};
  const uint8_t kind = in.Byte();
  if (kind < 224) return is_out ? kOuts[in.Below(4)] : kInputs[in.Below(3)];
  return EnumValue(kOthers[in.Below(sizeof(kOthers) / sizeof(kOthers[0]))]);
}

// Kept as an int: an out-of-range value in an aclFormat variable would be
// undefined behaviour in the harness itself; it is cast at the call.
int DecodeFormat(ByteReader& in) {
  static const int kFormats[] = {ACL_FORMAT_ND, ACL_FORMAT_NCHW, ACL_FORMAT_NCL, ACL_FORMAT_NCDHW, ACL_FORMAT_NHWC,
                                 ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_UNDEFINED, 12345};
  return EnumValue(kFormats[in.Below(sizeof(kFormats) / sizeof(kFormats[0]))]);
}

struct Operand {
  int dtype = ACL_FLOAT;
  View view;
  bool null_strides = false;  // pass stride == nullptr (the library computes row-major ones)
  int64_t storage_elements = 0;
  std::vector<int64_t> storage_dims;
  bool declare_storage = true;   // pass storage_dims (else storageDimsNum = 0: nothing to check against)
  bool invalid_storage = false;  // storage_dims negative or with an overflowing product
  bool storage_fits = false;     // the real buffer holds every element the view reaches
  GuardedBuffer buffer;
  aclTensor* tensor = nullptr;
};

// The status CANN's rules give for these operands (README "Phase 1"), or -1 when
// more than one is acceptable (out dtypes without a kernel).
struct Expectation {
  int status = ACLNN_SUCCESS;
  bool out_of_storage = false;  // accepted, but a view reaches past its storage shape
  uint64_t workspace_size = 0;  // of an accepted call: the inputs it stages (README "Aliasing")
};

bool IsIntegralOrBool(int dtype) {
  switch (dtype) {
    case ACL_INT8: case ACL_INT16: case ACL_INT32: case ACL_INT64:
    case ACL_UINT8: case ACL_UINT16: case ACL_UINT32: case ACL_UINT64:
    case ACL_BOOL:
      return true;
    default:
      return false;
  }
}

size_t LibraryItemSize(int dtype) {  // aclDataTypeSize, as the library measures views
  const size_t size = CDataTypeSize(dtype);
  return size;
}

// The staged bytes phase 1 reports (fuzz_support.h, StagedInputBytes). The
// buffers here are separate mappings, so only views reaching past their memory
// (never launched) meet out.
uint64_t StagedWorkspaceBytes(const Operand* ops) {
  for (int op = 0; op < 3; ++op) {
    if (ops[op].buffer.data() == nullptr) return 0;  // phase 2 decides alone
  }
  const Operand& out = ops[kOut];
  uint64_t total = 0;
  for (int op : {kGrad, kSelf}) {
    total += StagedInputBytes(ops[op].view, LibraryItemSize(ops[op].dtype), ops[op].buffer.data(), out.view,
                              LibraryItemSize(out.dtype), out.buffer.data());
  }
  return total;
}

Expectation Expect(const Operand* ops, const bool null_tensor[3], bool null_workspace_size, bool null_executor) {
  Expectation e;
  if (null_workspace_size || null_executor) return {ACLNN_ERR_PARAM_NULLPTR};
  if (null_tensor[kGrad] || null_tensor[kSelf] || null_tensor[kOut]) return {ACLNN_ERR_PARAM_NULLPTR};
  if (!IsInputDtype(ops[kGrad].dtype) || !IsInputDtype(ops[kSelf].dtype)) return {ACLNN_ERR_PARAM_INVALID};
  if (IsIntegralOrBool(ops[kOut].dtype)) return {ACLNN_ERR_PARAM_INVALID};
  for (int op = 0; op < 3; ++op) {
    if (ops[op].view.dims.size() > 8) return {ACLNN_ERR_PARAM_INVALID};
  }
  if (ops[kGrad].view.dims != ops[kSelf].view.dims || ops[kOut].view.dims != ops[kSelf].view.dims) {
    return {ACLNN_ERR_PARAM_INVALID};
  }
  bool empty = false;
  for (int op = 0; op < 3; ++op) {
    if (HasNegative(ops[op].view)) return {ACLNN_ERR_PARAM_INVALID};
    int64_t extent = 0;
    const size_t itemsize = LibraryItemSize(ops[op].dtype);
    if (!ViewExtent(ops[op].view, itemsize, &extent)) {
      // A view whose last element is INT64_MAX, with a 1-byte or 0-byte out
      // dtype, slips through (then fails for want of a kernel): see below.
      if (op == kOut && !IsWritableOutDtype(ops[kOut].dtype)) return {-1};
      return {ACLNN_ERR_PARAM_INVALID};
    }
    empty = empty || IsEmptyView(ops[op].view);
  }
  if (empty) return {ACLNN_SUCCESS};
  // More elements than int64_t counts (zero strides keep the extent small): refused.
  if (ElementCount(ops[kSelf].view.dims) < 0) return {ACLNN_ERR_PARAM_INVALID};
  for (int op = 0; op < 3; ++op) {
    if (ops[op].declare_storage && ops[op].invalid_storage) return {ACLNN_ERR_PARAM_INVALID};
  }
  for (int op = 0; op < 3; ++op) {
    if (ops[op].storage_fits) continue;
    // Past the declared storage shape: refused (when the library checks); past
    // memory the library was told nothing about: accepted, never launched.
    if (ops[op].declare_storage && ExpectStorageCheck()) return {ACLNN_ERR_PARAM_INVALID};
    e.out_of_storage = true;
  }
  if (!IsWritableOutDtype(ops[kOut].dtype)) return {ACLNN_ERR_INNER_NULLPTR};
  if (!OutPassesDistinctElementsRule(ops[kOut].view)) return {ACLNN_ERR_PARAM_INVALID};
  e.workspace_size = StagedWorkspaceBytes(ops);
  return e;
}

std::string Describe(const Operand* ops) {
  std::string text;
  for (int op = 0; op < 3; ++op) {
    text += std::string(kNames[op]) + ": dtype=" + std::to_string(ops[op].dtype) + " dims=[";
    for (int64_t v : ops[op].view.dims) text += std::to_string(v) + ",";
    text += "] strides=[";
    for (int64_t v : ops[op].view.strides) text += std::to_string(v) + ",";
    text += "]" + std::string(ops[op].null_strides ? "(null)" : "") + " offset=" + std::to_string(ops[op].view.offset) +
            " storage=" + std::to_string(ops[op].storage_elements) + "; ";
  }
  return text;
}

void CheckOut(const Operand* ops) {
  const Operand& out = ops[kOut];
  const size_t out_size = ItemSize(out.dtype);
  const std::vector<int64_t> out_offsets = ViewOffsets(out.view);
  const std::vector<int64_t> grad_offsets = ViewOffsets(ops[kGrad].view);
  const std::vector<int64_t> self_offsets = ViewOffsets(ops[kSelf].view);
  // Storage element -> every value some view position writes there.
  std::map<int64_t, std::vector<std::vector<uint8_t>>> allowed;
  for (size_t k = 0; k < out_offsets.size(); ++k) {
    std::vector<uint8_t> expected(out_size);
    ReferenceElement(ops[kGrad].buffer.data() + grad_offsets[k] * ItemSize(ops[kGrad].dtype), ops[kGrad].dtype,
                     ops[kSelf].buffer.data() + self_offsets[k] * ItemSize(ops[kSelf].dtype), ops[kSelf].dtype,
                     out.dtype, expected.data());
    allowed[out_offsets[k]].push_back(std::move(expected));
  }
  const uint8_t* storage = out.buffer.data();
  for (int64_t e = 0; e < out.storage_elements; ++e) {
    const uint8_t* actual = storage + e * out_size;
    auto it = allowed.find(e);
    if (it == allowed.end()) {
      for (size_t b = 0; b < out_size; ++b) {
        FUZZ_CHECK(actual[b] == kSentinel, "byte %zu of out storage element %lld, outside the view, changed; %s", b,
                   static_cast<long long>(e), Describe(ops).c_str());
      }
      continue;
    }
    FUZZ_CHECK(it->second.size() == 1, "out storage element %lld is written by %zu view positions of an accepted "
               "view; %s", static_cast<long long>(e), it->second.size(), Describe(ops).c_str());
    bool matched = false;
    for (const auto& expected : it->second) matched = matched || SameElement(actual, expected.data(), out.dtype);
    FUZZ_CHECK(matched, "out storage element %lld holds a wrong value; %s", static_cast<long long>(e),
               Describe(ops).c_str());
  }
}

void RunOne(ByteReader& in) {
  const aclrtStream stream = SharedStream();
  ClearMessages();
  // Nulls in about one input in eight.
  const uint8_t nulls = in.Byte();
  const bool use_nulls = (nulls & 0xE0) == 0xE0;
  const bool null_workspace_size = use_nulls && (nulls & 1);
  const bool null_executor = use_nulls && (nulls & 2);
  const bool null_tensor[3] = {use_nulls && (nulls & 4), use_nulls && (nulls & 8), use_nulls && (nulls & 16)};

  Operand ops[3];
  for (int op = 0; op < 3; ++op) ops[op].dtype = DecodeDtype(in, op == kOut);
  const int format = DecodeFormat(in);

  // One shape for all three, or (rarely) a different shape per operand.
  const std::vector<int64_t> shape = DecodeShape(in, 5);
  const size_t rank = shape.size();
  const bool mismatch = in.Below(16) == 0;
  for (int op = 0; op < 3; ++op) {
    Operand& o = ops[op];
    o.view.dims = shape;
    if (mismatch && in.Bool() && !o.view.dims.empty()) o.view.dims[in.Below(static_cast<uint32_t>(rank))] ^= 1;
    o.view.strides = DecodeStrides(in, o.view.dims, &o.null_strides);
    if (o.null_strides) o.null_strides = LibraryDefaultStrides(&o.view);
    o.view.offset = in.Below(4) == 0 ? in.Interesting(8) : 0;
  }

  // Storage: enough for the view (plus slack) when that is small, else (or when
  // the input asks for it) a short storage that the view overruns.
  for (int op = 0; op < 3; ++op) {
    Operand& o = ops[op];
    const size_t itemsize = std::max<size_t>(ItemSize(o.dtype), 1);
    int64_t extent = 0;
    const bool measurable = !HasNegative(o.view) && ViewExtent(o.view, itemsize, &extent);
    const bool empty = IsEmptyView(o.view);
    const bool short_storage = in.Below(8) == 0;
    if (measurable && (empty || extent <= kMaxRunElements) && !short_storage) {
      o.storage_elements = (empty ? 0 : extent) + in.Below(3);
      o.storage_fits = true;
    } else {
      o.storage_elements = in.Below(4);
      o.storage_fits = measurable && (empty || extent <= o.storage_elements);
    }
    // Declared storage shape: 1-D as torch_npu does, 2-D with the same product,
    // none at all, or (rarely) a negative or overflowing one.
    o.storage_dims = {o.storage_elements};
    const uint8_t declared = in.Byte();
    if (o.storage_elements % 2 == 0 && o.storage_elements > 0 && (declared & 1)) {
      o.storage_dims = {o.storage_elements / 2, 2};
    }
    if (declared >= 240) {
      o.declare_storage = false;
    } else if (declared >= 228) {
      o.invalid_storage = true;
      o.storage_dims = declared & 2 ? std::vector<int64_t>{INT64_C(1) << 32, INT64_C(1) << 33}
                                    : std::vector<int64_t>{o.storage_elements, -1 - (declared & 7)};
    }
    o.buffer.Allocate(static_cast<size_t>(o.storage_elements) * itemsize, in.Bool());
    std::memset(o.buffer.data(), kSentinel, o.buffer.bytes());
  }
  // Input contents: the remaining fuzzer bytes, cycled (any bit pattern: NaN,
  // infinities, subnormals, +-3 and their neighbours all show up).
  for (int op : {kGrad, kSelf}) {
    uint8_t* bytes = ops[op].buffer.data();
    for (size_t b = 0; b < ops[op].buffer.bytes(); ++b) bytes[b] = in.Byte() ^ static_cast<uint8_t>(b * 0x9e);
  }
  const bool repeat_launch = in.Below(4) == 0;
  const bool use_default_stream = in.Bool();
  const uint64_t bogus_workspace_size = in.Below(8) == 0 ? 1 + in.Below(255) : 0;

  for (int op = 0; op < 3; ++op) {
    Operand& o = ops[op];
    if (null_tensor[op]) continue;
    o.tensor = CCreateTensor(o.view.dims.data(), o.view.dims.size(), o.dtype,
                             o.null_strides ? nullptr : o.view.strides.data(), o.view.offset, format,
                             o.declare_storage ? o.storage_dims.data() : nullptr,
                             o.declare_storage ? o.storage_dims.size() : 0, o.buffer.data());
    FUZZ_CHECK(o.tensor != nullptr, "aclCreateTensor refused valid pointers for %s", kNames[op]);
  }
  const Expectation expected = Expect(ops, null_tensor, null_workspace_size, null_executor);

  uint64_t workspace_size = 12345;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = aclnnHardsigmoidBackwardGetWorkspaceSize(
      ops[kGrad].tensor, ops[kSelf].tensor, ops[kOut].tensor, null_workspace_size ? nullptr : &workspace_size,
      null_executor ? nullptr : &executor);
  if (expected.status == -1) {
    FUZZ_CHECK(status == ACLNN_ERR_PARAM_INVALID || status == ACLNN_ERR_INNER_NULLPTR,
               "phase 1 returned %d; %s", status, Describe(ops).c_str());
  } else {
    FUZZ_CHECK(status == expected.status, "phase 1 returned %d, expected %d; %s", status, expected.status,
               Describe(ops).c_str());
  }
  if (status != ACLNN_SUCCESS) {
    FUZZ_CHECK(executor == nullptr, "a failed phase 1 handed out an executor");
    const char* message = aclGetRecentErrMsg();
    FUZZ_CHECK(message != nullptr && message[0] != '\0', "phase 1 failed (%d) without recording a message", status);
    for (int op = 0; op < 3; ++op) {
      if (ops[op].tensor == nullptr || op != kOut) continue;
      for (size_t b = 0; b < ops[op].buffer.bytes(); ++b) {
        FUZZ_CHECK(ops[op].buffer.data()[b] == kSentinel, "a failed phase 1 wrote to out");
      }
    }
  } else {
    FUZZ_CHECK(executor != nullptr, "phase 1 succeeded without an executor");
    FUZZ_CHECK(workspace_size == expected.workspace_size, "workspace size %llu, expected %llu; %s",
               static_cast<unsigned long long>(workspace_size),
               static_cast<unsigned long long>(expected.workspace_size), Describe(ops).c_str());
  }
  // Frameworks destroy the tensors right after phase 1; the executor keeps what it needs.
  for (auto& o : ops) aclDestroyTensor(o.tensor);
  if (executor == nullptr) return;

  const int64_t elements = ElementCount(ops[kSelf].view.dims);
  bool runnable = !expected.out_of_storage && elements >= 0 && elements <= kMaxRunElements;
  if (!runnable) {
    // Never launched: a view past its storage would write outside it (see the
    // file comment), a huge zero-stride view would run for ages.
    FUZZ_CHECK(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "destroying an unlaunched executor failed");
    return;
  }
  if (repeat_launch) {
    FUZZ_CHECK(aclSetAclOpExecutorRepeatable(executor) == ACLNN_SUCCESS, "aclSetAclOpExecutorRepeatable failed");
  }
  const aclrtStream launch_stream = use_default_stream ? nullptr : stream;
  const aclnnStatus launched = aclnnHardsigmoidBackward(nullptr, bogus_workspace_size, executor, launch_stream);
  if (bogus_workspace_size > 0) {
    FUZZ_CHECK(launched == ACLNN_ERR_PARAM_NULLPTR, "phase 2 with a null workspace of size %llu returned %d",
               static_cast<unsigned long long>(bogus_workspace_size), launched);
    if (repeat_launch) FUZZ_CHECK(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "destroy failed");
    else FUZZ_CHECK(aclDestroyAclOpExecutor(executor) == ACLNN_ERR_PARAM_INVALID, "a refused one-shot executor stayed live");
    return;
  }
  FUZZ_CHECK(launched == ACLNN_SUCCESS, "phase 2 returned %d; %s", launched, Describe(ops).c_str());
  if (repeat_launch) {
    FUZZ_CHECK(aclnnHardsigmoidBackward(nullptr, 0, executor, launch_stream) == ACLNN_SUCCESS, "relaunch failed");
  } else {
    FUZZ_CHECK(aclnnHardsigmoidBackward(nullptr, 0, executor, launch_stream) == ACLNN_ERR_PARAM_INVALID,
               "a one-shot executor ran twice");
  }
  FUZZ_CHECK(aclrtSynchronizeStream(launch_stream) == ACL_SUCCESS, "aclrtSynchronizeStream failed");
  if (repeat_launch) FUZZ_CHECK(aclDestroyAclOpExecutor(executor) == ACLNN_SUCCESS, "destroy failed");
  ClearMessages();
  CheckOut(ops);
}

}  // namespace
}  // namespace aclcpu_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  aclcpu_fuzz::ByteReader in(data, size);
  aclcpu_fuzz::RunOne(in);
  return 0;
}
