// Stress (issue "Reliability", clause 4): many threads x streams x executors
// (one-shot and repeatable, with rebinding), random sizes, dtypes and views,
// events ordering work across streams, streams created and destroyed while other
// threads launch, and phase-1 failures racing each other's messages. Every result
// is checked against the independent reference of tests/fuzz/fuzz_support.h
// (bit-exact, NaN as a class) and nothing outside an out view may change.
//
// Bounded by iteration counts, not time; ACLCPU_STRESS_SCALE (default 1; the
// TSan run uses less) multiplies them. No timing assertions.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "aclnnop/aclnn_hardsigmoid.h"
#include "fuzz_support.h"

namespace {

using aclcpu_fuzz::ItemSize;
using aclcpu_fuzz::ReferenceElement;
using aclcpu_fuzz::SameElement;
using aclcpu_fuzz::View;
using aclcpu_fuzz::ViewOffsets;

constexpr uint8_t kSentinel = 0xC3;
constexpr int kInputDtypes[3] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
constexpr int kOutDtypes[4] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE};

double Scale() {
  const char* text = std::getenv("ACLCPU_STRESS_SCALE");
  const double scale = text != nullptr ? std::atof(text) : 1.0;
  return scale > 0 ? scale : 1.0;
}
int Scaled(int count) { return std::max(1, static_cast<int>(count * Scale())); }

void RuntimeUp() {
  static const bool up = [] {
    aclInit(nullptr);
    return true;
  }();
  (void)up;
  ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
}

// Device memory holding one operand's storage; the host copy is what was uploaded
// (inputs) or the sentinel (out).
struct Operand {
  int dtype = ACL_FLOAT;
  View view;
  int64_t storage_elements = 0;
  std::vector<uint8_t> host;
  void* device = nullptr;

  Operand() = default;
  Operand(const Operand&) = delete;
  Operand& operator=(const Operand&) = delete;
  ~Operand() {
    if (device != nullptr) aclrtFree(device);
  }

  size_t bytes() const { return host.size(); }

  void Make(int dtype_in, const std::vector<int64_t>& dims, std::mt19937& rng, bool is_out) {
    dtype = dtype_in;
    view.dims = dims;
    view.strides = aclcpu_fuzz::RowMajor(dims);
    view.offset = rng() % 3;
    const int layout = rng() % 4;
    if (layout == 1 && dims.size() >= 2) {  // transposed storage of the last two dims
      std::vector<int64_t> storage_dims = dims;
      std::swap(storage_dims[dims.size() - 1], storage_dims[dims.size() - 2]);
      view.strides = aclcpu_fuzz::RowMajor(storage_dims);
      std::swap(view.strides[dims.size() - 1], view.strides[dims.size() - 2]);
    } else if (layout == 2) {  // every other element
      for (auto& stride : view.strides) stride *= 2;
    } else if (layout == 3 && !is_out && !dims.empty()) {  // broadcast along dim 0
      view.strides[0] = 0;
    }
    int64_t extent = 0;
    ASSERT_TRUE(aclcpu_fuzz::ViewExtent(view, ItemSize(dtype), &extent));
    storage_elements = extent + rng() % 3;
    host.assign(static_cast<size_t>(storage_elements) * ItemSize(dtype), kSentinel);
    if (!is_out) {
      // Mostly values around the window (-3, 3), some specials from random bits.
      for (int64_t e = 0; e < storage_elements; ++e) {
        uint8_t* element = host.data() + e * ItemSize(dtype);
        if (rng() % 16 == 0) {
          for (size_t b = 0; b < ItemSize(dtype); ++b) element[b] = static_cast<uint8_t>(rng());
          continue;
        }
        const float value = std::uniform_real_distribution<float>(-4.0f, 4.0f)(rng);
        if (dtype == ACL_FLOAT) {
          std::memcpy(element, &value, 4);
        } else {
          const uint16_t half = dtype == ACL_FLOAT16 ? aclcpu_fuzz::F32ToF16(value) : aclcpu_fuzz::F32ToBf16(value);
          std::memcpy(element, &half, 2);
        }
      }
    }
    ASSERT_EQ(aclrtMalloc(&device, std::max<size_t>(bytes(), 1), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    Upload();
  }

  void Upload() {
    if (bytes() > 0) {
      ASSERT_EQ(aclrtMemcpy(device, bytes(), host.data(), bytes(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    }
  }

  std::vector<uint8_t> Download() const {
    std::vector<uint8_t> copy(bytes());
    if (bytes() > 0) {
      EXPECT_EQ(aclrtMemcpy(copy.data(), bytes(), device, bytes(), ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    }
    return copy;
  }

  aclTensor* Tensor() const {
    const int64_t storage_dims[1] = {storage_elements};
    return aclCreateTensor(view.dims.data(), view.dims.size(), static_cast<aclDataType>(dtype), view.strides.data(),
                           view.offset, ACL_FORMAT_ND, storage_dims, 1, device);
  }
};

// Out storage after a run: view elements as the reference says, the rest untouched.
::testing::AssertionResult Verify(const Operand& grad, const std::vector<uint8_t>& grad_host, const Operand& self,
                                  const Operand& out, const std::vector<uint8_t>& actual) {
  const size_t size = ItemSize(out.dtype);
  std::vector<uint8_t> expected(out.bytes(), kSentinel);
  const std::vector<int64_t> g = ViewOffsets(grad.view), s = ViewOffsets(self.view), o = ViewOffsets(out.view);
  for (size_t k = 0; k < o.size(); ++k) {
    ReferenceElement(grad_host.data() + g[k] * ItemSize(grad.dtype), grad.dtype,
                     self.host.data() + s[k] * ItemSize(self.dtype), self.dtype, out.dtype,
                     expected.data() + o[k] * size);
  }
  for (int64_t e = 0; e < out.storage_elements; ++e) {
    if (!SameElement(actual.data() + e * size, expected.data() + e * size, out.dtype)) {
      return ::testing::AssertionFailure() << "out storage element " << e << " of " << out.storage_elements
                                           << " (dtype " << out.dtype << ") differs from the reference";
    }
  }
  return ::testing::AssertionSuccess();
}

std::vector<int64_t> RandomShape(std::mt19937& rng) {
  // Mostly small (inline and stream-worker paths), sometimes big enough for the thread pool.
  const bool big = rng() % 24 == 0;
  const size_t rank = big ? 2 : rng() % 5;
  std::vector<int64_t> dims(rank);
  for (auto& dim : dims) dim = 1 + rng() % (rank <= 2 ? 40 : 9);
  if (big) dims = {static_cast<int64_t>(160 + rng() % 200), static_cast<int64_t>(256 + rng() % 100)};
  return dims;
}

aclOpExecutor* Phase1(const Operand& grad, const Operand& self, const Operand& out) {
  aclTensor* g = grad.Tensor();
  aclTensor* s = self.Tensor();
  aclTensor* o = out.Tensor();
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus status = aclnnHardsigmoidBackwardGetWorkspaceSize(g, s, o, &workspace_size, &executor);
  aclDestroyTensor(g);
  aclDestroyTensor(s);
  aclDestroyTensor(o);
  EXPECT_EQ(status, ACLNN_SUCCESS);
  EXPECT_EQ(workspace_size, 0u);
  return status == ACLNN_SUCCESS ? executor : nullptr;
}

// Each thread: its own two streams plus a stream shared by all threads and the
// default stream; per round a random op, one-shot or repeatable (launched up to
// three times, rebinding out to a second buffer), sometimes chained through an
// event into a second op on another stream that reads the first one's out.
TEST(Stress, ThreadsStreamsAndExecutorsComputeEveryResultCorrectly) {
  RuntimeUp();
  aclrtStream shared = nullptr;
  ASSERT_EQ(aclrtCreateStream(&shared), ACL_SUCCESS);
  const int threads = 4;
  const int rounds = Scaled(120);
  std::atomic<int> failures{0}, launches{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937 rng(1234 + t);
      if (aclrtSetDevice(0) != ACL_SUCCESS) ++failures;
      aclrtStream own[2] = {};
      for (auto& stream : own) {
        if (aclrtCreateStream(&stream) != ACL_SUCCESS) ++failures;
      }
      const aclrtStream streams[4] = {own[0], own[1], shared, nullptr};
      for (int round = 0; round < rounds && failures == 0; ++round) {
        const std::vector<int64_t> dims = RandomShape(rng);
        Operand grad, self, out, out2;
        grad.Make(kInputDtypes[rng() % 3], dims, rng, false);
        self.Make(kInputDtypes[rng() % 3], dims, rng, false);
        const bool chain = rng() % 4 == 0;
        // A chained second op reads out as its gradOutput: out must be an input dtype.
        out.Make(chain ? kInputDtypes[rng() % 3] : kOutDtypes[rng() % 4], dims, rng, true);
        out2.dtype = out.dtype;
        out2.view = out.view;
        out2.storage_elements = out.storage_elements;
        out2.host.assign(out.bytes(), kSentinel);
        if (aclrtMalloc(&out2.device, std::max<size_t>(out2.bytes(), 1), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
          ++failures;
          break;
        }
        out2.Upload();
        aclOpExecutor* executor = Phase1(grad, self, out);
        if (executor == nullptr) {
          ++failures;
          break;
        }
        const aclrtStream stream = streams[rng() % 4];
        const bool repeatable = rng() % 2 == 0;
        int runs = 1;
        if (repeatable) {
          if (aclSetAclOpExecutorRepeatable(executor) != ACLNN_SUCCESS) ++failures;
          runs = 1 + rng() % 3;
        }
        for (int run = 0; run < runs; ++run) {
          if (repeatable && run == runs - 1 && runs > 1) {  // last run writes the second buffer
            aclTensor* scratch = out2.Tensor();
            if (aclSetOutputTensorAddr(executor, 0, scratch, out2.device) != ACLNN_SUCCESS) ++failures;
            aclDestroyTensor(scratch);
          }
          if (aclnnHardsigmoidBackward(nullptr, 0, executor, stream) != ACLNN_SUCCESS) ++failures;
          ++launches;
        }
        if (repeatable && aclDestroyAclOpExecutor(executor) != ACLNN_SUCCESS) ++failures;

        // Chain: other stream waits for an event recorded after the launch, then
        // computes hardsigmoid_backward(out, self) into `chained`.
        Operand chained;
        aclrtStream other = nullptr;
        if (chain) {
          other = streams[rng() % 4];
          chained.Make(kOutDtypes[rng() % 4], dims, rng, true);
          Operand& first = (repeatable && runs > 1) ? out2 : out;
          aclrtEvent event = nullptr;
          if (aclrtCreateEvent(&event) != ACL_SUCCESS || aclrtRecordEvent(event, stream) != ACL_SUCCESS ||
              aclrtStreamWaitEvent(other, event) != ACL_SUCCESS) {
            ++failures;
          }
          aclOpExecutor* second = Phase1(first, self, chained);
          if (second == nullptr || aclnnHardsigmoidBackward(nullptr, 0, second, other) != ACLNN_SUCCESS) ++failures;
          ++launches;
          if (aclrtDestroyEvent(event) != ACL_SUCCESS) ++failures;
        }
        if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) ++failures;
        if (chain && aclrtSynchronizeStream(other) != ACL_SUCCESS) ++failures;

        const std::vector<uint8_t> result = out.Download();
        const bool rebound = repeatable && runs > 1;
        bool ok = Verify(grad, grad.host, self, out, result);
        if (rebound) ok = ok && Verify(grad, grad.host, self, out2, out2.Download());
        if (chain) {
          const Operand& first = rebound ? out2 : out;
          ok = ok && Verify(first, first.Download(), self, chained, chained.Download());
        }
        if (!ok) {
          ADD_FAILURE() << "thread " << t << " round " << round << ": wrong result";
          ++failures;
        }
      }
      for (auto& stream : own) {
        if (aclrtDestroyStream(stream) != ACL_SUCCESS) ++failures;
      }
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(aclrtDestroyStream(shared), ACL_SUCCESS);
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GT(launches.load(), threads * rounds - 1);
}

// aclnnHardsigmoid's result for a self element (README "The forward pair"):
// min(max(x + 3, 0), 6) / 6 in float32, NaN kept, rounded once to the dtype.
void ForwardReferenceElement(const uint8_t* self, int dtype, uint8_t* out) {
  const float x = aclcpu_fuzz::LoadAsFloat(self, dtype);
  const float shifted = x + 3.0f;
  const float r = std::isnan(shifted) ? shifted : std::fmin(std::fmax(shifted, 0.0f), 6.0f) / 6.0f;
  if (dtype == ACL_FLOAT) {
    std::memcpy(out, &r, 4);
    return;
  }
  const uint16_t bits = dtype == ACL_FLOAT16 ? aclcpu_fuzz::F32ToF16(r) : aclcpu_fuzz::F32ToBf16(r);
  std::memcpy(out, &bits, 2);
}

// The written storage after a forward run: the view's elements as the reference
// says for `self_host` (self's storage before the run), the rest as `before`.
::testing::AssertionResult VerifyForward(const Operand& self, const std::vector<uint8_t>& self_host,
                                         const Operand& written, const std::vector<uint8_t>& before,
                                         const std::vector<uint8_t>& actual) {
  const size_t size = ItemSize(written.dtype);
  std::vector<uint8_t> expected = before;
  const std::vector<int64_t> s = ViewOffsets(self.view), o = ViewOffsets(written.view);
  for (size_t k = 0; k < o.size(); ++k) {
    ForwardReferenceElement(self_host.data() + s[k] * size, self.dtype, expected.data() + o[k] * size);
  }
  for (int64_t e = 0; e < written.storage_elements; ++e) {
    if (!SameElement(actual.data() + e * size, expected.data() + e * size, written.dtype)) {
      return ::testing::AssertionFailure() << "storage element " << e << " of " << written.storage_elements
                                           << " (dtype " << written.dtype << ") differs from the reference";
    }
  }
  return ::testing::AssertionSuccess();
}

// The forward pair and the backward op launched by the same threads on the same
// streams (the two operators share the executor, launch and thread-pool code,
// and launches of both recycle one launch memory): per round aclnnHardsigmoid
// out of place or aclnnInplaceHardsigmoid, one-shot or repeatable, then, through
// an event on another stream, aclnnHardsigmoidBackward reading the forward
// result as gradOutput. Every result is checked.
TEST(Stress, ForwardAndBackwardOperatorsInterleaveAcrossThreadsAndStreams) {
  RuntimeUp();
  aclrtStream shared = nullptr;
  ASSERT_EQ(aclrtCreateStream(&shared), ACL_SUCCESS);
  const int rounds = Scaled(100);
  std::atomic<int> failures{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937 rng(4321 + t);
      if (aclrtSetDevice(0) != ACL_SUCCESS) ++failures;
      aclrtStream own = nullptr;
      if (aclrtCreateStream(&own) != ACL_SUCCESS) ++failures;
      const aclrtStream streams[3] = {own, shared, nullptr};
      for (int round = 0; round < rounds && failures == 0; ++round) {
        const std::vector<int64_t> dims = RandomShape(rng);
        const int dtype = kInputDtypes[rng() % 3];
        Operand self, out, grad_self, grad_out;
        self.Make(dtype, dims, rng, false);
        out.Make(dtype, dims, rng, true);
        const bool in_place = rng() % 3 == 0 && self.view.strides.end() ==
                                                    std::find(self.view.strides.begin(), self.view.strides.end(), 0);
        const Operand& written = in_place ? self : out;
        const std::vector<uint8_t> self_before = self.host;
        const std::vector<uint8_t> written_before = written.host;
        aclTensor* self_tensor = self.Tensor();
        aclTensor* out_tensor = out.Tensor();
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        const aclnnStatus status =
            in_place ? aclnnInplaceHardsigmoidGetWorkspaceSize(self_tensor, &workspace_size, &executor)
                     : aclnnHardsigmoidGetWorkspaceSize(self_tensor, out_tensor, &workspace_size, &executor);
        aclDestroyTensor(self_tensor);
        aclDestroyTensor(out_tensor);
        if (status != ACLNN_SUCCESS || workspace_size != 0) {
          ADD_FAILURE() << "phase 1: " << status;
          ++failures;
          break;
        }
        const aclrtStream stream = streams[rng() % 3];
        const bool repeatable = !in_place && rng() % 2 == 0;  // a second in-place run would read its own output
        if (repeatable && aclSetAclOpExecutorRepeatable(executor) != ACLNN_SUCCESS) ++failures;
        for (int run = 0; run < (repeatable ? 2 : 1); ++run) {
          const aclnnStatus launched = in_place ? aclnnInplaceHardsigmoid(nullptr, 0, executor, stream)
                                                : aclnnHardsigmoid(nullptr, 0, executor, stream);
          if (launched != ACLNN_SUCCESS) ++failures;
        }
        if (repeatable && aclDestroyAclOpExecutor(executor) != ACLNN_SUCCESS) ++failures;
        // The backward op on another stream, after an event: gradOutput = the
        // forward result, self = a fresh input, out = its own buffer.
        const aclrtStream other = streams[rng() % 3];
        grad_self.Make(kInputDtypes[rng() % 3], dims, rng, false);
        grad_out.Make(kOutDtypes[rng() % 4], dims, rng, true);
        aclrtEvent event = nullptr;
        if (aclrtCreateEvent(&event) != ACL_SUCCESS || aclrtRecordEvent(event, stream) != ACL_SUCCESS ||
            aclrtStreamWaitEvent(other, event) != ACL_SUCCESS) {
          ++failures;
        }
        aclOpExecutor* backward = Phase1(written, grad_self, grad_out);
        if (backward == nullptr || aclnnHardsigmoidBackward(nullptr, 0, backward, other) != ACLNN_SUCCESS) ++failures;
        if (aclrtDestroyEvent(event) != ACL_SUCCESS) ++failures;
        if (aclrtSynchronizeStream(stream) != ACL_SUCCESS || aclrtSynchronizeStream(other) != ACL_SUCCESS) {
          ++failures;
        }
        const std::vector<uint8_t> forward_result = written.Download();
        bool ok = VerifyForward(self, self_before, written, written_before, forward_result);
        ok = ok && Verify(written, forward_result, grad_self, grad_out, grad_out.Download());
        if (!ok) {
          ADD_FAILURE() << "thread " << t << " round " << round << (in_place ? " (in place)" : "") << ": wrong result";
          ++failures;
        }
      }
      if (own != nullptr && aclrtDestroyStream(own) != ACL_SUCCESS) ++failures;
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(aclrtDestroyStream(shared), ACL_SUCCESS);
  EXPECT_EQ(failures.load(), 0);
}

// Streams are created, used and destroyed by some threads while others launch
// on their own long-lived streams; every launch's result is checked.
TEST(Stress, StreamsCreatedAndDestroyedWhileOtherThreadsLaunch) {
  RuntimeUp();
  const int rounds = Scaled(60);
  std::atomic<int> failures{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&, t] {
      std::mt19937 rng(777 + t);
      if (aclrtSetDevice(0) != ACL_SUCCESS) ++failures;
      aclrtStream keep = nullptr;
      if (t % 2 == 0 && aclrtCreateStream(&keep) != ACL_SUCCESS) ++failures;
      for (int round = 0; round < rounds && failures == 0; ++round) {
        aclrtStream stream = keep;
        if (t % 2 == 1 && aclrtCreateStream(&stream) != ACL_SUCCESS) {
          ++failures;
          break;
        }
        const std::vector<int64_t> dims = {static_cast<int64_t>(1 + rng() % 64), static_cast<int64_t>(1 + rng() % 64)};
        Operand grad, self, out;
        grad.Make(kInputDtypes[rng() % 3], dims, rng, false);
        self.Make(kInputDtypes[rng() % 3], dims, rng, false);
        out.Make(kOutDtypes[rng() % 4], dims, rng, true);
        aclOpExecutor* executor = Phase1(grad, self, out);
        if (executor == nullptr || aclnnHardsigmoidBackward(nullptr, 0, executor, stream) != ACLNN_SUCCESS) {
          ++failures;
        }
        // Destroying a stream with work queued: CANN requires a synchronise first.
        if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) ++failures;
        if (t % 2 == 1 && aclrtDestroyStream(stream) != ACL_SUCCESS) ++failures;
        if (!Verify(grad, grad.host, self, out, out.Download())) {
          ADD_FAILURE() << "thread " << t << " round " << round;
          ++failures;
        }
      }
      if (keep != nullptr && aclrtDestroyStream(keep) != ACL_SUCCESS) ++failures;
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(failures.load(), 0);
}

// Phase-1 failures from many threads at once: each thread's aclGetRecentErrMsg
// holds its own message (thread-local), every refused call returns its code, and
// successful calls in between still hand out working executors.
TEST(Stress, ConcurrentPhase1FailuresKeepMessagesPerThread) {
  RuntimeUp();
  const int rounds = Scaled(400);
  std::atomic<int> failures{0};
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t) {
    workers.emplace_back([&, t] {
      if (aclrtSetDevice(0) != ACL_SUCCESS) ++failures;
      const int64_t dims[1] = {4};
      const int64_t bad_dims[1] = {-1 - t};
      void* memory = nullptr;
      if (aclrtMalloc(&memory, 64, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        ++failures;
        return;
      }
      aclTensor* good = aclCreateTensor(dims, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 1, memory);
      const int64_t bad_stride[1] = {1};
      aclTensor* bad = aclCreateTensor(bad_dims, 1, ACL_FLOAT, bad_stride, 0, ACL_FORMAT_ND, dims, 1, memory);
      const std::string expected_value = std::to_string(-1 - t);
      for (int round = 0; round < rounds && failures == 0; ++round) {
        uint64_t workspace_size = 0;
        aclOpExecutor* executor = nullptr;
        aclnnStatus status;
        switch (round % 3) {
          case 0:
            status = aclnnHardsigmoidBackwardGetWorkspaceSize(good, nullptr, good, &workspace_size, &executor);
            if (status != ACLNN_ERR_PARAM_NULLPTR) ++failures;
            break;
          case 1: {
            status = aclnnHardsigmoidBackwardGetWorkspaceSize(bad, bad, bad, &workspace_size, &executor);
            if (status != ACLNN_ERR_PARAM_INVALID) ++failures;
            const char* message = aclGetRecentErrMsg();
            // This thread's own negative dim, not another thread's.
            if (message == nullptr || std::string(message).find(expected_value) == std::string::npos) ++failures;
            break;
          }
          default:
            status = aclnnHardsigmoidBackwardGetWorkspaceSize(good, good, good, &workspace_size, &executor);
            if (status != ACLNN_SUCCESS || aclDestroyAclOpExecutor(executor) != ACLNN_SUCCESS) ++failures;
            break;
        }
        (void)aclGetRecentErrMsg();
      }
      aclDestroyTensor(good);
      aclDestroyTensor(bad);
      aclrtFree(memory);
    });
  }
  for (auto& worker : workers) worker.join();
  EXPECT_EQ(failures.load(), 0);
}

}  // namespace
