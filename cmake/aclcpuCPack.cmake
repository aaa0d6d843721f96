# `cpack -G DEB` in a build directory makes aclcpu_<version>_<arch>.deb, which
# installs the CANN-like tree at /usr/local/Ascend/aclcpu (include/, lib64/,
# set_env.sh, opp/): next to where CANN itself installs
# (/usr/local/Ascend/ascend-toolkit), but never inside it, so aclcpu and a real
# CANN can be installed on the same machine and chosen by which set_env.sh is
# sourced. ACLCPU_PACKAGE_PREFIX chooses another prefix. Where no CANN is
# installed, the package also offers the tree as CANN's default toolkit path
# (ACLCPU_PACKAGE_CANN_LINK, below).
#
# The package also puts forwarding files where CMake and pkg-config look by
# default (/usr/lib/<multiarch>/cmake/aclcpu and .../pkgconfig), so
# find_package(aclcpu) and `pkg-config aclcpu` work with no hints. They are
# added to the package only (cmake/aclcpuDebSystemFiles.cmake), not to a plain
# `cmake --install`, which must not write outside its prefix.
set(ACLCPU_PACKAGE_PREFIX "/usr/local/Ascend/aclcpu" CACHE PATH "Install prefix inside the aclcpu .deb")

set(CPACK_PACKAGE_NAME aclcpu)
set(CPACK_PACKAGE_VENDOR "aclcpu")
set(CPACK_PACKAGE_CONTACT "aclcpu maintainers <aclcpu@localhost>")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "CANN's aclnnHardsigmoidBackward and host runtime (libascendcl, libnnopbase, libopapi) on the CPU")
set(CPACK_PACKAGE_DESCRIPTION
    "Runs code written for Huawei CANN's aclnnHardsigmoidBackward on x86-64 and aarch64 CPUs without an
Ascend NPU: CANN's headers, libascendcl.so, libnnopbase.so and libopapi.so in a CANN-like tree with
set_env.sh, a CMake package (find_package(aclcpu)) and pkg-config files.")
# Staged with DESTDIR, so CMAKE_INSTALL_PREFIX is the final prefix while the
# package is made: set_env.sh is written with the path it will have. In that
# mode CPack installs to CPACK_INSTALL_PREFIX.
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX "${ACLCPU_PACKAGE_PREFIX}")
set(CPACK_PACKAGING_INSTALL_PREFIX "${ACLCPU_PACKAGE_PREFIX}")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Debian's names for the target architecture (a cross build packages for the target).
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE arm64)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(CPACK_DEBIAN_PACKAGE_ARCHITECTURE amd64)
endif()
# What the libraries link (dpkg-shlibdeps gives these for a Debian 12 build, with
# libhwy1 raised to the version we build and test with;
# listed here so that cross builds, which cannot run it, get them too).
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libc6 (>= 2.34), libgcc-s1 (>= 3.0), libstdc++6 (>= 12), libhwy1 (>= 1.0.3)")

# Where CANN's toolkit lives by default: scripts and CMakeLists written for a
# CANN install fall back to it. The package's postinst offers the tree there as
# a link when nothing is at that path, and its prerm removes the link only if it
# is still that link (cmake/deb/). Empty: no link, no maintainer scripts.
set(ACLCPU_PACKAGE_CANN_LINK "/usr/local/Ascend/ascend-toolkit/latest" CACHE PATH
    "Path the aclcpu .deb links to its tree when nothing is there (empty: none)")
if(ACLCPU_PACKAGE_CANN_LINK)
  foreach(script postinst prerm)
    configure_file("${CMAKE_CURRENT_LIST_DIR}/deb/${script}.in" "${PROJECT_BINARY_DIR}/aclcpu/deb/${script}" @ONLY)
    list(APPEND CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${PROJECT_BINARY_DIR}/aclcpu/deb/${script}")
  endforeach()
  set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)  # maintainer scripts 0755
endif()

# Forwarders for the package only (see above).
set(CPACK_ACLCPU_MULTIARCH "${CMAKE_LIBRARY_ARCHITECTURE}")
set(CPACK_ACLCPU_PREFIX "${ACLCPU_PACKAGE_PREFIX}")
set(CPACK_ACLCPU_SYSTEM_PC_DIR "${PROJECT_BINARY_DIR}/aclcpu/system-pkgconfig")
aclcpu_write_pc_files(${CPACK_ACLCPU_SYSTEM_PC_DIR} "${ACLCPU_PACKAGE_PREFIX}")
set(CPACK_PRE_BUILD_SCRIPTS "${CMAKE_CURRENT_LIST_DIR}/aclcpuDebSystemFiles.cmake")

include(CPack)
