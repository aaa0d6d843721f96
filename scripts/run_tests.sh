#!/usr/bin/env bash
# Builds aclcpu with its tests and runs the whole suite (what CI runs):
#   1. the main build and its CTest suite;
#   2. every extra stage in scripts/ci/*.sh, in name order (sanitizer builds,
#      fuzzing, cross-architecture runs, packaging...). Each stage installs what
#      it needs and exits non-zero on failure.
# Usage: scripts/run_tests.sh            (build directory: build/)
#        ACLCPU_QUICK=1 scripts/run_tests.sh   skips the extra stages
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ACLCPU_BUILD_DIR:-${root}/build}"

"${root}/scripts/install_deps.sh"
cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build "${build}" -j2
ctest --test-dir "${build}" -j2 --output-on-failure

[ "${ACLCPU_QUICK:-0}" = "1" ] && exit 0
shopt -s nullglob
for stage in "${root}"/scripts/ci/*.sh; do
  echo "=== aclcpu CI stage: $(basename "${stage}")"
  start=$(date +%s)
  ACLCPU_MAIN_BUILD_DIR="${build}" bash "${stage}"
  echo "=== $(basename "${stage}") passed in $(( $(date +%s) - start )) s"
done
