// Runs aclnnHardsigmoid or aclnnInplaceHardsigmoid on the cases in a file
// written by run_hardsigmoid_differential.py and writes each case's status and
// the written storage (out's, or self's in place).
//
// Usage: hs_diff_driver CASES RESULTS
// CASES (little-endian int64 unless noted):
//   "ACLHSDF1" count
//   per case: dtype in_place rank dims[rank]
//             then for self, out: strides[rank] offset storage_elements
//             (out's are ignored in place)
//             then self's storage bytes
// RESULTS: "ACLHSRS1" count, then per case: status, then (status 0 only) the
//   written storage's bytes after the run; out's storage starts filled with 0xA5.
// Every operand is device memory from aclrtMalloc, filled with aclrtMemcpy.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_hardsigmoid.h"

namespace {

FILE* g_cases = nullptr;
FILE* g_results = nullptr;

int64_t Next() {
  int64_t value = 0;
  if (std::fread(&value, sizeof value, 1, g_cases) != 1) {
    std::fprintf(stderr, "hs_diff_driver: truncated case file\n");
    std::exit(2);
  }
  return value;
}

// One tensor of a case: its view and its device storage.
struct Storage {
  std::vector<int64_t> strides;
  int64_t offset = 0;
  int64_t elements = 0;
  size_t bytes = 0;
  void* device = nullptr;

  bool Read(int64_t rank, size_t item_size) {
    strides.resize(static_cast<size_t>(rank));
    for (auto& stride : strides) stride = Next();
    offset = Next();
    elements = Next();
    bytes = static_cast<size_t>(elements) * item_size;
    return aclrtMalloc(&device, bytes == 0 ? 1 : bytes, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS;
  }
  aclTensor* Describe(const std::vector<int64_t>& dims, aclDataType dtype) const {
    const int64_t storage_dims[1] = {elements};
    return aclCreateTensor(dims.data(), dims.size(), dtype, strides.data(), offset, ACL_FORMAT_ND, storage_dims, 1,
                           device);
  }
};

// The phases of one case; returns the first non-zero status.
int64_t RunCase(bool in_place, aclTensor* self, aclTensor* out, aclrtStream stream) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  int64_t status = in_place ? aclnnInplaceHardsigmoidGetWorkspaceSize(self, &workspace_size, &executor)
                            : aclnnHardsigmoidGetWorkspaceSize(self, out, &workspace_size, &executor);
  if (status != 0) return status;
  void* workspace = nullptr;
  if (workspace_size > 0 && aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 3;
  status = in_place ? aclnnInplaceHardsigmoid(workspace, workspace_size, executor, stream)
                    : aclnnHardsigmoid(workspace, workspace_size, executor, stream);
  if (status == 0) status = aclrtSynchronizeStream(stream);
  if (workspace != nullptr) aclrtFree(workspace);
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: hs_diff_driver CASES RESULTS\n");
    return 2;
  }
  g_cases = std::fopen(argv[1], "rb");
  g_results = std::fopen(argv[2], "wb");
  char magic[8];
  if (g_cases == nullptr || g_results == nullptr || std::fread(magic, 8, 1, g_cases) != 1 ||
      std::memcmp(magic, "ACLHSDF1", 8) != 0) {
    std::fprintf(stderr, "hs_diff_driver: cannot read the case file or write the results\n");
    return 2;
  }
  const int64_t count = Next();
  std::fwrite("ACLHSRS1", 8, 1, g_results);
  std::fwrite(&count, sizeof count, 1, g_results);
  aclInit(nullptr);
  aclrtSetDevice(0);
  aclrtStream stream = nullptr;
  if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 3;

  for (int64_t c = 0; c < count; ++c) {
    const aclDataType dtype = static_cast<aclDataType>(Next());
    const bool in_place = Next() != 0;
    const int64_t rank = Next();
    std::vector<int64_t> dims(static_cast<size_t>(rank));
    for (auto& dim : dims) dim = Next();
    const size_t item_size = aclDataTypeSize(dtype);
    Storage self, out;
    if (!self.Read(rank, item_size) || !out.Read(rank, item_size)) return 3;
    std::vector<uint8_t> host(self.bytes);
    if (!host.empty() && (std::fread(host.data(), host.size(), 1, g_cases) != 1 ||
                          aclrtMemcpy(self.device, self.bytes, host.data(), host.size(),
                                      ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)) {
      return 3;
    }
    if (out.bytes > 0 && aclrtMemset(out.device, out.bytes, 0xA5, out.bytes) != ACL_SUCCESS) return 3;
    aclTensor* self_tensor = self.Describe(dims, dtype);
    aclTensor* out_tensor = out.Describe(dims, dtype);
    const int64_t status = RunCase(in_place, self_tensor, out_tensor, stream);
    aclDestroyTensor(self_tensor);
    aclDestroyTensor(out_tensor);
    std::fwrite(&status, sizeof status, 1, g_results);
    if (status == 0) {
      const Storage& written = in_place ? self : out;
      std::vector<uint8_t> result(written.bytes);
      if (!result.empty() && aclrtMemcpy(result.data(), result.size(), written.device, written.bytes,
                                         ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
        return 3;
      }
      if (!result.empty()) std::fwrite(result.data(), 1, result.size(), g_results);
    } else {
      const char* message = aclGetRecentErrMsg();
      std::fprintf(stderr, "case %lld: status %lld: %s\n", static_cast<long long>(c), static_cast<long long>(status),
                   message != nullptr ? message : "(no message)");
    }
    aclrtFree(self.device);
    aclrtFree(out.device);
  }
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return std::fclose(g_results) == 0 ? 0 : 3;
}
