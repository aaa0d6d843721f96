// aclcpu runtime: the one place that decides which flag bits and enumeration
// values of runtime calls are accepted.
//
// A program built against newer CANN headers passes values our headers may not
// have had. Each value CANN defines is listed here once, with what aclcpu does
// with it: accepted (honoured, or meaningless on a CPU and ignored), or refused
// with a message naming it and saying why a CPU cannot give its effect. A
// value CANN does not define is refused too.
//
// Arguments arrive as the integers the caller passed: a C caller may pass any
// value, and an out-of-range value held in a C++ enum is undefined behaviour.
// This header therefore does not include acl_rt.h, so that the entry points
// taking an enumeration can be defined with its integer type (mem_info.cc).
#ifndef ACLCPU_RUNTIME_FLAG_CHECK_H_
#define ACLCPU_RUNTIME_FLAG_CHECK_H_

#include <cstddef>
#include <cstdint>

#include "acl/acl_base.h"

namespace aclcpu {

// One flag bit CANN defines for an argument.
struct NamedFlag {
  uint32_t bit;
  const char* name;     // CANN's macro
  const char* refusal;  // nullptr: accepted; otherwise what a CPU cannot do
};

// The flags of one argument of one or more calls.
struct FlagSet {
  const NamedFlag* flags;
  size_t count;
};

// aclrtCreateStreamWithConfig's flag.
extern const FlagSet kStreamConfigFlags;
// aclrtCreateEventWithFlag's and aclrtCreateEventExWithFlag's flag.
extern const FlagSet kEventFlags;

// ACL_SUCCESS if every bit set in `value` is a flag of `set` that aclcpu
// accepts. Otherwise records a message for aclGetRecentErrMsg naming the
// first bit that is not (its macro when CANN defines it) and returns
// ACL_ERROR_INVALID_PARAM. `argument` is the parameter's name in `call`.
aclError CheckFlags(const char* call, const char* argument, uint32_t value, const FlagSet& set);

// aclrtGetMemInfo's attr (an aclrtMemAttr, as the caller's integer): every
// value CANN defines is accepted (host memory has one kind; each reports it).
aclError CheckMemAttr(const char* call, int32_t attr);

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_FLAG_CHECK_H_
