#include "common/worker_thread.h"

#include <new>

namespace aclcpu {
namespace {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

void* RunBody(void* argument) {
  std::function<void()>* body = static_cast<std::function<void()>*>(argument);
  (*body)();
  delete body;
  return nullptr;
}

}  // namespace

WorkerThread& WorkerThread::operator=(WorkerThread&& other) noexcept {
  if (this != &other) {
    if (started_) join();
    thread_ = other.thread_;
    started_ = other.started_;
    other.started_ = false;
  }
  return *this;
}

WorkerThread::~WorkerThread() {
  if (started_) join();
}

bool WorkerThread::Start(std::function<void()> body) noexcept {
  if (started_) return false;
  std::function<void()>* owned = new (std::nothrow) std::function<void()>();
  if (owned == nullptr) return false;
  owned->swap(body);
  pthread_attr_t attributes;
  if (pthread_attr_init(&attributes) != 0) {
    delete owned;
    return false;
  }
  if (!kSanitized) pthread_attr_setstacksize(&attributes, kWorkerStackBytes);
  const int error = pthread_create(&thread_, &attributes, &RunBody, owned);
  pthread_attr_destroy(&attributes);
  if (error != 0) {
    delete owned;
    return false;
  }
  started_ = true;
  return true;
}

void WorkerThread::join() {
  if (!started_) return;
  pthread_join(thread_, nullptr);
  started_ = false;
}

}  // namespace aclcpu
