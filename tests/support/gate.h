// aclcpu tests: a one-shot gate. Wait() blocks until Open(). Tasks wait on a
// gate to keep a stream busy for exactly as long as a test needs.
#ifndef ACLCPU_TESTS_SUPPORT_GATE_H_
#define ACLCPU_TESTS_SUPPORT_GATE_H_

#include <condition_variable>
#include <mutex>

namespace aclcpu_test {

class Gate {
 public:
  void Open() {
    std::lock_guard<std::mutex> lock(mutex_);
    open_ = true;
    changed_.notify_all();
  }
  void Wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [&] { return open_; });
  }
  bool IsOpen() {
    std::lock_guard<std::mutex> lock(mutex_);
    return open_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool open_ = false;
};

}  // namespace aclcpu_test

#endif  // ACLCPU_TESTS_SUPPORT_GATE_H_
