// aclcpu strict-mode tests: helpers shared by the suites in tests/strict.
//
// The suites run with ACLCPU_STRICT=1 (set by CTest for every test; each test is
// its own process, so the flag read once per process is always the one set).
// They use the public API, plus runtime/services.h to hold a stream busy with a
// task that waits on a gate, so that a launch stays pending for exactly as long
// as a test needs.
#ifndef ACLCPU_TESTS_STRICT_STRICT_TEST_UTIL_H_
#define ACLCPU_TESTS_STRICT_STRICT_TEST_UTIL_H_

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "gate.h"
#include "aclnn/acl_meta.h"
#include "aclnn/opdev/op_errno.h"
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "device_tensor.h"
#include "runtime/services.h"

namespace aclcpu_strict_test {

using aclcpu_test::DeviceTensor;
using ::testing::AllOf;
using ::testing::HasSubstr;

// Everything aclGetRecentErrMsg returns now ("" if nothing), clearing it.
inline std::string TakeMessages() {
  const char* text = aclGetRecentErrMsg();
  return text == nullptr ? std::string() : std::string(text);
}

inline std::string Hex(const void* address) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", address);
  return text;
}

using aclcpu_test::Gate;

class GateTask final : public aclcpu::Task {
 public:
  explicit GateTask(Gate* gate) : gate_(gate) {}
  bool Run() override {
    gate_->Wait();
    return true;
  }
  const char* Name() const override { return "GateTask"; }

 private:
  Gate* gate_;
};

// Queues a task on `stream` that waits for `gate`: everything queued after it
// stays pending until the gate opens.
inline void BlockStream(aclrtStream stream, Gate* gate) {
  const aclcpu::RuntimeServices* services = aclcpuRuntimeServices(aclcpu::kRuntimeServicesAbi);
  ASSERT_NE(services, nullptr);
  ASSERT_EQ(services->submit(stream, new GateTask(gate)), ACL_SUCCESS);
}

// The suites' base: strict mode on, device 0, a stream, no pending message.
class StrictTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_NE(aclcpuRuntimeServices(aclcpu::kRuntimeServicesAbi)->is_strict(), 0)
        << "tests/strict must run with ACLCPU_STRICT=1";
    stream_ = aclcpu_test::RuntimeFixture::Stream();
    TakeMessages();
  }

  // Phase 1 on three tensors; the message is taken on failure.
  aclnnStatus Phase1(const aclTensor* grad, const aclTensor* self, aclTensor* out, aclOpExecutor** executor) {
    uint64_t workspace_size = 0;
    *executor = nullptr;
    const aclnnStatus status = aclnnHardsigmoidBackwardGetWorkspaceSize(grad, self, out, &workspace_size, executor);
    if (status != ACLNN_SUCCESS) message_ = TakeMessages();
    return status;
  }

  aclrtStream stream_ = nullptr;
  std::string message_;
};

// gradOutput, self and out as contiguous float tensors of `count` elements in
// device memory; inputs hold values inside and outside the (-3, 3) window.
struct FloatOperands {
  explicit FloatOperands(int64_t count = 64)
      : grad(ACL_FLOAT, {count}), self(ACL_FLOAT, {count}), out(ACL_FLOAT, {count}) {
    std::vector<float> grad_values(count), self_values(count);
    for (int64_t i = 0; i < count; ++i) {
      grad_values[i] = 6.0f;
      self_values[i] = (i % 2 == 0) ? 1.0f : 5.0f;  // inside: 6/6 = 1; outside: 0
    }
    grad.UploadElements(grad_values);
    self.UploadElements(self_values);
  }
  // What out must hold after a launch.
  static std::vector<float> Expected(int64_t count) {
    std::vector<float> values(count);
    for (int64_t i = 0; i < count; ++i) values[i] = (i % 2 == 0) ? 1.0f : 0.0f;
    return values;
  }

  DeviceTensor grad;
  DeviceTensor self;
  DeviceTensor out;
};

}  // namespace aclcpu_strict_test

#endif  // ACLCPU_TESTS_STRICT_STRICT_TEST_UTIL_H_
