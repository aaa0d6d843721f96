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

#include <atomic>
#include <cstdlib>
#include <functional>
#include <new>
#include <set>
#include <string>

#include "aclnn/opdev/op_errno.h"
#include "fault_sequence.h"

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
const std::set<int> kOutOfMemoryStatuses = {ACL_ERROR_RT_MEMORY_ALLOCATION, ACL_ERROR_RT_RESOURCE_ALLOC_FAIL,
                                            ACLNN_ERR_INNER, ACLNN_ERR_INNER_CREATE_EXECUTOR,
                                            ACLNN_ERR_RUNTIME_ERROR, kNullHandle};

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

INSTANTIATE_TEST_SUITE_P(EveryOperator, NewFailureWalk, ::testing::ValuesIn(kOperators),
                         [](const ::testing::TestParamInfo<Operator>& info) { return OperatorName(info.param); });

}  // namespace
}  // namespace aclcpu_fault_test
