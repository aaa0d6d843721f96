#!/usr/bin/env bash
# Installs an aclcpu build into a scratch prefix, sources its set_env.sh as a
# torch_npu user would, checks that the load-by-name program links none of our
# libraries, and runs it on the PyTorch-made cases.
# Usage: run_load_by_name_test.sh <aclcpu build dir> <cases.txt> [emulator ...] <program>
set -euo pipefail
build="$1" cases="$2"
shift 2
program="${!#}"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

cmake --install "${build}" --prefix "${work}/prefix" >/dev/null
# Only the loader and the C/C++ runtime may be needed: the libraries must come
# from dlopen alone.
needed="$(LC_ALL=C readelf -d "${program}" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
if grep -E '^lib(ascendcl|nnopbase|opapi)' <<<"${needed}"; then
  echo "$(basename "${program}") links aclcpu's libraries; it must only dlopen them" >&2
  exit 1
fi

unset ASCEND_CUSTOM_PATH
# shellcheck disable=SC1091
source "${work}/prefix/set_env.sh"
"$@" "${cases}"
