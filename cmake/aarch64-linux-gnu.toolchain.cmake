# Cross-builds aclcpu for aarch64 (Kunpeng and other Arm servers) on an x86-64
# Debian host with Debian's cross compiler (g++-aarch64-linux-gnu) and the
# arm64 libraries installed through multiarch (libhwy-dev:arm64,
# libgtest-dev:arm64): they live in /usr/lib/aarch64-linux-gnu of the host's
# own root, so no separate sysroot is needed.
#
#   cmake -S . -B build-arm64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.toolchain.cmake
#
# Test binaries run under qemu-aarch64 (qemu-user): CMake uses it to list
# GoogleTest cases at build time and CTest to run them. QEMU_CPU picks the
# emulated CPU (e.g. "max" with SVE, "max,sve=off" for NEON only).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# Selects the multiarch directories (lib/aarch64-linux-gnu) when CMake looks
# for packages and libraries, so the host's x86-64 copies are never picked.
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)

find_program(ACLCPU_QEMU_AARCH64 qemu-aarch64)
if(ACLCPU_QEMU_AARCH64)
  # The arm64 loader and libraries come from the host root (multiarch:
  # /lib/ld-linux-aarch64.so.1, /lib/aarch64-linux-gnu). No -L / QEMU_LD_PREFIX
  # pointing at the cross toolchain's /usr/aarch64-linux-gnu: loading its libc
  # next to multiarch libraries hangs the first pthread_create.
  set(CMAKE_CROSSCOMPILING_EMULATOR "${ACLCPU_QEMU_AARCH64}")
endif()
