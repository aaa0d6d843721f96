// aclcpu: reading the enum arguments C callers pass.
//
// Where CANN's API takes an enum (aclDataType, aclFormat, aclrtMemcpyKind,
// aclrtMemMallocPolicy, ...), a C caller may pass any int: in C an enum is an
// int like any other. In C++ a value outside the enum's range (aclDataType's is
// -64..63) is undefined behaviour as soon as it is loaded as the enum type, and
// UBSan's -fsanitize=enum reports it. So every exported function reads such an
// argument's bytes as an int32_t before anything else (RawEnum) and works on the
// integer; a value is turned back into the enum type only once it is known to
// be one of the enum's values, and written to a caller's enum variable byte-wise
// (StoreRawEnum).
#ifndef ACLCPU_COMMON_RAW_ENUM_H_
#define ACLCPU_COMMON_RAW_ENUM_H_

#include <cstdint>
#include <cstring>

namespace aclcpu {

template <typename Enum>
inline int32_t RawEnum(const Enum& argument) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "CANN's enums are int-sized");
  int32_t raw;
  std::memcpy(&raw, &argument, sizeof raw);
  return raw;
}

template <typename Enum>
inline void StoreRawEnum(int32_t raw, Enum* destination) {
  static_assert(sizeof(Enum) == sizeof(int32_t), "CANN's enums are int-sized");
  std::memcpy(destination, &raw, sizeof raw);
}

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_RAW_ENUM_H_
