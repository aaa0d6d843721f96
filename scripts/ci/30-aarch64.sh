#!/usr/bin/env bash
# CI stage: aarch64. Cross-builds with g++-aarch64-linux-gnu and runs the unit,
# op (numerics, layouts, ops-nn), runtime and API suites and the load-by-name
# program under qemu-aarch64 on NEON-only and SVE/SVE2 CPUs (see
# scripts/cross_aarch64.sh for the exact matrix). About 3-4 minutes on 2 cores
# (a Zen 4 VM: cross build 80 s, emulated tests 115 s).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
ACLCPU_ARM64_BUILD_DIR="${ACLCPU_ARM64_BUILD_DIR:-${root}/build-arm64}" exec bash "${root}/scripts/cross_aarch64.sh"
