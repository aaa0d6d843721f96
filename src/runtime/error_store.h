// aclcpu runtime: the per-thread error state behind aclGetRecentErrMsg and
// aclrtPeekAtLastError / aclrtGetLastError.
#ifndef ACLCPU_RUNTIME_ERROR_STORE_H_
#define ACLCPU_RUNTIME_ERROR_STORE_H_

#include "acl/acl_base.h"

namespace aclcpu {

// Appends a message to the calling thread's recent messages (and prints it on
// stderr with ACLCPU_VERBOSE). This is RuntimeServices::record_error.
void StoreErrorMessage(const char* message);

// The calling thread's messages, newest first, joined by '\n', and clears them;
// nullptr if there are none. The text lives until the thread's next call.
const char* TakeRecentErrorMessages();

// The calling thread's last non-zero runtime status.
void SetLastRuntimeError(aclError code);
aclError PeekLastRuntimeError();
aclError TakeLastRuntimeError();

// How every failing runtime entry point ends: records the formatted message
// (through aclcpu::ReportError, so it carries CANN's error-class tag), remembers
// `code` as the thread's last runtime error, and returns `code`.
aclError FailWith(aclError code, const char* format, ...) __attribute__((format(printf, 2, 3)));

}  // namespace aclcpu

#endif  // ACLCPU_RUNTIME_ERROR_STORE_H_
