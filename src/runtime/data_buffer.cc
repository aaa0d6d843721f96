// aclcpu runtime: aclDataBuffer, an address and a size in bytes that the
// caller owns (acl/acl_base.h).
//
// Live buffers are kept in a registry, so that a null, destroyed or foreign
// pointer is refused (ACL_ERROR_INVALID_PARAM, nullptr or 0, with a message)
// rather than read, written or freed. The pointer users get is the object's
// address, as in CANN.
#include <mutex>
#include <new>
#include <unordered_set>

#include "acl/acl_base.h"
#include "common/fault_injection.h"
#include "common/static_storage.h"
#include "runtime/error_store.h"
#include "runtime/live_objects.h"

struct aclDataBuffer {
  void* data;
  size_t size;
};

namespace aclcpu {
namespace {

struct DataBufferRegistry {
  std::mutex mutex;
  std::unordered_set<const aclDataBuffer*> live;
};

DataBufferRegistry& Registry() {
  return ProcessObject<DataBufferRegistry>();  // never destroyed: buffers may outlive statics
}

// CANN's rule: a buffer without memory has no bytes.
aclError CheckDataAndSize(const char* call, const void* data, size_t size) {
  if (data == nullptr && size != 0) {
    return FailWith(ACL_ERROR_INVALID_PARAM,
                    "%s: data is null but size is %zu; a buffer without memory must have size 0", call, size);
  }
  return ACL_SUCCESS;
}

// Why `buffer` was refused: null, or not (or no longer) a live buffer.
aclError RefuseBuffer(const char* call, const aclDataBuffer* buffer) {
  if (buffer == nullptr) return FailWith(ACL_ERROR_INVALID_PARAM, "%s: dataBuffer is null", call);
  return FailWith(ACL_ERROR_INVALID_PARAM,
                  "%s: dataBuffer %p is not a live data buffer (destroyed, or not made by aclCreateDataBuffer)", call,
                  static_cast<const void*>(buffer));
}

// Calls use(*buffer) under the registry's lock if `buffer` is live; otherwise
// refuses it.
template <typename Use>
aclError WithLiveBuffer(const char* call, const aclDataBuffer* buffer, const Use& use) {
  if (buffer != nullptr) {
    DataBufferRegistry& registry = Registry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (registry.live.count(buffer) != 0) {
      use(*const_cast<aclDataBuffer*>(buffer));  // created non-const by aclCreateDataBuffer
      return ACL_SUCCESS;
    }
  }
  return RefuseBuffer(call, buffer);
}

}  // namespace

size_t LiveDataBufferCount() {
  DataBufferRegistry& registry = Registry();
  std::lock_guard<std::mutex> lock(registry.mutex);
  return registry.live.size();
}

}  // namespace aclcpu

extern "C" {

aclDataBuffer* aclCreateDataBuffer(void* data, size_t size) {
  if (aclcpu::CheckDataAndSize("aclCreateDataBuffer", data, size) != ACL_SUCCESS) return nullptr;
  aclDataBuffer* buffer = aclcpu::InjectFault(aclcpu::FaultSite::kDataBufferCreate)
                              ? nullptr
                              : new (std::nothrow) aclDataBuffer{data, size};
  if (buffer == nullptr) {
    aclcpu::FailWith(ACL_ERROR_BAD_ALLOC, "aclCreateDataBuffer: out of memory creating the data buffer");
    return nullptr;
  }
  try {  // the registry entry (a hash node)
    aclcpu::DataBufferRegistry& registry = aclcpu::Registry();
    std::lock_guard<std::mutex> lock(registry.mutex);
    if (aclcpu::InjectFault(aclcpu::FaultSite::kDataBufferCreate)) throw std::bad_alloc();
    registry.live.insert(buffer);
  } catch (const std::bad_alloc&) {
    delete buffer;
    aclcpu::FailWith(ACL_ERROR_BAD_ALLOC,
                     "aclCreateDataBuffer: out of memory registering the data buffer (nothing was created)");
    return nullptr;
  }
  return buffer;
}

// The memory the buffer describes stays the caller's to free.
aclError aclDestroyDataBuffer(const aclDataBuffer* dataBuffer) {
  if (dataBuffer != nullptr) {
    aclcpu::DataBufferRegistry& registry = aclcpu::Registry();
    std::unique_lock<std::mutex> lock(registry.mutex);
    if (registry.live.erase(dataBuffer) != 0) {
      lock.unlock();
      delete dataBuffer;
      return ACL_SUCCESS;
    }
  }
  return aclcpu::RefuseBuffer("aclDestroyDataBuffer", dataBuffer);
}

aclError aclUpdateDataBuffer(aclDataBuffer* dataBuffer, void* data, size_t size) {
  const aclError checked = aclcpu::CheckDataAndSize("aclUpdateDataBuffer", data, size);
  if (checked != ACL_SUCCESS) return checked;
  return aclcpu::WithLiveBuffer("aclUpdateDataBuffer", dataBuffer, [&](aclDataBuffer& buffer) {
    buffer.data = data;
    buffer.size = size;
  });
}

void* aclGetDataBufferAddr(const aclDataBuffer* dataBuffer) {
  void* data = nullptr;
  aclcpu::WithLiveBuffer("aclGetDataBufferAddr", dataBuffer, [&](aclDataBuffer& buffer) { data = buffer.data; });
  return data;
}

size_t aclGetDataBufferSizeV2(const aclDataBuffer* dataBuffer) {
  size_t size = 0;
  aclcpu::WithLiveBuffer("aclGetDataBufferSizeV2", dataBuffer, [&](aclDataBuffer& buffer) { size = buffer.size; });
  return size;
}

}  // extern "C"
