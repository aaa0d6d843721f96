// Issue "Reliability", clause 5: the operator's thread pool failing to start a
// worker runs launches on fewer threads, with the same results.
//
// The pool is created once per process, so each pass n runs in a child process
// of its own (fork before the runtime is touched): the child arms
// ThreadPoolStart:n, runs one launch big enough for 4 threads and reports
// whether the fault fired, whether every element is right, and how many
// threads the process has. The same pool then runs a launch of each form of
// the forward op (aclnnHardsigmoid, aclnnInplaceHardsigmoid), checked too.
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "fault_sequence.h"

namespace aclcpu_fault_test {
namespace {

constexpr int kThreads = 4;
// Split into kThreads parts (the operator splits from 128 KiB moved a part).
constexpr int64_t kBigElements = int64_t{kThreads} * 128 * 1024;

struct ChildReport {
  int fired = -1;
  int correct = -1;
  int threads = -1;
};

// One launch of `op` over the big tensors (grad is ignored by the forward pair,
// out by the in-place form, which writes self): 1 if every element is right.
int RunBigLaunch(Operator op, const std::vector<float>& grad, const std::vector<float>& self, void* const device[3],
                 aclTensor* const tensors[3]) {
  const size_t bytes = kBigElements * sizeof(float);
  aclrtMemcpy(device[1], bytes, self.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);  // the in-place form wrote it
  uint64_t workspace = 0;
  aclOpExecutor* executor = nullptr;
  if (CallPhase1(op, tensors[0], tensors[1], tensors[2], &workspace, &executor) != 0 ||
      CallPhase2(op, nullptr, workspace, executor, nullptr) != 0 || aclrtSynchronizeStream(nullptr) != ACL_SUCCESS) {
    return 0;
  }
  std::vector<float> out(kBigElements, -1.0f);
  aclrtMemcpy(out.data(), bytes, device[op == Operator::kInplaceHardsigmoid ? 1 : 2], bytes,
              ACL_MEMCPY_DEVICE_TO_HOST);
  for (int64_t i = 0; i < kBigElements; ++i) {
    if (out[i] != OperatorResult(op, grad[i], self[i])) return 0;
  }
  return 1;
}

// The child's work: 1 if every element of one big launch of each operator is
// right. The first launch makes the pool (with the fault); the others run on it.
int RunBigLaunches() {
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 0;
  const size_t bytes = kBigElements * sizeof(float);
  std::vector<float> grad(kBigElements), self(kBigElements);
  for (int64_t i = 0; i < kBigElements; ++i) {
    grad[i] = static_cast<float>(i % 97);
    self[i] = static_cast<float>(i % 17) * 0.5f - 4.0f;
  }
  void* device[3] = {};
  for (void*& d : device) {
    if (aclrtMalloc(&d, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 0;
  }
  aclrtMemcpy(device[0], bytes, grad.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  const int64_t shape[1] = {kBigElements};
  aclTensor* tensors[3];
  for (int i = 0; i < 3; ++i) {
    tensors[i] = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, device[i]);
  }
  int correct = 1;
  for (Operator op : kOperators) correct &= RunBigLaunch(op, grad, self, device, tensors);
  for (aclTensor* t : tensors) aclDestroyTensor(t);
  for (void* d : device) aclrtFree(d);
  return correct;
}

ChildReport RunChild(int64_t n) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    // Sanitizer runtimes (TSan) start a helper thread at a process's first
    // thread creation: have it happen here, so thread counts differ only by
    // the pool's workers.
    std::thread([] {}).join();
    setenv("ACLCPU_NUM_THREADS", std::to_string(kThreads).c_str(), 1);
    aclcpuSetFaultInjection("ThreadPoolStart", n);
    const int correct = RunBigLaunches();
    char line[64];
    const int length = std::snprintf(line, sizeof line, "%d %d %d", static_cast<int>(aclcpuFaultInjectionFired()),
                                     correct, ThreadsOfThisProcess());
    if (write(fds[1], line, length) != length) _exit(2);
    _exit(0);  // without running the parent's gtest state at exit
  }
  close(fds[1]);
  char buffer[64] = {};
  ChildReport report;
  if (pid > 0 && read(fds[0], buffer, sizeof buffer - 1) > 0) {
    std::sscanf(buffer, "%d %d %d", &report.fired, &report.correct, &report.threads);
  }
  close(fds[0]);
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
  return report;
}

TEST(FaultInjection, ThreadPoolStartFailureRunsLaunchesOnFewerThreadsWithTheSameResult) {
  const ChildReport unfaulted = RunChild(kThreads);  // the pool starts kThreads - 1 workers: no nth pass
  ASSERT_EQ(unfaulted.fired, 0);
  ASSERT_EQ(unfaulted.correct, 1);
  for (int64_t n = 1; n < kThreads; ++n) {
    const ChildReport report = RunChild(n);
    EXPECT_EQ(report.fired, 1) << "pass " << n;
    EXPECT_EQ(report.correct, 1) << "pass " << n;
    // Worker n failed to start: the pool kept the n - 1 before it.
    EXPECT_EQ(unfaulted.threads - report.threads, kThreads - n) << "pass " << n;
  }
}

}  // namespace
}  // namespace aclcpu_fault_test
