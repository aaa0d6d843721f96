// aclcpu runtime tests: helpers to queue controllable work on streams and to
// read the recorded error messages.
#ifndef ACLCPU_TESTS_RUNTIME_RUNTIME_TEST_SUPPORT_H_
#define ACLCPU_TESTS_RUNTIME_RUNTIME_TEST_SUPPORT_H_

#include <gtest/gtest.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>

#include "acl/acl.h"
#include "gate.h"
#include "runtime/services.h"

namespace aclcpu_test {

// A stream task that runs a function; counts its destructions so tests can see
// that the stream deleted it.
class FunctionTask final : public aclcpu::Task {
 public:
  explicit FunctionTask(std::function<void()> body, int* destroyed = nullptr)
      : body_(std::move(body)), destroyed_(destroyed) {}
  ~FunctionTask() override {
    if (destroyed_ != nullptr) ++*destroyed_;
  }
  bool Run() override {
    body_();
    return true;
  }
  const char* Name() const override { return "FunctionTask"; }

 private:
  std::function<void()> body_;
  int* destroyed_;
};

// A FunctionTask that asks to run on the submitting thread when its stream is
// idle (as an operator launch does), optionally also as a tiny task.
class SubmitterThreadTask final : public aclcpu::Task {
 public:
  SubmitterThreadTask(std::function<void()> body, bool tiny) : body_(std::move(body)), tiny_(tiny) {}
  bool Run() override {
    body_();
    return true;
  }
  const char* Name() const override { return "SubmitterThreadTask"; }
  bool RunsWhereSubmitted() const override { return true; }
  bool IsTiny() const override { return tiny_; }

 private:
  std::function<void()> body_;
  bool tiny_;
};

inline const aclcpu::RuntimeServices& Services() { return *aclcpuRuntimeServices(aclcpu::kRuntimeServicesAbi); }

// True when the runtime runs in strict mode (ACLCPU_STRICT=1; the suite runs
// once that way, scripts/ci/05-strict.sh). Tests of default-mode behaviour
// that strict mode deliberately changes skip themselves then; tests/strict
// covers strict mode's side.
inline bool StrictMode() { return Services().is_strict() != 0; }

// Queues `body` on `stream` (nullptr: the current default stream) through the
// runtime's service table, as libnnopbase does for an operator launch.
inline aclError Launch(aclrtStream stream, std::function<void()> body) {
  void* resolved = nullptr;
  const aclError status = Services().resolve_stream(stream, &resolved);
  if (status != ACL_SUCCESS) return status;
  return Services().submit(resolved, new FunctionTask(std::move(body)));
}

// Everything aclGetRecentErrMsg returns now ("" if nothing), clearing it.
inline std::string TakeMessages() {
  const char* text = aclGetRecentErrMsg();
  return text == nullptr ? std::string() : std::string(text);
}

// Sets device 0 for the test and resets it afterwards; starts and ends with no
// pending messages.
class DeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    TakeMessages();
  }
  void TearDown() override {
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    TakeMessages();
  }
};

}  // namespace aclcpu_test

#endif  // ACLCPU_TESTS_RUNTIME_RUNTIME_TEST_SUPPORT_H_
