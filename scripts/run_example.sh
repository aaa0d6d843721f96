#!/usr/bin/env bash
# Builds and installs aclcpu into install/, then builds each CANN-style example
# (examples/hardsigmoid_backward, examples/hardsigmoid) with its CANN-style
# CMakeLists against that tree (after sourcing install/set_env.sh, as a CANN user
# would) and runs it.
# Usage: scripts/run_example.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ACLCPU_BUILD_DIR:-${root}/build-release}"
prefix="${ACLCPU_PREFIX:-${root}/install}"

"${root}/scripts/install_deps.sh"
cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DACLCPU_TESTS=OFF >/dev/null
cmake --build "${build}" -j2 >/dev/null
cmake --install "${build}" --prefix "${prefix}" >/dev/null

# shellcheck disable=SC1091
source "${prefix}/set_env.sh"
example_build="$(mktemp -d)"
trap 'rm -rf "${example_build}"' EXIT
for example in hardsigmoid_backward hardsigmoid; do
  cmake -S "${root}/examples/${example}" -B "${example_build}/${example}" \
    -DCMAKE_CXX_COMPILER=g++ -DCMAKE_SKIP_RPATH=TRUE -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "${example_build}/${example}" >/dev/null
  (cd "${example_build}/${example}" && ./bin/opapi_test)
done
