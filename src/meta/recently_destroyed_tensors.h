// aclcpu: what default mode keeps of the tensors aclDestroyTensor destroyed.
//
// Destroying a tensor twice, or using it after aclDestroyTensor, is a caller's
// bug that freed memory would turn into heap corruption or garbage. Each thread
// keeps the last kRecentlyDestroyedTensors tensors it destroyed, marked dead
// (aclTensor::kDeadMagic), before freeing them, so the common form of the bug
// (the same tensor destroyed again, or passed again, soon after) is reported by
// CheckTensorAlive instead. A per-thread ring costs a few stores per destroy and
// no lock; strict mode keeps a far longer, process-wide quarantine instead.
#ifndef ACLCPU_META_RECENTLY_DESTROYED_TENSORS_H_
#define ACLCPU_META_RECENTLY_DESTROYED_TENSORS_H_

#include "meta/tensor.h"

namespace aclcpu {

constexpr int kRecentlyDestroyedTensors = 16;

// Takes `tensor`, already marked dead, into the calling thread's ring and frees
// the tensor it pushes out (or `tensor` itself once the thread is exiting).
void KeepRecentlyDestroyed(aclTensor* tensor);

}  // namespace aclcpu

#endif  // ACLCPU_META_RECENTLY_DESTROYED_TENSORS_H_
