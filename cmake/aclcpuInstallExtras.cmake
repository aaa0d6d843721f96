# The parts of aclcpu's install tree that other build systems consume: a CMake
# package (share/cmake/aclcpu: imported targets aclcpu::ascendcl, ::nnopbase,
# ::opapi, ::aclcpu) and pkg-config files (lib64/pkgconfig: aclcpu.pc and one
# per library). Both are relocatable: they locate the tree from where they are,
# like set_env.sh, so `cmake --install --prefix` anywhere and the .deb work alike.
include(CMakePackageConfigHelpers)

# share/cmake rather than lib64/cmake: CMake searches <prefix>/lib64 only where
# the platform uses lib64 (not on Debian or Ubuntu), <prefix>/share everywhere,
# so -DCMAKE_PREFIX_PATH=$ASCEND_HOME_PATH finds it on every distribution.
set(ACLCPU_INSTALL_CMAKEDIR share/cmake/aclcpu)
set(ACLCPU_INSTALL_INCLUDEDIR include)

install(EXPORT aclcpuTargets NAMESPACE aclcpu:: DESTINATION ${ACLCPU_INSTALL_CMAKEDIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/aclcpuConfig.cmake.in
  ${PROJECT_BINARY_DIR}/aclcpu/aclcpuConfig.cmake
  INSTALL_DESTINATION ${ACLCPU_INSTALL_CMAKEDIR}
  PATH_VARS ACLCPU_INSTALL_INCLUDEDIR)
# 0.x releases may break the API between minor versions.
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/aclcpu/aclcpuConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/aclcpu/aclcpuConfig.cmake
  ${PROJECT_BINARY_DIR}/aclcpu/aclcpuConfigVersion.cmake
  DESTINATION ${ACLCPU_INSTALL_CMAKEDIR})

# aclcpu_write_pc_files(<output dir> <prefix>) writes aclcpu.pc and
# aclcpu-<library>.pc with the given prefix line.
function(aclcpu_write_pc_files output_dir ACLCPU_PC_PREFIX)
  configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/aclcpu.pc.in ${output_dir}/aclcpu.pc @ONLY)
  # Each library's headers use the types of the one below it.
  foreach(library_and_requires "ascendcl|" "nnopbase|aclcpu-ascendcl" "opapi|aclcpu-nnopbase")
    string(REPLACE "|" ";" pair "${library_and_requires}")
    list(GET pair 0 ACLCPU_PC_LIBRARY)
    list(GET pair 1 ACLCPU_PC_REQUIRES)
    configure_file(${CMAKE_CURRENT_FUNCTION_LIST_DIR}/aclcpu-lib.pc.in
                   ${output_dir}/aclcpu-${ACLCPU_PC_LIBRARY}.pc @ONLY)
  endforeach()
endfunction()

# Relocatable: pkg-config expands ${pcfiledir} to lib64/pkgconfig of this tree.
aclcpu_write_pc_files(${PROJECT_BINARY_DIR}/aclcpu/pkgconfig "\${pcfiledir}/../..")
install(DIRECTORY ${PROJECT_BINARY_DIR}/aclcpu/pkgconfig/ DESTINATION lib64/pkgconfig)
