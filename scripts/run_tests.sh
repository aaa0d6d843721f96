#!/usr/bin/env bash
# Builds aclcpu with its tests and runs the whole suite (what CI runs).
# Usage: scripts/run_tests.sh            (build directory: build/)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ACLCPU_BUILD_DIR:-${root}/build}"

"${root}/scripts/install_deps.sh"
cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "${build}" -j2
ctest --test-dir "${build}" -j2 --output-on-failure
