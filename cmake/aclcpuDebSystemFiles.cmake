# Run by CPack (CPACK_PRE_BUILD_SCRIPTS) after it has staged the install tree
# and before it builds the .deb: adds files outside the prefix through which
# CMake's and pkg-config's default searches find the tree at the package's prefix.
set(_staging "${CPACK_TEMPORARY_DIRECTORY}")
if(CPACK_ACLCPU_MULTIARCH)
  set(_system_lib "${_staging}/usr/lib/${CPACK_ACLCPU_MULTIARCH}")
else()
  set(_system_lib "${_staging}/usr/lib")
endif()

# CMake: /usr is a default prefix, so <prefix>/lib/<multiarch>/cmake/aclcpu is
# searched. The forwarders include the real files, which find the tree from
# their own location.
set(_real_cmake_dir "${CPACK_ACLCPU_PREFIX}/share/cmake/aclcpu")
file(WRITE "${_system_lib}/cmake/aclcpu/aclcpuConfig.cmake"
     "# Installed by the aclcpu package: the tree is at ${CPACK_ACLCPU_PREFIX}.\n"
     "include(\"${_real_cmake_dir}/aclcpuConfig.cmake\")\n")
file(WRITE "${_system_lib}/cmake/aclcpu/aclcpuConfigVersion.cmake"
     "include(\"${_real_cmake_dir}/aclcpuConfigVersion.cmake\")\n")

# pkg-config: copies with the absolute prefix (${pcfiledir} would point here).
file(GLOB _pc_files "${CPACK_ACLCPU_SYSTEM_PC_DIR}/*.pc")
file(COPY ${_pc_files} DESTINATION "${_system_lib}/pkgconfig")
