// Uses aclcpu the way torch_npu's op-plugin does, with nothing of ours linked
// in and none of our headers included: the libraries are opened by soname
// (found through the LD_LIBRARY_PATH that <prefix>/set_env.sh exports), the
// operators' two phases (aclnnHardsigmoidBackward, aclnnHardsigmoid,
// aclnnInplaceHardsigmoid) and the meta API (aclCreateTensor, aclDestroyTensor)
// are resolved with dlsym on the libopapi.so handle, and the runtime on the
// libascendcl.so handle. Tensors are described as torch_npu converts an
// at::Tensor: the view's sizes and strides, its storage offset in elements, a
// 1-D storage shape of the whole storage, the storage's base address as data,
// and format NCHW because the tensors are 4-D.
//
// The signatures and enum values below are written out here, as a framework
// does, rather than taken from aclcpu's headers, so a drift between our
// headers and CANN's binary interface shows up as a failure.
//
// Every case runs the backward op on its three views, checked against PyTorch's
// result in cases.txt; then aclnnHardsigmoid from its self view into its out
// view, and aclnnInplaceHardsigmoid on its self view, both checked against the
// forward formula computed here (HardsigmoidWord).
//
// Usage: aclcpu_load_by_name <cases.txt made by make_cases.py>
// Prints "N passed, 0 failed" and exits 0 when every call gives its expected result.
#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace {

// CANN's values for the enums this program uses.
constexpr int kAclFloat = 0;           // aclDataType ACL_FLOAT
constexpr int kAclBf16 = 27;           // aclDataType ACL_BF16
constexpr int kAclFormatNchw = 0;      // aclFormat ACL_FORMAT_NCHW
constexpr int kAclFormatNd = 2;        // aclFormat ACL_FORMAT_ND
constexpr int kAclFormatNcl = 47;      // aclFormat ACL_FORMAT_NCL
constexpr int kAclFormatNcdhw = 30;    // aclFormat ACL_FORMAT_NCDHW
constexpr int kMemcpyHostToDevice = 1;  // aclrtMemcpyKind
constexpr int kMemcpyDeviceToHost = 2;
constexpr int kMallocHugeFirst = 0;     // aclrtMemMallocPolicy

// Opaque to a framework: it only passes pointers around.
struct AclTensor;
struct AclOpExecutor;

// libopapi.so (the meta API reaches it through libopapi's dependencies).
using CreateTensorFn = AclTensor* (*)(const int64_t* view_dims, uint64_t view_dims_num, int data_type,
                                      const int64_t* stride, int64_t offset, int format,
                                      const int64_t* storage_dims, uint64_t storage_dims_num, void* data);
using DestroyTensorFn = int (*)(const AclTensor*);
using GetWorkspaceSizeFn = int (*)(const AclTensor* grad_output, const AclTensor* self, AclTensor* out,
                                   uint64_t* workspace_size, AclOpExecutor** executor);
using ForwardGetWorkspaceSizeFn = int (*)(const AclTensor* self, AclTensor* out, uint64_t* workspace_size,
                                          AclOpExecutor** executor);
using InplaceGetWorkspaceSizeFn = int (*)(const AclTensor* self, uint64_t* workspace_size, AclOpExecutor** executor);
using RunFn = int (*)(void* workspace, uint64_t workspace_size, AclOpExecutor* executor, void* stream);

// libascendcl.so.
using InitFn = int (*)(const char* config_path);
using FinalizeFn = int (*)();
using SetDeviceFn = int (*)(int32_t device_id);
using ResetDeviceFn = int (*)(int32_t device_id);
using CreateStreamFn = int (*)(void** stream);
using DestroyStreamFn = int (*)(void* stream);
using SynchronizeStreamFn = int (*)(void* stream);
using MallocFn = int (*)(void** pointer, size_t size, int policy);
using FreeFn = int (*)(void* pointer);
using MemcpyFn = int (*)(void* dst, size_t dst_max, const void* src, size_t count, int kind);
using RecentErrMsgFn = const char* (*)();

struct OpApi {
  CreateTensorFn create_tensor;
  DestroyTensorFn destroy_tensor;
  GetWorkspaceSizeFn get_workspace_size;
  RunFn run;
  ForwardGetWorkspaceSizeFn forward_get_workspace_size;
  RunFn forward_run;
  InplaceGetWorkspaceSizeFn inplace_get_workspace_size;
  RunFn inplace_run;
};

struct Runtime {
  InitFn init;
  FinalizeFn finalize;
  SetDeviceFn set_device;
  ResetDeviceFn reset_device;
  CreateStreamFn create_stream;
  DestroyStreamFn destroy_stream;
  SynchronizeStreamFn synchronize_stream;
  MallocFn malloc;
  FreeFn free;
  MemcpyFn memcpy;
  RecentErrMsgFn recent_err_msg;
};

// dlsym into a typed pointer; a missing symbol is reported and leaves ok false.
template <typename Fn>
void Resolve(void* handle, const char* library, const char* name, Fn* fn, bool* ok) {
  *fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (*fn == nullptr) {
    std::fprintf(stderr, "%s not found in %s\n", name, library);
    *ok = false;
  }
}

// One tensor as torch_npu sees an at::Tensor view of a storage.
struct TensorSpec {
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  int64_t offset = 0;
  std::vector<uint32_t> storage;  // raw element bits, widened to 32 bits
};

struct Case {
  std::string name;
  std::string dtype;  // "f32" or "bf16"
  TensorSpec grad, self, out;
  std::vector<uint32_t> expected;  // out's whole storage after the call
};

bool ReadWords(std::istream& in, size_t count, std::vector<uint32_t>* words) {
  words->resize(count);
  for (uint32_t& word : *words) {
    std::string token;
    if (!(in >> token)) return false;
    word = static_cast<uint32_t>(std::stoul(token, nullptr, 16));
  }
  return true;
}

bool ReadTensor(std::istream& in, const char* role, TensorSpec* spec) {
  std::string word;
  size_t rank = 0, storage_size = 0;
  if (!(in >> word) || word != role || !(in >> word) || word != "sizes" || !(in >> rank)) return false;
  spec->sizes.resize(rank);
  spec->strides.resize(rank);
  for (int64_t& size : spec->sizes) in >> size;
  in >> word;
  if (word != "strides") return false;
  for (int64_t& stride : spec->strides) in >> stride;
  in >> word >> spec->offset;
  if (word != "offset") return false;
  in >> word >> storage_size;
  return word == "storage" && ReadWords(in, storage_size, &spec->storage);
}

bool ReadCases(const char* path, std::vector<Case>* cases) {
  std::ifstream file(path);
  if (!file) return false;
  std::stringstream text;
  for (std::string line; std::getline(file, line);) {
    if (!line.empty() && line[0] != '#') text << line << '\n';
  }
  std::string word;
  while (text >> word) {
    if (word != "case") return false;
    Case item;
    size_t expected_size = 0;
    text >> item.name >> item.dtype;
    if (!ReadTensor(text, "grad", &item.grad) || !ReadTensor(text, "self", &item.self) ||
        !ReadTensor(text, "out", &item.out) || !(text >> word) || word != "expected" ||
        !(text >> expected_size) || !ReadWords(text, expected_size, &item.expected)) {
      return false;
    }
    cases->push_back(std::move(item));
  }
  return !cases->empty();
}

// torch_npu's choice of format by rank (ND-equivalent for an elementwise op).
int FormatForRank(size_t rank) {
  switch (rank) {
    case 3: return kAclFormatNcl;
    case 4: return kAclFormatNchw;
    case 5: return kAclFormatNcdhw;
    default: return kAclFormatNd;
  }
}

// Host bytes of a storage in the case's dtype.
std::vector<unsigned char> StorageBytes(const std::vector<uint32_t>& words, size_t element_size) {
  std::vector<unsigned char> bytes(words.size() * element_size);
  for (size_t i = 0; i < words.size(); ++i) {
    if (element_size == 4) {
      std::memcpy(&bytes[i * 4], &words[i], 4);
    } else {
      const uint16_t half = static_cast<uint16_t>(words[i]);
      std::memcpy(&bytes[i * 2], &half, 2);
    }
  }
  return bytes;
}

uint32_t WordAt(const std::vector<unsigned char>& bytes, size_t index, size_t element_size) {
  if (element_size == 4) {
    uint32_t word;
    std::memcpy(&word, &bytes[index * 4], 4);
    return word;
  }
  uint16_t half;
  std::memcpy(&half, &bytes[index * 2], 2);
  return half;
}

bool IsNan(uint32_t word, size_t element_size) {
  if (element_size == 4) return (word & 0x7F800000u) == 0x7F800000u && (word & 0x007FFFFFu) != 0;
  return (word & 0x7F80u) == 0x7F80u && (word & 0x007Fu) != 0;
}

// A device copy of one storage and the aclTensor describing the view into it.
struct DeviceTensor {
  void* data = nullptr;
  AclTensor* tensor = nullptr;
};

bool MakeDeviceTensor(const OpApi& api, const Runtime& rt, const TensorSpec& spec, int data_type,
                      size_t element_size, DeviceTensor* device) {
  const std::vector<unsigned char> bytes = StorageBytes(spec.storage, element_size);
  if (rt.malloc(&device->data, bytes.size(), kMallocHugeFirst) != 0 ||
      rt.memcpy(device->data, bytes.size(), bytes.data(), bytes.size(), kMemcpyHostToDevice) != 0) {
    return false;
  }
  const int64_t storage_dims[1] = {static_cast<int64_t>(spec.storage.size())};
  device->tensor = api.create_tensor(spec.sizes.data(), spec.sizes.size(), data_type, spec.strides.data(),
                                     spec.offset, FormatForRank(spec.sizes.size()), storage_dims, 1,
                                     device->data);
  return device->tensor != nullptr;
}

// The storage index of each element of a view, in row-major order of its sizes.
std::vector<size_t> ViewIndices(const TensorSpec& spec) {
  size_t count = 1;
  for (int64_t size : spec.sizes) count *= static_cast<size_t>(size);
  std::vector<size_t> indices;
  indices.reserve(count);
  std::vector<int64_t> index(spec.sizes.size(), 0);
  for (size_t k = 0; k < count; ++k) {
    int64_t at = spec.offset;
    for (size_t d = 0; d < index.size(); ++d) at += index[d] * spec.strides[d];
    indices.push_back(static_cast<size_t>(at));
    for (size_t d = index.size(); d-- > 0;) {
      if (++index[d] < spec.sizes[d]) break;
      index[d] = 0;
    }
  }
  return indices;
}

// aclnnHardsigmoid of one element, from its definition rather than from PyTorch:
// min(max(x + 3, 0), 6) / 6 in float32 (a division, as PyTorch 1.13 computes it),
// rounded once to the element type (bf16: to nearest even). NaN stays NaN.
uint32_t HardsigmoidWord(uint32_t word, size_t element_size) {
  uint32_t bits = element_size == 4 ? word : word << 16;
  float x;
  std::memcpy(&x, &bits, 4);
  const float y = std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f;
  std::memcpy(&bits, &y, 4);
  if (element_size == 4) return bits;
  if (IsNan(bits, 4)) return (bits >> 16) | 0x40u;
  return (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
}

// out's whole storage after aclnnHardsigmoid(self, out): out's storage with each
// element of its view replaced by the forward op of self's element at the same
// index. With out = self it is self's storage after aclnnInplaceHardsigmoid.
std::vector<uint32_t> ExpectedHardsigmoid(const TensorSpec& self, const TensorSpec& out, size_t element_size) {
  const std::vector<size_t> from = ViewIndices(self);
  const std::vector<size_t> to = ViewIndices(out);
  std::vector<uint32_t> expected = out.storage;
  for (size_t k = 0; k < from.size() && k < to.size(); ++k) {
    expected[to[k]] = HardsigmoidWord(self.storage[from[k]], element_size);
  }
  return expected;
}

// Phase 1 of one operator on the tensors of its views (in the order given to RunCall).
using Phase1 = std::function<int(AclTensor* const* tensors, uint64_t* workspace_size, AclOpExecutor** executor)>;

// One operator call as torch_npu makes it, on device copies of `views`:
// phase 1, a workspace only if one is asked for, phase 2 on the stream, the
// aclTensors destroyed right after the launch. Then the whole storage of
// views[result] must be `expected`.
bool RunCall(const OpApi& api, const Runtime& rt, void* stream, const Case& item, const char* op,
             const std::vector<const TensorSpec*>& views, const Phase1& phase1, RunFn phase2, size_t result,
             const std::vector<uint32_t>& expected) {
  const std::string name = item.name + " " + op;
  const bool is_f32 = item.dtype == "f32";
  const int data_type = is_f32 ? kAclFloat : kAclBf16;
  const size_t element_size = is_f32 ? 4 : 2;
  std::vector<DeviceTensor> devices(views.size());
  bool ok = true;
  for (size_t i = 0; ok && i < views.size(); ++i) {
    ok = MakeDeviceTensor(api, rt, *views[i], data_type, element_size, &devices[i]);
  }
  if (!ok) std::fprintf(stderr, "%s: could not set up the tensors\n", name.c_str());
  std::vector<AclTensor*> tensors;
  for (const DeviceTensor& device : devices) tensors.push_back(device.tensor);

  // torch_npu's EXEC_NPU_CMD: phase 1, a workspace only if one is asked for,
  // phase 2 on the current stream.
  uint64_t workspace_size = 0;
  AclOpExecutor* executor = nullptr;
  void* workspace = nullptr;
  if (ok) {
    const int status = phase1(tensors.data(), &workspace_size, &executor);
    if (status != 0) {
      std::fprintf(stderr, "%s: phase 1 returned %d: %s\n", name.c_str(), status, rt.recent_err_msg());
      ok = false;
    }
  }
  if (ok && workspace_size > 0 && rt.malloc(&workspace, workspace_size, kMallocHugeFirst) != 0) ok = false;
  if (ok) {
    const int status = phase2(workspace, workspace_size, executor, stream);
    if (status != 0) {
      std::fprintf(stderr, "%s: phase 2 returned %d: %s\n", name.c_str(), status, rt.recent_err_msg());
      ok = false;
    }
  }
  // As torch_npu does, the aclTensors go right after the launch, before the
  // stream has necessarily run it.
  for (AclTensor* tensor : tensors) api.destroy_tensor(tensor);
  if (ok && rt.synchronize_stream(stream) != 0) ok = false;

  if (ok) {
    std::vector<unsigned char> actual(expected.size() * element_size);
    ok = rt.memcpy(actual.data(), actual.size(), devices[result].data, actual.size(), kMemcpyDeviceToHost) == 0;
    size_t mismatches = 0;
    for (size_t i = 0; ok && i < expected.size(); ++i) {
      const uint32_t got = WordAt(actual, i, element_size);
      // PyTorch's own paths disagree on NaN payloads: any NaN matches a NaN.
      const bool same = got == expected[i] || (IsNan(got, element_size) && IsNan(expected[i], element_size));
      if (!same && ++mismatches <= 5) {
        std::fprintf(stderr, "%s: storage[%zu] is 0x%x, expected 0x%x\n", name.c_str(), i, got, expected[i]);
      }
    }
    if (mismatches > 0) ok = false;
  }
  if (workspace != nullptr) rt.free(workspace);
  for (const DeviceTensor& device : devices) {
    if (device.data != nullptr) rt.free(device.data);
  }
  std::printf("%s %s\n", ok ? "PASS" : "FAIL", name.c_str());
  return ok;
}

// The case's three calls: the backward op against PyTorch's result, then the
// forward pair against the formula. Returns how many failed.
int RunCase(const OpApi& api, const Runtime& rt, void* stream, const Case& item) {
  const size_t element_size = item.dtype == "f32" ? 4 : 2;
  int failed = 0;
  failed += !RunCall(api, rt, stream, item, "aclnnHardsigmoidBackward", {&item.grad, &item.self, &item.out},
                     [&](AclTensor* const* t, uint64_t* size, AclOpExecutor** executor) {
                       return api.get_workspace_size(t[0], t[1], t[2], size, executor);
                     },
                     api.run, 2, item.expected);
  failed += !RunCall(api, rt, stream, item, "aclnnHardsigmoid", {&item.self, &item.out},
                     [&](AclTensor* const* t, uint64_t* size, AclOpExecutor** executor) {
                       return api.forward_get_workspace_size(t[0], t[1], size, executor);
                     },
                     api.forward_run, 1, ExpectedHardsigmoid(item.self, item.out, element_size));
  failed += !RunCall(api, rt, stream, item, "aclnnInplaceHardsigmoid", {&item.self},
                     [&](AclTensor* const* t, uint64_t* size, AclOpExecutor** executor) {
                       return api.inplace_get_workspace_size(t[0], size, executor);
                     },
                     api.inplace_run, 0, ExpectedHardsigmoid(item.self, item.self, element_size));
  return failed;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s <cases.txt>\n", argv[0]);
    return 2;
  }
  std::vector<Case> cases;
  if (!ReadCases(argv[1], &cases)) {
    std::fprintf(stderr, "cannot read cases from %s\n", argv[1]);
    return 2;
  }

  // By soname only: the dynamic loader searches LD_LIBRARY_PATH, as it does
  // for torch_npu's dlopen("libopapi.so", RTLD_LAZY).
  void* opapi_handle = dlopen("libopapi.so", RTLD_LAZY);
  if (opapi_handle == nullptr) {
    std::fprintf(stderr, "dlopen libopapi.so: %s\n", dlerror());
    return 1;
  }
  void* acl_handle = dlopen("libascendcl.so", RTLD_LAZY);
  if (acl_handle == nullptr) {
    std::fprintf(stderr, "dlopen libascendcl.so: %s\n", dlerror());
    return 1;
  }

  bool resolved = true;
  OpApi api{};
  Resolve(opapi_handle, "libopapi.so", "aclCreateTensor", &api.create_tensor, &resolved);
  Resolve(opapi_handle, "libopapi.so", "aclDestroyTensor", &api.destroy_tensor, &resolved);
  Resolve(opapi_handle, "libopapi.so", "aclnnHardsigmoidBackwardGetWorkspaceSize", &api.get_workspace_size,
          &resolved);
  Resolve(opapi_handle, "libopapi.so", "aclnnHardsigmoidBackward", &api.run, &resolved);
  Resolve(opapi_handle, "libopapi.so", "aclnnHardsigmoidGetWorkspaceSize", &api.forward_get_workspace_size,
          &resolved);
  Resolve(opapi_handle, "libopapi.so", "aclnnHardsigmoid", &api.forward_run, &resolved);
  Resolve(opapi_handle, "libopapi.so", "aclnnInplaceHardsigmoidGetWorkspaceSize", &api.inplace_get_workspace_size,
          &resolved);
  Resolve(opapi_handle, "libopapi.so", "aclnnInplaceHardsigmoid", &api.inplace_run, &resolved);
  Runtime rt{};
  Resolve(acl_handle, "libascendcl.so", "aclInit", &rt.init, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclFinalize", &rt.finalize, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclrtSetDevice", &rt.set_device, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclrtResetDevice", &rt.reset_device, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclrtCreateStream", &rt.create_stream, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclrtDestroyStream", &rt.destroy_stream, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclrtSynchronizeStream", &rt.synchronize_stream, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclrtMalloc", &rt.malloc, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclrtFree", &rt.free, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclrtMemcpy", &rt.memcpy, &resolved);
  Resolve(acl_handle, "libascendcl.so", "aclGetRecentErrMsg", &rt.recent_err_msg, &resolved);
  if (!resolved) return 1;

  void* stream = nullptr;
  if (rt.init(nullptr) != 0 || rt.set_device(0) != 0 || rt.create_stream(&stream) != 0) {
    std::fprintf(stderr, "runtime setup failed: %s\n", rt.recent_err_msg());
    return 1;
  }
  constexpr int kCallsPerCase = 3;
  int failed = 0;
  for (const Case& item : cases) failed += RunCase(api, rt, stream, item);
  const int passed = static_cast<int>(cases.size()) * kCallsPerCase - failed;
  rt.destroy_stream(stream);
  rt.reset_device(0);
  rt.finalize();
  std::printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
