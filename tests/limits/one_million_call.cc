// One 1M-element float32 aclnnHardsigmoidBackward call through the public API,
// checked element by element; run by address_limit_test.sh under `ulimit -v`.
// Exits 0 when every element is right, 77 (CTest: skipped) where an address
// limit cannot be honoured: sanitizer builds (shadow memory is terabytes of
// address space) and strict mode (device memory is mapped twice).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define ACLCPU_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define ACLCPU_SANITIZED 1
#endif
#endif

namespace {

constexpr int64_t kElements = int64_t{1} << 20;

int Fail(const char* what, int status) {
  const char* message = aclGetRecentErrMsg();  // reading it clears it: once
  std::fprintf(stderr, "one_million_call: %s failed with %d: %s\n", what, status, message != nullptr ? message : "");
  return 1;
}

}  // namespace

int main() {
#ifdef ACLCPU_SANITIZED
  return 77;
#endif
  const char* strict = std::getenv("ACLCPU_STRICT");
  if (strict != nullptr && std::strcmp(strict, "1") == 0) return 77;
  if (int s = aclInit(nullptr)) return Fail("aclInit", s);
  if (int s = aclrtSetDevice(0)) return Fail("aclrtSetDevice", s);
  aclrtStream stream = nullptr;
  if (int s = aclrtCreateStream(&stream)) return Fail("aclrtCreateStream", s);
  // self sweeps [-4, 4) so both sides of the +-3 edges are hit; grad varies too.
  std::vector<float> grad(kElements), self(kElements), out(kElements);
  for (int64_t i = 0; i < kElements; ++i) {
    self[i] = -4.0f + 8.0f * static_cast<float>(i) / static_cast<float>(kElements);
    grad[i] = 1.0f + static_cast<float>(i % 1000) / 7.0f;
  }
  const size_t bytes = kElements * sizeof(float);
  void* device[3] = {};
  for (void*& d : device) {
    if (int s = aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) return Fail("aclrtMalloc", s);
  }
  if (int s = aclrtMemcpy(device[0], bytes, grad.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE)) return Fail("copy", s);
  if (int s = aclrtMemcpy(device[1], bytes, self.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE)) return Fail("copy", s);
  const int64_t shape[] = {kElements};
  aclTensor* tensors[3];
  for (int k = 0; k < 3; ++k) {
    tensors[k] = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, device[k]);
    if (tensors[k] == nullptr) return Fail("aclCreateTensor", -1);
  }
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  if (int s = aclnnHardsigmoidBackwardGetWorkspaceSize(tensors[0], tensors[1], tensors[2], &workspace_size,
                                                       &executor)) {
    return Fail("phase 1", s);
  }
  if (int s = aclnnHardsigmoidBackward(nullptr, 0, executor, stream)) return Fail("phase 2", s);
  if (int s = aclrtSynchronizeStream(stream)) return Fail("aclrtSynchronizeStream", s);
  if (int s = aclrtMemcpy(out.data(), bytes, device[2], bytes, ACL_MEMCPY_DEVICE_TO_HOST)) return Fail("copy", s);
  // PyTorch's rule: grad / 6 strictly inside (-3, 3), 0 elsewhere, as
  // grad * (1/6) in float32.
  const float one_sixth = 1.0f / 6.0f;
  for (int64_t i = 0; i < kElements; ++i) {
    const float expected = self[i] > -3.0f && self[i] < 3.0f ? grad[i] * one_sixth : 0.0f;
    if (std::memcmp(&expected, &out[i], sizeof expected) != 0) {
      std::fprintf(stderr, "one_million_call: element %lld is %a, expected %a\n", static_cast<long long>(i),
                   out[i], expected);
      return 1;
    }
  }
  for (aclTensor* t : tensors) aclDestroyTensor(t);
  for (void* d : device) aclrtFree(d);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  std::printf("one_million_call: %lld elements right\n", static_cast<long long>(kElements));
  return 0;
}
