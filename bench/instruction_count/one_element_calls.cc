// The measured program of count_instructions.sh: CANN's call sequence on a
// 1-element float32 tensor — phase 1, phase 2, aclrtSynchronizeStream — warmed
// up, then repeated `calls` times between SIGUSR1 and SIGUSR2, which
// single_step_counter counts between. Checks the last result. The operator is
// aclnnHardsigmoidBackward, or with ACLCPU_COUNT_OP=forward aclnnHardsigmoid.
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "acl/acl.h"
#include "aclnnop/aclnn_hardsigmoid.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"

namespace {

// Which part of a call is counted (ACLCPU_COUNT_PART): all of it, or one of
// phase1 / phase2 / sync, to see where a change went.
enum class Part { kAll, kPhase1, kPhase2, kSync };
Part counted = Part::kAll;

void Mark(Part part, int signal) {
  if (counted != Part::kAll && counted == part) std::raise(signal);
}

// Weak, so that the program also links against builds from before the forward
// pair (baselines); asking for it there is an error.
#pragma weak aclnnHardsigmoidGetWorkspaceSize
#pragma weak aclnnHardsigmoid

bool forward = false;  // ACLCPU_COUNT_OP=forward: aclnnHardsigmoid(self, out)

bool Call(aclTensor* grad, aclTensor* self, aclTensor* out, aclrtStream stream) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  Mark(Part::kPhase1, SIGUSR1);
  const bool planned =
      (forward ? aclnnHardsigmoidGetWorkspaceSize(self, out, &workspace_size, &executor)
               : aclnnHardsigmoidBackwardGetWorkspaceSize(grad, self, out, &workspace_size, &executor)) == 0;
  Mark(Part::kPhase1, SIGUSR2);
  if (!planned) return false;
  Mark(Part::kPhase2, SIGUSR1);
  const bool launched =
      (forward ? aclnnHardsigmoid(nullptr, 0, executor, stream) : aclnnHardsigmoidBackward(nullptr, 0, executor, stream)) == 0;
  Mark(Part::kPhase2, SIGUSR2);
  if (!launched) return false;
  Mark(Part::kSync, SIGUSR1);
  const bool synchronised = aclrtSynchronizeStream(stream) == ACL_SUCCESS;
  Mark(Part::kSync, SIGUSR2);
  return synchronised;
}

}  // namespace

int main(int argc, char** argv) {
  const int calls = argc > 1 ? std::atoi(argv[1]) : 10;
  const char* part = std::getenv("ACLCPU_COUNT_PART");
  if (part != nullptr && std::string(part) == "phase1") counted = Part::kPhase1;
  if (part != nullptr && std::string(part) == "phase2") counted = Part::kPhase2;
  if (part != nullptr && std::string(part) == "sync") counted = Part::kSync;
  const char* op = std::getenv("ACLCPU_COUNT_OP");
  forward = op != nullptr && std::string(op) == "forward";
  if (forward && (&aclnnHardsigmoidGetWorkspaceSize == nullptr || &aclnnHardsigmoid == nullptr)) {
    std::fprintf(stderr, "one_element_calls: these libraries have no aclnnHardsigmoid\n");
    return 1;
  }
  aclrtStream stream = nullptr;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS) {
    return 1;
  }
  const float grad_value = 3.0f, self_value = 1.0f;
  void* device[3] = {};
  for (void*& memory : device) {
    if (aclrtMalloc(&memory, sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
  }
  aclrtMemcpy(device[0], sizeof(float), &grad_value, sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(device[1], sizeof(float), &self_value, sizeof(float), ACL_MEMCPY_HOST_TO_DEVICE);
  const int64_t shape[1] = {1}, strides[1] = {1};
  aclTensor* tensors[3];
  for (int i = 0; i < 3; ++i) {
    tensors[i] = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, device[i]);
  }
  const Part requested = counted;
  counted = Part::kAll;  // the warm-up raises no marker
  for (int i = 0; i < 1000; ++i) {
    if (!Call(tensors[0], tensors[1], tensors[2], stream)) return 1;
  }
  counted = requested;
  if (counted == Part::kAll) std::raise(SIGUSR1);
  bool ok = true;
  for (int i = 0; i < calls; ++i) ok = Call(tensors[0], tensors[1], tensors[2], stream) && ok;
  if (counted == Part::kAll) std::raise(SIGUSR2);
  float result = 0.0f;
  aclrtMemcpy(&result, sizeof(float), device[2], sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
  for (aclTensor* tensor : tensors) aclDestroyTensor(tensor);
  for (void* memory : device) aclrtFree(memory);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  // Backward: 3 * (1/6), self inside the window; forward: (1 + 3) / 6.
  const float expected = forward ? 4.0f / 6.0f : 0.5f;
  if (!ok || result != expected) {
    std::fprintf(stderr, "one_element_calls: wrong result %g\n", result);
    return 1;
  }
  return 0;
}
