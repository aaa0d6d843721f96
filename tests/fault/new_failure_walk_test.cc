// No exception crosses the C ABI (issue "Hardening the edges", clause 2), shown
// without trusting our own fault sites: this binary replaces the global
// operator new (every form), so every allocation anywhere in the libraries,
// libstdc++'s containers included, can be made to fail. For n = 1, 2, ... the
// operator call sequence of fault_sequence.h runs with the nth allocation made
// during its library calls failing (std::bad_alloc, or nullptr for the nothrow
// forms); only allocations made while a step's call runs are counted, so the
// test's own never fail. For each n it checks that no exception escaped the
// call, that a failed call returned one of the documented out-of-memory
// statuses with a message and left no runtime object behind, and that the rest
// of the sequence, resumed un-faulted, gives the right result. The walk ends at
// the first n the sequence does not reach. Leaks are LeakSanitizer's to find:
// the sanitizer stage runs this binary under ASan. Every test runs once per
// operator (aclnnHardsigmoidBackward, aclnnHardsigmoid, aclnnInplaceHardsigmoid),
// each in a process of its own, so that each walks its operator's first calls
// (process-wide state built on first use) too.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <new>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "aclnn/opdev/op_errno.h"
#include "fault_sequence.h"
#include "gate.h"
#include "ops/shared/elementwise_plan.h"
#include "runtime/services.h"

namespace {

std::atomic<bool> g_counting{false};      // a step's library call is running
std::atomic<int64_t> g_until_failure{0};  // allocations left before the one that fails
std::atomic<bool> g_failed{false};        // the failure happened (once per run)

bool ThisAllocationFails() {
  if (!g_counting.load(std::memory_order_relaxed) || g_failed.load(std::memory_order_relaxed)) return false;
  if (g_until_failure.fetch_sub(1, std::memory_order_relaxed) != 1) return false;
  g_failed.store(true, std::memory_order_relaxed);
  return true;
}

void* Allocate(size_t size, size_t alignment) {
  if (size == 0) size = 1;
  if (alignment <= alignof(std::max_align_t)) return std::malloc(size);
  void* memory = nullptr;
  return posix_memalign(&memory, alignment, size) == 0 ? memory : nullptr;
}

void* ThrowingNew(size_t size, size_t alignment) {
  if (ThisAllocationFails()) throw std::bad_alloc();
  void* memory = Allocate(size, alignment);
  if (memory == nullptr) throw std::bad_alloc();
  return memory;
}

void* NothrowNew(size_t size, size_t alignment) noexcept {
  return ThisAllocationFails() ? nullptr : Allocate(size, alignment);
}

}  // namespace

void* operator new(size_t size) { return ThrowingNew(size, 0); }
void* operator new[](size_t size) { return ThrowingNew(size, 0); }
void* operator new(size_t size, std::align_val_t a) { return ThrowingNew(size, static_cast<size_t>(a)); }
void* operator new[](size_t size, std::align_val_t a) { return ThrowingNew(size, static_cast<size_t>(a)); }
void* operator new(size_t size, const std::nothrow_t&) noexcept { return NothrowNew(size, 0); }
void* operator new[](size_t size, const std::nothrow_t&) noexcept { return NothrowNew(size, 0); }
void* operator new(size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return NothrowNew(size, static_cast<size_t>(a));
}
void* operator new[](size_t size, std::align_val_t a, const std::nothrow_t&) noexcept {
  return NothrowNew(size, static_cast<size_t>(a));
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }

namespace aclcpu_fault_test {
namespace {

// What a call may answer when memory runs out (docs/reliability.md, "Sites,
// statuses, state left"); kNullHandle for the creators that return nullptr.
// A synchronisation may also answer 507015: a task queued on the stream failed
// while it ran (README "Runtime"; docs/reliability.md), never a silent success.
const std::set<int> kOutOfMemoryStatuses = {ACL_ERROR_RT_MEMORY_ALLOCATION, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
                                            ACLNN_ERR_INNER, ACLNN_ERR_INNER_CREATE_EXECUTOR,
                                            ACLNN_ERR_RUNTIME_ERROR, ACL_ERROR_RT_AICORE_EXCEPTION, kNullHandle};

std::string Messages() {
  const char* message = aclGetRecentErrMsg();
  return message != nullptr ? message : "";
}

// Runs `step` with allocations counted; false if an exception escaped it.
bool CallCounted(const Step& step, SequenceState& state, int* status) {
  g_counting.store(true);
  bool returned = true;
  try {
    *status = step.call(state);
  } catch (...) {
    returned = false;
  }
  g_counting.store(false);
  return returned;
}

// The parameter is the operator whose call sequence is walked.
class NewFailureWalk : public ::testing::TestWithParam<Operator> {
 protected:
  void SetUp() override { ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS); }
  void TearDown() override { EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS); }
};

TEST_P(NewFailureWalk, EveryAllocationOfTheCallSequenceFailsInTurnWithoutExceptionOrLeftovers) {
  constexpr int64_t kMaxAllocations = 5000;  // far above one sequence's
  const Operator op = GetParam();
  const std::vector<Step> steps = OperatorCallSequence(op);
  int64_t failures = 0;
  for (int64_t n = 1; n <= kMaxAllocations; ++n) {
    const std::string walk = std::string(OperatorName(op)) + " sequence, allocation " + std::to_string(n);
    SequenceState state(op);
    Messages();
    const LiveCounts before_sequence = CountLiveObjects();
    g_until_failure.store(n);
    g_failed.store(false);
    bool broken = false;
    bool failed_here = false;
    for (size_t i = 0; i < steps.size() && !broken;) {
      const Step& step = steps[i];
      Messages();
      const LiveCounts before_call = CountLiveObjects();
      const bool failed_before = g_failed.load();
      int status = 0;
      if (!CallCounted(step, state, &status)) {
        ADD_FAILURE() << walk << ": an exception escaped " << step.name;
        broken = true;
        break;
      }
      failed_here = !failed_before && g_failed.load();
      if (failed_here && status != 0) {
        const std::string where = walk + " failed in " + step.name;
        EXPECT_EQ(kOutOfMemoryStatuses.count(status), 1u) << where << ": status " << status;
        EXPECT_FALSE(Messages().empty()) << where << ": no message for aclGetRecentErrMsg";
        EXPECT_TRUE(CountLiveObjects() == before_call) << where << ": the failed call left a runtime object behind";
        if (step.role == StepRole::kPhase2) {
          aclDestroyAclOpExecutor(state.executor);  // spent or not, it is not needed any more
          Messages();
          state.executor = nullptr;
        }
        i = step.resume_from;
        continue;
      }
      if (status != 0) {
        ADD_FAILURE() << walk << ": " << step.name << " failed with " << status << " with no allocation failing: "
                      << Messages();
        broken = true;
      }
      ++i;
    }
    if (!broken) ExpectCorrectResult(state, walk);
    // Releasing is walked too (the destroy calls' bookkeeping allocates in
    // strict mode): whatever fails, everything must still be released.
    g_counting.store(true);
    try {
      state.Release();
    } catch (...) {
      ADD_FAILURE() << walk << ": an exception escaped while releasing the sequence";
    }
    g_counting.store(false);
    const bool reached = g_failed.load();
    EXPECT_TRUE(CountLiveObjects() == before_sequence) << walk << ": objects left after releasing the sequence";
    if (!reached || testing::Test::HasFailure()) {
      EXPECT_GT(failures, 10) << "the sequence made implausibly few allocations";
      std::printf("allocations failed in turn: %lld\n", static_cast<long long>(failures));
      return;
    }
    ++failures;
  }
  ADD_FAILURE() << "the sequence still allocated after " << kMaxAllocations << " allocations";
}

// Walks the allocations of one call: for n = 1, 2, ... `call` runs with its
// nth allocation failing, until it makes fewer than n. No exception may escape,
// and the status must be `status_without_failure` (what it returns when memory
// suffices) or a documented out-of-memory one. Returns the allocations walked.
int64_t WalkOneCall(const std::string& name, const std::function<int()>& call, int status_without_failure) {
  for (int64_t n = 1; n <= 1000; ++n) {
    Messages();
    g_until_failure.store(n);
    g_failed.store(false);
    g_counting.store(true);
    int status = 0;
    bool returned = true;
    try {
      status = call();
    } catch (...) {
      returned = false;
    }
    g_counting.store(false);
    const std::string where = name + ", allocation " + std::to_string(n);
    EXPECT_TRUE(returned) << where << ": an exception escaped";
    if (!returned) return n;
    if (!g_failed.load()) {
      EXPECT_EQ(status, status_without_failure) << name;
      return n - 1;
    }
    EXPECT_TRUE(status == status_without_failure || kOutOfMemoryStatuses.count(status) == 1)
        << where << ": status " << status;
  }
  ADD_FAILURE() << name << " still allocated after 1000 allocations";
  return 0;
}

// Calls walked one at a time, each allocation failing in turn; each keeps its
// status or reports running out:
// - the process's first launch (phase 1, phase 2, synchronisation), walked
//   before any other: state a process builds on first use (the executor
//   slots and their commit lock, the SIMD target) is built un-faulted by the
//   sequence walk at its first n, before the step that needs it, so only a
//   process of its own shows its allocations failing (CTest runs each test in one);
// - the error paths (their messages name shapes and dtypes): refused phase 1s;
// - the device-wide calls that list streams, contexts, a new thread's first call.
TEST_P(NewFailureWalk, EveryAllocationOfAFirstLaunchErrorPathsAndDeviceWideCallsFailsInTurnWithoutException) {
  const Operator op = GetParam();
  SequenceState state(op);
  size_t phase1 = 0;
  ASSERT_NO_FATAL_FAILURE(RunStepsBefore(StepRole::kPhase1, OperatorCallSequence(op), state, &phase1));
  const int64_t first_launch = WalkOneCall("the process's first phase 1, phase 2 and aclrtSynchronizeStream", [&] {
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    int status = CallPhase1(op, state.grad, state.self, state.out, &workspace_size, &executor);
    if (status == 0) status = CallPhase2(op, nullptr, workspace_size, executor, state.stream);  // spends it
    if (status == 0) status = aclrtSynchronizeStream(state.stream);
    return status;
  }, 0);
  EXPECT_GT(first_launch, 0);
  std::printf("allocations of the first launch failed in turn: %lld\n", static_cast<long long>(first_launch));
  // Views of self's buffer (32 KiB), refused for their shape, dtype or aliasing.
  const int64_t other_dims[] = {kElements / 2, 2};
  aclTensor* other_shape = aclCreateTensor(other_dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, other_dims, 2,
                                           state.self_device);
  ASSERT_NE(other_shape, nullptr);
  const int64_t double_dims[] = {kElements / 2};
  aclTensor* doubles = aclCreateTensor(double_dims, 1, ACL_DOUBLE, nullptr, 0, ACL_FORMAT_ND, double_dims, 1,
                                       state.self_device);
  ASSERT_NE(doubles, nullptr);
  const int64_t dims[] = {kElements};
  const int64_t zero_stride[] = {0};
  const int64_t one_element[] = {1};
  aclTensor* broadcast = aclCreateTensor(dims, 1, ACL_FLOAT, zero_stride, 0, ACL_FORMAT_ND, one_element, 1,
                                         state.self_device);
  ASSERT_NE(broadcast, nullptr);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  int64_t walked = 0;
  // A dtype outside every operator's list (the in-place form ignores out).
  walked += WalkOneCall("phase 1 with a DOUBLE self", [&] {
    return CallPhase1(op, state.grad, doubles, doubles, &workspace_size, &executor);
  }, ACLNN_ERR_PARAM_INVALID);
  if (op == Operator::kInplaceHardsigmoid) {
    walked += WalkOneCall("phase 1 with a self whose elements share memory", [&] {
      return CallPhase1(op, nullptr, broadcast, nullptr, &workspace_size, &executor);
    }, ACLNN_ERR_PARAM_INVALID);
  } else {
    walked += WalkOneCall("phase 1 with out of another shape", [&] {
      return CallPhase1(op, state.grad, state.self, other_shape, &workspace_size, &executor);
    }, ACLNN_ERR_PARAM_INVALID);
  }
  walked += WalkOneCall("aclrtSynchronizeDevice", [] { return aclrtSynchronizeDevice(); }, ACL_SUCCESS);
  aclrtContext primary = nullptr;
  ASSERT_EQ(aclrtGetCurrentContext(&primary), ACL_SUCCESS);
  walked += WalkOneCall("aclrtCreateContext then aclrtDestroyContext", [&] {
    aclrtContext context = nullptr;
    int status = aclrtCreateContext(&context, 0);
    if (status != ACL_SUCCESS) return status;
    status = aclrtDestroyContext(context);
    aclrtSetCurrentContext(primary);
    return status;
  }, ACL_SUCCESS);
  // A thread's first call into the runtime builds that thread's error state; a
  // failing call records a message there. Started with pthread_create, whose
  // own allocations do not go through operator new, so only the library's are
  // walked; an exception escaping the thread would end the process.
  walked += WalkOneCall("a new thread's first call, which fails and records a message", [] {
    struct FirstCall {
      int status = -1;
      bool message_read = false;
      static void* Run(void* argument) {
        auto* call = static_cast<FirstCall*>(argument);
        call->status = aclrtMemcpy(nullptr, 0, nullptr, 0, ACL_MEMCPY_HOST_TO_HOST);
        call->message_read = aclGetRecentErrMsg() != nullptr;  // the message, or the "lost" notice
        return nullptr;
      }
    } call;
    pthread_t thread;
    if (pthread_create(&thread, nullptr, &FirstCall::Run, &call) != 0) return -1;
    pthread_join(thread, nullptr);
    return call.message_read ? call.status : -2;
  }, ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(executor, nullptr);
  EXPECT_GT(walked, 0);
  aclDestroyTensor(broadcast);
  aclDestroyTensor(doubles);
  aclDestroyTensor(other_shape);
  state.Release();
}

// --- A launch queued on the stream's worker and split across the thread pool.
//
// The walks above run launches of kElements (one part) on an idle stream, where
// they run on the calling thread; the process's pool is never built. Here a
// launch of kSplitElements is queued behind a task that holds the stream's
// worker (so the worker runs it) and is split in two (ACLCPU_NUM_THREADS=2,
// set for this binary), so that every allocation a launch makes on the stream
// worker and the pool's threads — the stream's worker starting, the queue
// entry, the pool and its worker — fails in turn. The pool is built once per
// process, so each n runs in a child process of its own (forked from a parent
// that has started no thread of the library's), as the first build of the pool
// is what must be walked. Each n ends in a correct result or a documented
// failure status, never a success with a wrong result.

constexpr int64_t kSplitElements = 65536;
// Two parts at two threads: each part moves at least kMinBytesPerPart for every
// operator (the in-place form, which moves least, reads and writes self: 8 bytes an element).
static_assert(kSplitElements * 8 >= 2 * aclcpu::kMinBytesPerPart, "the launch must be split across two threads");

// Holds a stream's worker until its gate opens.
class HoldTask final : public aclcpu::Task {
 public:
  explicit HoldTask(aclcpu_test::Gate* gate) : gate_(gate) {}
  bool Run() override {
    gate_->Wait();
    return true;
  }
  const char* Name() const override { return "HoldTask"; }

 private:
  aclcpu_test::Gate* gate_;
};

struct WorkerLaunchReport {
  int fired = -1;    // the nth allocation was reached (and failed)
  int escaped = -1;  // an exception escaped a library call
  int hold = -1, phase1 = -1, phase2 = -1, sync = -1;  // statuses (hold: queueing HoldTask)
  int queued = -1;   // after phase 2 the stream was still busy (the launch waited behind HoldTask)
  int correct = -1;  // every element of the result right
  int threads = -1;  // threads the library started in the child: stream worker + pool worker when all started
};

// Counted library call: its status, or sets *escaped.
int Counted(const std::function<int()>& call, int* escaped) {
  g_counting.store(true);
  int status = -100;
  try {
    status = call();
  } catch (...) {
    *escaped = 1;
  }
  g_counting.store(false);
  return status;
}

// The child's work for allocation n.
WorkerLaunchReport RunWorkerLaunch(Operator op, int64_t n) {
  WorkerLaunchReport report;
  report.escaped = 0;
  // Sanitizer runtimes (TSan) start a helper thread at a process's first
  // thread creation: have it happen here, so the count below is the library's.
  std::thread([] {}).join();
  const int threads_before = ThreadsOfThisProcess();
  const size_t bytes = kSplitElements * sizeof(float);
  std::vector<float> grad(kSplitElements), self(kSplitElements), host(kSplitElements, -1.0f);
  for (int64_t i = 0; i < kSplitElements; ++i) {
    grad[i] = GradValue(i % kElements);
    self[i] = SelfValue(i % kElements);
  }
  void* device[3] = {};
  aclTensor* tensors[3] = {};
  const int64_t shape[1] = {kSplitElements};
  for (int i = 0; i < 3; ++i) {
    if (aclrtMalloc(&device[i], bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return report;
    tensors[i] = aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, shape, 1, device[i]);
  }
  aclrtMemcpy(device[0], bytes, grad.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemcpy(device[1], bytes, self.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  aclrtMemset(device[2], bytes, 0xFF, bytes);
  aclrtStream stream = nullptr;
  void* resolved = nullptr;
  const aclcpu::RuntimeServices& runtime = *aclcpuRuntimeServices(aclcpu::kRuntimeServicesAbi);
  if (aclrtCreateStream(&stream) != ACL_SUCCESS || runtime.resolve_stream(stream, &resolved) != ACL_SUCCESS) {
    return report;
  }
  aclcpu_test::Gate gate;
  aclcpu::Task* hold = new HoldTask(&gate);  // the test's own allocation, never failed
  g_until_failure.store(n);
  g_failed.store(false);
  // The stream's worker starts with the first task queued on the stream.
  report.hold = Counted([&] { return runtime.submit(resolved, hold); }, &report.escaped);
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  report.phase1 = Counted([&] {
    return CallPhase1(op, tensors[0], tensors[1], tensors[2], &workspace_size, &executor);
  }, &report.escaped);
  if (report.phase1 == 0) {
    report.phase2 = Counted([&] { return CallPhase2(op, nullptr, workspace_size, executor, stream); },
                            &report.escaped);
  }
  // Behind HoldTask the launch waits its turn on the worker: the stream is busy.
  report.queued = aclrtSynchronizeStreamWithTimeout(stream, 0) == ACL_ERROR_RT_STREAM_SYNC_TIMEOUT ? 1 : 0;
  aclGetRecentErrMsg();
  // The worker runs the launch (building the pool, the first time) while the
  // synchronisation is counted, so its allocations are counted too.
  report.sync = Counted([&] {
    gate.Open();
    return aclrtSynchronizeStream(stream);
  }, &report.escaped);
  report.fired = g_failed.load() ? 1 : 0;
  const int result = op == Operator::kInplaceHardsigmoid ? 1 : 2;
  aclrtMemcpy(host.data(), bytes, device[result], bytes, ACL_MEMCPY_DEVICE_TO_HOST);
  report.correct = 1;
  for (int64_t i = 0; i < kSplitElements; ++i) {
    if (host[i] != OperatorResult(op, grad[i], self[i])) report.correct = 0;
  }
  report.threads = ThreadsOfThisProcess() - threads_before;
  aclrtDestroyStream(stream);
  for (int i = 0; i < 3; ++i) {
    aclDestroyTensor(tensors[i]);
    aclrtFree(device[i]);
  }
  return report;
}

WorkerLaunchReport RunWorkerLaunchInChild(Operator op, int64_t n) {
  WorkerLaunchReport report;
  int fds[2];
  if (pipe(fds) != 0) return report;
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    const WorkerLaunchReport child = RunWorkerLaunch(op, n);
    if (write(fds[1], &child, sizeof child) != static_cast<ssize_t>(sizeof child)) _exit(2);
    _exit(0);  // without running the parent's gtest state at exit
  }
  close(fds[1]);
  if (pid > 0 && read(fds[0], &report, sizeof report) != static_cast<ssize_t>(sizeof report)) report = {};
  close(fds[0]);
  int status = 0;
  if (pid > 0) waitpid(pid, &status, 0);
  return report;
}

TEST_P(NewFailureWalk, EveryAllocationOfALaunchQueuedOnTheStreamWorkerAndSplitAcrossThePoolFailsInTurn) {
  const Operator op = GetParam();
  // Forked children inherit no library thread: this process starts none (SetUp's
  // aclrtSetDevice starts no worker, and no launch runs here before the children).
  int64_t n = 1;
  for (; n <= 200; ++n) {
    const WorkerLaunchReport report = RunWorkerLaunchInChild(op, n);
    const std::string where = std::string(OperatorName(op)) + ", allocation " + std::to_string(n);
    ASSERT_EQ(report.escaped, 0) << where << ": an exception escaped, or the child failed (" << report.escaped << ")";
    if (report.fired == 0) {
      // Un-faulted: queued behind HoldTask, split (the pool's worker was
      // started: the stream's worker + the pool's), right.
      EXPECT_EQ(report.hold, 0) << where;
      EXPECT_EQ(report.phase1, 0) << where;
      EXPECT_EQ(report.phase2, 0) << where;
      EXPECT_EQ(report.sync, 0) << where;
      EXPECT_EQ(report.queued, 1) << where << ": the launch did not wait on the stream's worker";
      EXPECT_EQ(report.correct, 1) << where;
      EXPECT_EQ(report.threads, 2) << where << ": no pool worker, so the launch was not split";
      break;
    }
    for (const int status : {report.hold, report.phase1, report.phase2, report.sync}) {
      EXPECT_TRUE(status == 0 || status == -1 || kOutOfMemoryStatuses.count(status) == 1)
          << where << ": status " << status;
    }
    const bool all_succeeded = report.phase1 == 0 && report.phase2 == 0 && report.sync == 0;
    EXPECT_TRUE(!all_succeeded || report.correct == 1) << where << ": every call succeeded with a wrong result";
  }
  EXPECT_GT(n, 3) << "the worker launch made implausibly few allocations";
  std::printf("allocations of a launch on the stream worker and the pool failed in turn: %lld\n",
              static_cast<long long>(n - 1));
}

// --- What the sequence walks leave out: a staged overlap (out overlapping an
// input other than in place: phase 1 asks for workspace, the launch copies the
// input there first), a repeatable executor launched twice, and address
// rebinding between its launches (aclSetInputTensorAddr/aclSetOutputTensorAddr).
// One call walked with each allocation failing in turn (WalkOneCall): it answers
// success only with every element right (checked inside the call), else a
// documented out-of-memory or task-failure status.
constexpr int kWrongResult = -3;

// `host` has kElements (allocated before the walk: the test's own
// allocations made while a call is counted could fail).
bool ResultIs(const void* device, size_t offset_elements, Operator op, const std::vector<float>& grad,
              const std::vector<float>& self, std::vector<float>& host) {
  std::fill(host.begin(), host.end(), -1.0f);
  const size_t bytes = kElements * sizeof(float);
  if (aclrtMemcpy(host.data(), bytes, static_cast<const float*>(device) + offset_elements, bytes,
                  ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
    return false;
  }
  for (int64_t i = 0; i < kElements; ++i) {
    if (host[i] != OperatorResult(op, grad[i], self[i])) return false;
  }
  return true;
}

TEST_P(NewFailureWalk, EveryAllocationOfAStagedOverlapARepeatedLaunchAndRebindingFailsInTurn) {
  const Operator op = GetParam();
  const bool strict = aclcpuRuntimeServices(aclcpu::kRuntimeServicesAbi)->is_strict() != 0;
  constexpr int64_t kShift = 8;  // out starts this many elements after self in one buffer
  const size_t bytes = (kElements + kShift) * sizeof(float);
  std::vector<float> grad(kElements), self(kElements), host(kElements);
  for (int64_t i = 0; i < kElements; ++i) {
    grad[i] = GradValue(i);
    self[i] = SelfValue(i);
  }
  void* buffers[4] = {};  // grad, self (and shifted out), out, rebound out (in place: rebound self)
  for (void*& buffer : buffers) ASSERT_EQ(aclrtMalloc(&buffer, bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const int64_t shape[1] = {kElements};
  const int64_t storage[1] = {kElements + kShift};
  auto tensor = [&](void* data, int64_t offset) {
    return aclCreateTensor(shape, 1, ACL_FLOAT, nullptr, offset, ACL_FORMAT_ND, storage, 1, data);
  };
  aclTensor* grad_tensor = tensor(buffers[0], 0);
  aclTensor* self_tensor = tensor(buffers[1], 0);
  aclTensor* shifted_out = tensor(buffers[1], kShift);  // overlaps self, not in place
  aclTensor* out_tensor = tensor(buffers[2], 0);
  // Passed to the rebinding calls, which also set the tensor's data address:
  // the tensors of phase 1 keep theirs for the next n.
  aclTensor* rebound = tensor(buffers[3], 0);
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  const size_t upload = kElements * sizeof(float);
  auto reset_inputs = [&] {
    aclrtMemcpy(buffers[0], upload, grad.data(), upload, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(buffers[1], upload, self.data(), upload, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(buffers[3], upload, self.data(), upload, ACL_MEMCPY_HOST_TO_DEVICE);
  };
  const bool in_place = op == Operator::kInplaceHardsigmoid;
  int64_t walked = 0;
  // The staged overlap (not for the in-place form, which has no second
  // operand to overlap; strict mode refuses the overlap instead of staging it).
  if (!in_place && !strict) {
    walked += WalkOneCall("a staged overlap", [&] {
      reset_inputs();
      uint64_t workspace_size = 0;
      aclOpExecutor* executor = nullptr;
      int status = CallPhase1(op, grad_tensor, self_tensor, shifted_out, &workspace_size, &executor);
      if (status != 0) return status;
      if (workspace_size == 0) return -4;  // the overlap was not staged
      void* workspace = nullptr;
      status = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
      if (status != 0) {
        aclDestroyAclOpExecutor(executor);
        return status;
      }
      status = CallPhase2(op, workspace, workspace_size, executor, stream);
      if (status == 0) status = aclrtSynchronizeStream(stream);
      aclrtFree(workspace);
      if (status != 0) return status;
      return ResultIs(buffers[1], kShift, op, grad, self, host) ? 0 : kWrongResult;
    }, 0);
  }
  // A repeatable executor: launched, rebound (out elsewhere; in place, self
  // and its result elsewhere), launched again.
  walked += WalkOneCall("a repeatable executor launched, rebound and launched again", [&] {
    reset_inputs();
    uint64_t workspace_size = 0;
    aclOpExecutor* executor = nullptr;
    int status = CallPhase1(op, grad_tensor, self_tensor, out_tensor, &workspace_size, &executor);
    if (status != 0) return status;
    status = aclSetAclOpExecutorRepeatable(executor);
    if (status == 0) status = CallPhase2(op, nullptr, workspace_size, executor, stream);
    if (status == 0) status = aclrtSynchronizeStream(stream);
    if (status == 0 && !ResultIs(buffers[in_place ? 1 : 2], 0, op, grad, self, host)) status = kWrongResult;
    if (status == 0) {
      if (in_place) {
        status = aclSetInputTensorAddr(executor, 0, rebound, buffers[3]);
        if (status == 0) status = aclSetOutputTensorAddr(executor, 0, rebound, buffers[3]);
      } else {
        status = aclSetOutputTensorAddr(executor, 0, rebound, buffers[3]);
      }
    }
    if (status == 0) status = CallPhase2(op, nullptr, workspace_size, executor, stream);
    if (status == 0) status = aclrtSynchronizeStream(stream);
    if (status == 0 && !ResultIs(buffers[3], 0, op, grad, self, host)) status = kWrongResult;
    aclDestroyAclOpExecutor(executor);
    return status;
  }, 0);
  EXPECT_GT(walked, 0);
  std::printf("allocations of a staged overlap, a repeated launch and rebinding failed in turn: %lld\n",
              static_cast<long long>(walked));
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  for (aclTensor* t : {grad_tensor, self_tensor, shifted_out, out_tensor, rebound}) aclDestroyTensor(t);
  for (void* buffer : buffers) aclrtFree(buffer);
}

INSTANTIATE_TEST_SUITE_P(EveryOperator, NewFailureWalk, ::testing::ValuesIn(kOperators),
                         [](const ::testing::TestParamInfo<Operator>& info) { return OperatorName(info.param); });

}  // namespace
}  // namespace aclcpu_fault_test
