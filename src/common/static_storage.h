// aclcpu: process-wide objects built on first use without allocating.
//
// `static T* const p = new T;` is the usual never-destroyed singleton, but the
// first call then allocates, and that first call may be any C entry point (a
// registry first used by aclrtMemcpy, say) or a launch on a stream's worker:
// std::bad_alloc would cross the C ABI or drop the work. Built in static
// storage instead, such an object cannot fail to be made (T's default
// constructor must not allocate: std::map, std::unordered_map and std::mutex
// do not; std::deque does). Never destroyed, as before: stream workers and
// other libraries may still use it while the process exits.
#ifndef ACLCPU_COMMON_STATIC_STORAGE_H_
#define ACLCPU_COMMON_STATIC_STORAGE_H_

#include <new>

namespace aclcpu {

// The one T of this library, default-constructed on the first call.
template <class T>
T& ProcessObject() {
  alignas(T) static unsigned char storage[sizeof(T)];
  static T* const object = ::new (static_cast<void*>(storage)) T();
  return *object;
}

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_STATIC_STORAGE_H_
