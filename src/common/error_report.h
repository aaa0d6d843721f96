// aclcpu: reporting a failed call — the message every CANN status comes with.
#ifndef ACLCPU_COMMON_ERROR_REPORT_H_
#define ACLCPU_COMMON_ERROR_REPORT_H_

#include "runtime/services.h"

namespace aclcpu {

// Looks up the runtime's service table (see runtime/services.h). Aborts with a
// clear message if libascendcl.so comes from a different aclcpu build.
const RuntimeServices* LoadRuntimeServices();

// The runtime's service table, looked up once. Inline: a tiny call asks for it
// several times, and a guard check is cheaper than a call.
inline const RuntimeServices& Runtime() {
  static const RuntimeServices* const services = LoadRuntimeServices();
  return *services;
}

// Prints why one of our libraries cannot use another (they come from different
// aclcpu builds) and aborts: continuing would misread shared objects.
[[noreturn]] void AbortOnAbiMismatch(const char* library, unsigned abi_version);

// Formats a message, prefixes CANN's error-class tag for `code` (EZ1001 for
// aclnn parameter errors, EE1001 for runtime parameter errors, ...) and records it
// for aclGetRecentErrMsg on the calling thread. Returns `code`, so a check reads
// `return ReportError(ACLNN_ERR_PARAM_NULLPTR, "...")`.
int ReportError(int code, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace aclcpu

#endif  // ACLCPU_COMMON_ERROR_REPORT_H_
