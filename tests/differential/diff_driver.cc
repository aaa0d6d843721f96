// Runs aclnnHardsigmoidBackward on the cases in a file written by
// run_differential.py and writes each case's status and out storage.
//
// Usage: hsb_diff_driver CASES RESULTS
// CASES (little-endian int64 unless noted):
//   "ACLDIFF1" count
//   per case: grad_dtype self_dtype out_dtype rank dims[rank]
//             then for gradOutput, self, out: strides[rank] offset storage_elements
//             then gradOutput's storage bytes, self's storage bytes
// RESULTS: "ACLDRES1" count, then per case: status, then (status 0 only) out's
//   storage bytes after the run; out's storage starts filled with 0xA5.
// Every operand is device memory from aclrtMalloc, filled with aclrtMemcpy.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"

namespace {

FILE* in_file = nullptr;
FILE* out_file = nullptr;

int64_t ReadI64() {
  int64_t value = 0;
  if (std::fread(&value, 8, 1, in_file) != 1) {
    std::fprintf(stderr, "hsb_diff_driver: truncated case file\n");
    std::exit(2);
  }
  return value;
}
void WriteI64(int64_t value) { std::fwrite(&value, 8, 1, out_file); }

struct Operand {
  int64_t dtype = 0;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  int64_t storage_elements = 0;
  size_t bytes = 0;
  void* device = nullptr;
  aclTensor* tensor = nullptr;
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: hsb_diff_driver CASES RESULTS\n");
    return 2;
  }
  in_file = std::fopen(argv[1], "rb");
  out_file = std::fopen(argv[2], "wb");
  if (in_file == nullptr || out_file == nullptr) {
    std::fprintf(stderr, "hsb_diff_driver: cannot open files\n");
    return 2;
  }
  char magic[8];
  if (std::fread(magic, 8, 1, in_file) != 1 || std::memcmp(magic, "ACLDIFF1", 8) != 0) {
    std::fprintf(stderr, "hsb_diff_driver: not a case file\n");
    return 2;
  }
  const int64_t count = ReadI64();
  std::fwrite("ACLDRES1", 8, 1, out_file);
  WriteI64(count);

  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 3;

  for (int64_t c = 0; c < count; ++c) {
    Operand ops[3];  // gradOutput, self, out
    for (auto& op : ops) op.dtype = ReadI64();
    const int64_t rank = ReadI64();
    std::vector<int64_t> dims(static_cast<size_t>(rank));
    for (auto& dim : dims) dim = ReadI64();
    for (auto& op : ops) {
      op.strides.resize(static_cast<size_t>(rank));
      for (auto& stride : op.strides) stride = ReadI64();
      op.offset = ReadI64();
      op.storage_elements = ReadI64();
      op.bytes = static_cast<size_t>(op.storage_elements) * aclDataTypeSize(static_cast<aclDataType>(op.dtype));
      if (aclrtMalloc(&op.device, op.bytes == 0 ? 1 : op.bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 3;
    }
    for (int k = 0; k < 2; ++k) {
      std::vector<uint8_t> host(ops[k].bytes);
      if (!host.empty() && std::fread(host.data(), host.size(), 1, in_file) != 1) return 2;
      if (!host.empty() &&
          aclrtMemcpy(ops[k].device, ops[k].bytes, host.data(), host.size(), ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        return 3;
      }
    }
    if (ops[2].bytes > 0 && aclrtMemset(ops[2].device, ops[2].bytes, 0xA5, ops[2].bytes) != ACL_SUCCESS) return 3;
    for (auto& op : ops) {
      const int64_t storage_dims[1] = {op.storage_elements};
      op.tensor = aclCreateTensor(dims.data(), dims.size(), static_cast<aclDataType>(op.dtype), op.strides.data(),
                                  op.offset, ACL_FORMAT_ND, storage_dims, 1, op.device);
    }
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    int64_t status = aclnnHardsigmoidBackwardGetWorkspaceSize(ops[0].tensor, ops[1].tensor, ops[2].tensor,
                                                              &workspace_size, &executor);
    for (auto& op : ops) aclDestroyTensor(op.tensor);
    if (status == 0) status = aclnnHardsigmoidBackward(nullptr, 0, executor, stream);
    if (status == 0) status = aclrtSynchronizeStream(stream);
    WriteI64(status);
    if (status == 0) {
      std::vector<uint8_t> host(ops[2].bytes);
      if (!host.empty() &&
          aclrtMemcpy(host.data(), host.size(), ops[2].device, ops[2].bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
        return 3;
      }
      if (!host.empty()) std::fwrite(host.data(), 1, host.size(), out_file);
    } else {
      const char* message = aclGetRecentErrMsg();
      std::fprintf(stderr, "case %lld: status %lld: %s\n", static_cast<long long>(c), static_cast<long long>(status),
                   message != nullptr ? message : "(no message)");
    }
    for (auto& op : ops) aclrtFree(op.device);
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return std::fclose(out_file) == 0 ? 0 : 3;
}
