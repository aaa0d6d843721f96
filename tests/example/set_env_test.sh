#!/usr/bin/env bash
# <prefix>/set_env.sh puts <prefix>/bin on PATH when that directory exists, and
# only once however often it is sourced; from bash (which finds the tree from
# the script's own path) and from a POSIX sh (which uses the installed prefix).
# Usage: set_env_test.sh <aclcpu build dir>
set -euo pipefail
build="$1"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
prefix="${work}/prefix"
cmake --install "${build}" --prefix "${prefix}" >/dev/null

# path_after <shell> <PATH before> <times>: PATH after sourcing set_env.sh that
# many times in a fresh <shell>.
path_after() {
  env -i PATH="$2" "$1" -c 'i=0; while [ "$i" -lt "$2" ]; do . "$1/set_env.sh"; i=$((i + 1)); done; printf %s "$PATH"' \
    set_env_test "${prefix}" "$3"
}

# expect <what> <actual> <expected>
expect() {
  [ "$2" = "$3" ] || { echo "$1: PATH is '$2', expected '$3'" >&2; exit 1; }
}

base=/usr/bin:/bin
for shell in bash sh; do
  [ ! -e "${prefix}/bin" ] || { echo "the install tree has a bin/ of its own" >&2; exit 1; }
  expect "${shell}, no bin/" "$(path_after "${shell}" "${base}" 1)" "${base}"
  mkdir "${prefix}/bin"
  expect "${shell}, bin/, sourced once" "$(path_after "${shell}" "${base}" 1)" "${prefix}/bin:${base}"
  expect "${shell}, bin/, sourced three times" "$(path_after "${shell}" "${base}" 3)" "${prefix}/bin:${base}"
  expect "${shell}, bin/ already on PATH" "$(path_after "${shell}" "${base}:${prefix}/bin" 2)" "${base}:${prefix}/bin"
  rmdir "${prefix}/bin"
done
echo "set_env.sh: <prefix>/bin on PATH once when it exists, not at all otherwise (bash and sh)"
