#!/usr/bin/env bash
# Installs the aclcpu build into a scratch prefix, builds CANN's example with its
# CANN-style CMakeLists against it exactly as CANN's guide says (source
# set_env.sh; cmake -DCMAKE_CXX_COMPILER=g++ -DCMAKE_SKIP_RPATH=TRUE), runs it, and
# compares what it prints with the output expected from PyTorch's results.
# Usage: run_example_test.sh <aclcpu build dir> <aclcpu source dir> <expected output file> [<example>]
# <example>: the folder under examples/ (default hardsigmoid_backward).
set -euo pipefail
build="$1" source_dir="$2" expected="$3" example="${4:-hardsigmoid_backward}"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

cmake --install "${build}" --prefix "${work}/prefix" >/dev/null
# The install tree has CANN's layout, including the split op-library names.
for library in libascendcl.so libnnopbase.so libopapi.so libopapi_nn.so libopapi_math.so; do
  [ -e "${work}/prefix/lib64/${library}" ] || { echo "missing lib64/${library}" >&2; exit 1; }
done

unset ASCEND_CUSTOM_PATH
# shellcheck disable=SC1091
source "${work}/prefix/set_env.sh"
[ "${ASCEND_HOME_PATH}" = "${work}/prefix" ] || { echo "set_env.sh exported ASCEND_HOME_PATH=${ASCEND_HOME_PATH}" >&2; exit 1; }

cmake -S "${source_dir}/examples/${example}" -B "${work}/build" \
  -DCMAKE_CXX_COMPILER=g++ -DCMAKE_SKIP_RPATH=TRUE >/dev/null
cmake --build "${work}/build" >/dev/null
(cd "${work}/build/bin" && ./opapi_test) >"${work}/output.txt"
diff -u "${expected}" "${work}/output.txt"
echo "example output matches ${expected}"
