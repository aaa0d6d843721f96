// aclcpu: waiting by spinning for a short while before blocking.
//
// Waking a thread blocked in the kernel costs tens of microseconds in a virtual
// machine — more than a whole launch of tens of thousands of elements — while
// the work being waited for (a stream task, a pool job) usually finishes within
// microseconds. So waiters poll first and block only if the wait drags on.
#ifndef ACLCPU_COMMON_SPIN_WAIT_H_
#define ACLCPU_COMMON_SPIN_WAIT_H_

#include <chrono>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace aclcpu {

// Tells the core this is a spin loop (saves power, yields to the sibling
// hyper-thread).
inline void CpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

// How long waiters poll before blocking.
constexpr std::chrono::microseconds kSpinBeforeBlocking{50};

// Polls `done` until it returns true (then returns true) or `limit` has passed
// (then returns false). After a few microseconds of tight polling it yields the
// core between polls: on a machine with as many busy threads as cores, the
// thread being waited for may need this one's core to finish.
template <typename Done>
bool SpinUntil(Done&& done, std::chrono::microseconds limit = kSpinBeforeBlocking) {
  const auto start = std::chrono::steady_clock::now();
  const auto tight_until = start + std::chrono::microseconds(2);
  const auto deadline = start + limit;
  for (;;) {
    for (int i = 0; i < 16; ++i) {
      if (done()) return true;
      CpuRelax();
    }
    const auto now = std::chrono::steady_clock::now();
    if (now > deadline) return done();
    if (now > tight_until) std::this_thread::yield();
  }
}

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_SPIN_WAIT_H_
