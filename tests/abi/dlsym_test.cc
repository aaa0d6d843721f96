// What a framework that loads aclnn by name (torch_npu's GetOpApiFuncAddr)
// relies on: every function it resolves with dlsym on the libopapi.so handle
// — the operators' two phases and the meta API it converts tensors with — is
// found there, because libopapi.so depends on libnnopbase.so.
#include <dlfcn.h>

#include <string>

#include <gtest/gtest.h>

namespace {

class LibOpApiHandle : public ::testing::Test {
 protected:
  void SetUp() override {
    handle_ = dlopen(ACLCPU_LIBOPAPI_PATH, RTLD_LAZY | RTLD_LOCAL);
    ASSERT_NE(handle_, nullptr) << dlerror();
  }
  void TearDown() override {
    if (handle_ != nullptr) dlclose(handle_);
  }
  void* handle_ = nullptr;
};

TEST_F(LibOpApiHandle, ResolvesBothPhasesOfTheOperator) {
  EXPECT_NE(dlsym(handle_, "aclnnHardsigmoidBackwardGetWorkspaceSize"), nullptr);
  EXPECT_NE(dlsym(handle_, "aclnnHardsigmoidBackward"), nullptr);
}

// torch_npu maps hardsigmoid / hardsigmoid_ to these.
TEST_F(LibOpApiHandle, ResolvesBothPhasesOfTheForwardOperatorAndItsInPlaceForm) {
  for (const char* name : {"aclnnHardsigmoidGetWorkspaceSize", "aclnnHardsigmoid",
                           "aclnnInplaceHardsigmoidGetWorkspaceSize", "aclnnInplaceHardsigmoid"}) {
    EXPECT_NE(dlsym(handle_, name), nullptr) << name;
  }
}

TEST_F(LibOpApiHandle, ResolvesTheMetaApiFrameworksConvertArgumentsWith) {
  for (const char* name : {"aclCreateTensor", "aclCreateScalar", "aclCreateIntArray", "aclCreateFloatArray",
                           "aclCreateBoolArray", "aclCreateTensorList", "aclCreateScalarList", "aclDestroyTensor",
                           "aclDestroyScalar", "aclDestroyIntArray", "aclDestroyFloatArray", "aclDestroyBoolArray",
                           "aclDestroyTensorList", "aclDestroyScalarList", "aclDestroyAclOpExecutor",
                           "aclSetAclOpExecutorRepeatable"}) {
    EXPECT_NE(dlsym(handle_, name), nullptr) << name;
  }
}

TEST_F(LibOpApiHandle, DoesNotResolveOperatorsItDoesNotImplement) {
  // torch_npu falls back to another path when a symbol is missing: it must be
  // missing, not a stub.
  EXPECT_EQ(dlsym(handle_, "aclnnHardswishGetWorkspaceSize"), nullptr);
  EXPECT_EQ(dlsym(handle_, "PTAGetExecCache"), nullptr);
}

}  // namespace
