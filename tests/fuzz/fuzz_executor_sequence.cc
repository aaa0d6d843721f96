// Fuzz harness: arbitrary sequences of executor calls — phase 1, repeatable or
// not, launches on several streams (the default one included), rebinding input
// and output addresses (valid and out-of-range indices), destroying, launching
// or rebinding a spent or destroyed executor, null arguments, null workspaces,
// and synchronisation — against a model of what each call must return
// (README "Phase 2", cann-api.md §5.7).
//
// Every operand lives between PROT_NONE guard pages. Launches that write the same
// out buffer from different streams are ordered with events (as a correct caller
// must), so after each synchronisation every out buffer must hold the result of
// the last launch that wrote it (bit-exact, NaN as a class), and no byte of out's
// storage outside its view may change.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fuzz_support.h"

namespace aclcpu_fuzz {
namespace {

constexpr int kSlots = 3;
constexpr int kStreams = 3;  // index 0 is the default (null) stream
constexpr uint8_t kSentinel = 0x5A;

// Storage for one operand: a view inside a guarded buffer.
struct Storage {
  int dtype = ACL_FLOAT;
  View view;
  int64_t storage_elements = 0;
  GuardedBuffer buffer;
};

// Two grads, two selfs, two outs per slot, so rebinding changes what is computed.
struct SlotBuffers {
  Storage grad[2], self[2], out[2];
};

struct Pending {  // a launch since the last check: which inputs went into which out
  const Storage* grad;
  const Storage* self;
};

struct ExecutorState {
  bool repeatable = false;
  const Storage* grad;
  const Storage* self;
  Storage* out;
};

class Session {
 public:
  explicit Session(ByteReader& in) : in_(in) {
    streams_[0] = nullptr;
    for (int s = 1; s < kStreams; ++s) {
      FUZZ_CHECK(aclrtCreateStream(&streams_[s]) == ACL_SUCCESS, "aclrtCreateStream failed");
    }
    // One shape per slot, shared by its operands (views differ per operand).
    for (int slot = 0; slot < kSlots; ++slot) {
      const size_t rank = in_.Below(4);
      std::vector<int64_t> dims(rank);
      for (auto& dim : dims) dim = 1 + in_.Below(6);
      const int grad_dtype = kInputs[in_.Below(3)], self_dtype = kInputs[in_.Below(3)];
      const int out_dtype = kOuts[in_.Below(4)];
      for (int k = 0; k < 2; ++k) {
        MakeStorage(&slots_[slot].grad[k], grad_dtype, dims, false);
        MakeStorage(&slots_[slot].self[k], self_dtype, dims, false);
        MakeStorage(&slots_[slot].out[k], out_dtype, dims, true);
      }
    }
  }

  ~Session() {
    for (int s = 0; s < kStreams; ++s) aclrtSynchronizeStream(streams_[s]);
    for (auto& entry : live_) aclDestroyAclOpExecutor(entry.first);
    for (int s = 1; s < kStreams; ++s) aclrtDestroyStream(streams_[s]);
  }

  void Run() {
    int steps = 0;
    while (!in_.empty() && steps++ < 64) Step();
    SyncAndCheck();
    ClearMessages();
  }

 private:
  static constexpr int kInputs[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  static constexpr int kOuts[4] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

  void MakeStorage(Storage* storage, int dtype, const std::vector<int64_t>& dims, bool is_out) {
    storage->dtype = dtype;
    storage->view.dims = dims;
    storage->view.strides = RowMajor(dims);
    const uint8_t layout = in_.Below(4);
    if (layout == 1 && dims.size() >= 2) {  // the last two dims transposed in storage
      const size_t r = dims.size();
      std::vector<int64_t> storage_dims = dims;
      std::swap(storage_dims[r - 1], storage_dims[r - 2]);
      storage->view.strides = RowMajor(storage_dims);
      std::swap(storage->view.strides[r - 1], storage->view.strides[r - 2]);
    } else if (layout == 2) {  // every other element
      for (auto& stride : storage->view.strides) stride *= 2;
    } else if (layout == 3 && !is_out && !dims.empty()) {  // broadcast along dim 0 (inputs only)
      storage->view.strides[0] = 0;
    }
    storage->view.offset = in_.Below(3);
    int64_t extent = 0;
    FUZZ_CHECK(ViewExtent(storage->view, ItemSize(dtype), &extent), "small views are measurable");
    storage->storage_elements = extent + in_.Below(2);
    storage->buffer.Allocate(static_cast<size_t>(storage->storage_elements) * ItemSize(dtype), in_.Bool());
    uint8_t* bytes = storage->buffer.data();
    for (size_t b = 0; b < storage->buffer.bytes(); ++b) {
      bytes[b] = is_out ? kSentinel : static_cast<uint8_t>(in_.Byte() + b * 0x3b);
    }
  }

  aclTensor* MakeTensor(const Storage& storage) {
    const int64_t storage_dims[1] = {storage.storage_elements};
    aclTensor* tensor = aclCreateTensor(storage.view.dims.data(), storage.view.dims.size(),
                                        static_cast<aclDataType>(storage.dtype), storage.view.strides.data(),
                                        storage.view.offset, ACL_FORMAT_ND, storage_dims, 1, storage.buffer.data());
    FUZZ_CHECK(tensor != nullptr, "aclCreateTensor failed");
    return tensor;
  }

  bool IsLive(aclOpExecutor* executor) const { return live_.count(executor) != 0; }

  void Step() {
    const uint8_t op = in_.Below(11);
    const int slot = static_cast<int>(in_.Below(kSlots));
    const int stream = static_cast<int>(in_.Below(kStreams));
    aclOpExecutor* handle = handles_[slot];
    switch (op) {
      case 0:
      case 1: {  // phase 1 (repeatable on op 1), tensors destroyed at once as frameworks do
        SlotBuffers& b = slots_[slot];
        const int pick = in_.Below(2);
        aclTensor* grad = MakeTensor(b.grad[pick]);
        aclTensor* self = MakeTensor(b.self[pick]);
        aclTensor* out = MakeTensor(b.out[pick]);
        uint64_t workspace_size = 1;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus status = aclnnHardsigmoidBackwardGetWorkspaceSize(grad, self, out, &workspace_size, &executor);
        FUZZ_CHECK(status == ACLNN_SUCCESS && executor != nullptr, "phase 1 returned %d", status);
        if (op == 1) FUZZ_CHECK(aclSetAclOpExecutorRepeatable(executor) == ACLNN_SUCCESS, "set repeatable");
        aclDestroyTensor(grad);
        aclDestroyTensor(self);
        aclDestroyTensor(out);
        live_[executor] = ExecutorState{op == 1, &b.grad[pick], &b.self[pick], &b.out[pick]};
        handles_[slot] = executor;
        break;
      }
      case 2:
      case 3:
      case 4: {  // launch
        // Two streams writing one out buffer would race (on an NPU too): order the
        // launch after the last one that wrote this out, with an event.
        if (IsLive(handle)) {
          Storage* out = live_[handle].out;
          auto last = last_stream_.find(out);
          if (last != last_stream_.end() && pending_.count(out) != 0 && last->second != stream) {
            aclrtEvent event = nullptr;
            FUZZ_CHECK(aclrtCreateEvent(&event) == ACL_SUCCESS, "aclrtCreateEvent");
            FUZZ_CHECK(aclrtRecordEvent(event, streams_[last->second]) == ACL_SUCCESS, "aclrtRecordEvent");
            FUZZ_CHECK(aclrtStreamWaitEvent(streams_[stream], event) == ACL_SUCCESS, "aclrtStreamWaitEvent");
            FUZZ_CHECK(aclrtDestroyEvent(event) == ACL_SUCCESS, "aclrtDestroyEvent");
          }
        }
        const aclnnStatus status = aclnnHardsigmoidBackward(nullptr, 0, handle, streams_[stream]);
        if (handle == nullptr) {
          FUZZ_CHECK(status == ACLNN_ERR_PARAM_NULLPTR, "phase 2 on a null executor returned %d", status);
        } else if (!IsLive(handle)) {
          FUZZ_CHECK(status == ACLNN_ERR_PARAM_INVALID, "phase 2 on a spent/destroyed executor returned %d", status);
          FUZZ_CHECK(aclGetRecentErrMsg() != nullptr, "refused launch without a message");
        } else {
          FUZZ_CHECK(status == ACLNN_SUCCESS, "phase 2 returned %d", status);
          ExecutorState& state = live_[handle];
          pending_[state.out].push_back(Pending{state.grad, state.self});
          last_stream_[state.out] = stream;
          if (!state.repeatable) live_.erase(handle);
        }
        break;
      }
      case 5: {  // launch with a null workspace but a non-zero size
        if (handle == nullptr) break;
        const aclnnStatus status = aclnnHardsigmoidBackward(nullptr, 32, handle, streams_[stream]);
        if (!IsLive(handle)) {
          FUZZ_CHECK(status == ACLNN_ERR_PARAM_INVALID, "null-workspace launch of a dead executor returned %d", status);
        } else {
          FUZZ_CHECK(status == ACLNN_ERR_PARAM_NULLPTR, "null-workspace launch returned %d", status);
          if (!live_[handle].repeatable) live_.erase(handle);  // CANN destroys the executor
        }
        break;
      }
      case 6: {  // rebind an input or output (index possibly out of range), through each API
        if (handle == nullptr) break;
        const int api = in_.Below(3);
        const size_t index = in_.Below(4);
        const int pick = in_.Below(2);
        SlotBuffers& b = slots_[slot];
        aclTensor* scratch = MakeTensor(b.out[0]);
        bool output = api == 1;
        size_t local = index;
        if (api == 2) {  // aclSetTensorAddr: inputs first, then outputs
          output = index >= 2;
          local = output ? index - 2 : index;
        }
        const bool valid = output ? local < 1 : local < 2;
        Storage* target = output ? &b.out[pick] : (local == 0 ? &b.grad[pick] : &b.self[pick]);
        const bool live = IsLive(handle);
        // The new storage must match the view the executor was planned with.
        if (live && valid) {
          const ExecutorState& state = live_[handle];
          const Storage* current = output ? state.out : (local == 0 ? state.grad : state.self);
          if (current->dtype != target->dtype || current->view.dims != target->view.dims ||
              current->view.strides != target->view.strides || current->view.offset != target->view.offset) {
            aclDestroyTensor(scratch);
            break;
          }
        }
        void* address = target->buffer.data();
        aclnnStatus status;
        if (api == 0) status = aclSetInputTensorAddr(handle, index, scratch, address);
        else if (api == 1) status = aclSetOutputTensorAddr(handle, index, scratch, address);
        else status = aclSetTensorAddr(handle, index, scratch, address);
        aclDestroyTensor(scratch);
        if (!live) {
          FUZZ_CHECK(status == ACLNN_ERR_PARAM_INVALID, "rebinding a dead executor returned %d", status);
        } else if (!valid) {
          FUZZ_CHECK(status == ACLNN_ERR_PARAM_INVALID, "rebinding index %zu (api %d) returned %d", index, api,
                     status);
        } else {
          FUZZ_CHECK(status == ACLNN_SUCCESS, "rebinding returned %d", status);
          ExecutorState& state = live_[handle];
          if (output) state.out = target;
          else if (local == 0) state.grad = target;
          else state.self = target;
        }
        break;
      }
      case 7: {  // destroy
        if (handle == nullptr) {
          FUZZ_CHECK(aclDestroyAclOpExecutor(nullptr) == ACLNN_ERR_INNER_NULLPTR, "destroy(nullptr)");
          break;
        }
        const aclnnStatus status = aclDestroyAclOpExecutor(handle);
        FUZZ_CHECK(status == (IsLive(handle) ? ACLNN_SUCCESS : ACLNN_ERR_PARAM_INVALID), "destroy returned %d",
                   status);
        live_.erase(handle);
        break;
      }
      case 8: {  // make repeatable late (after launches), or a dead / null one
        const aclnnStatus status = aclSetAclOpExecutorRepeatable(handle);
        if (handle == nullptr) FUZZ_CHECK(status == ACLNN_ERR_INNER_NULLPTR, "repeatable(nullptr) returned %d", status);
        else if (!IsLive(handle)) FUZZ_CHECK(status == ACLNN_ERR_PARAM_INVALID, "repeatable(dead) returned %d", status);
        else {
          FUZZ_CHECK(status == ACLNN_SUCCESS, "repeatable returned %d", status);
          live_[handle].repeatable = true;
        }
        break;
      }
      case 9: {  // a stream waits for an event recorded on another
        aclrtEvent event = nullptr;
        FUZZ_CHECK(aclrtCreateEvent(&event) == ACL_SUCCESS, "aclrtCreateEvent");
        const int other = static_cast<int>(in_.Below(kStreams));
        FUZZ_CHECK(aclrtRecordEvent(event, streams_[stream]) == ACL_SUCCESS, "aclrtRecordEvent");
        FUZZ_CHECK(aclrtStreamWaitEvent(streams_[other], event) == ACL_SUCCESS, "aclrtStreamWaitEvent");
        FUZZ_CHECK(aclrtDestroyEvent(event) == ACL_SUCCESS, "aclrtDestroyEvent");
        break;
      }
      default:
        SyncAndCheck();
        break;
    }
    ClearMessages();
  }

  void SyncAndCheck() {
    for (int s = 0; s < kStreams; ++s) {
      FUZZ_CHECK(aclrtSynchronizeStream(streams_[s]) == ACL_SUCCESS, "aclrtSynchronizeStream");
    }
    for (auto& entry : pending_) CheckOut(*entry.first, entry.second);
    pending_.clear();
    last_stream_.clear();
  }

  // Launches into one out are ordered (one stream, or events between streams), so
  // every out element holds the result of the last of `launches`, and nothing
  // outside the view changed.
  void CheckOut(Storage& out, const std::vector<Pending>& all_launches) {
    const std::vector<Pending> launches = {all_launches.back()};
    const size_t size = ItemSize(out.dtype);
    const std::vector<int64_t> out_offsets = ViewOffsets(out.view);
    std::set<int64_t> in_view(out_offsets.begin(), out_offsets.end());
    for (size_t k = 0; k < out_offsets.size(); ++k) {
      const uint8_t* actual = out.buffer.data() + out_offsets[k] * size;
      bool matched = false;
      for (const Pending& launch : launches) {
        const std::vector<int64_t> g = ViewOffsets(launch.grad->view);
        const std::vector<int64_t> s = ViewOffsets(launch.self->view);
        uint8_t expected[8];
        ReferenceElement(launch.grad->buffer.data() + g[k] * ItemSize(launch.grad->dtype), launch.grad->dtype,
                         launch.self->buffer.data() + s[k] * ItemSize(launch.self->dtype), launch.self->dtype,
                         out.dtype, expected);
        matched = matched || SameElement(actual, expected, out.dtype);
      }
      FUZZ_CHECK(matched, "out element %zu matches none of the %zu launches that wrote it", k, launches.size());
    }
    for (int64_t e = 0; e < out.storage_elements; ++e) {
      if (in_view.count(e) != 0) continue;
      for (size_t b = 0; b < size; ++b) {
        FUZZ_CHECK(out.buffer.data()[e * size + b] == kSentinel, "out storage element %lld outside the view changed",
                   static_cast<long long>(e));
      }
    }
  }

  ByteReader& in_;
  aclrtStream streams_[kStreams] = {};
  SlotBuffers slots_[kSlots];
  aclOpExecutor* handles_[kSlots] = {};  // the last executor each slot got (possibly spent or destroyed)
  std::map<aclOpExecutor*, ExecutorState> live_;
  std::map<Storage*, std::vector<Pending>> pending_;
  std::map<Storage*, int> last_stream_;  // stream of the last launch that wrote each out
};

}  // namespace
}  // namespace aclcpu_fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  aclcpu_fuzz::SharedStream();  // aclInit and device 0, once
  aclcpu_fuzz::ByteReader in(data, size);
  aclcpu_fuzz::Session session(in);
  session.Run();
  return 0;
}
