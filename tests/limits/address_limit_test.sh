#!/usr/bin/env bash
# Memory-starved processes: with the address space limited (RLIMIT_AS, `ulimit -v`)
# to 512 MiB and to 256 MiB, CANN's example and a 1M-element call run, with the
# default thread count and with ACLCPU_NUM_THREADS=64 (each thread's stack is
# address space too). Usage: address_limit_test.sh <example binary> <expected
# example output> <one_million_call binary>
# Exit 77 (skipped) where the limit cannot apply: see one_million_call.cc.
set -euo pipefail
example="$1" expected="$2" million="$3"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# The 1M program knows whether this build can run under a limit at all.
set +e
"${million}" >/dev/null
status=$?
set -e
[ "${status}" = 77 ] && { echo "skipped: sanitizer build or strict mode"; exit 77; }
[ "${status}" = 0 ] || { echo "one_million_call fails even without a limit (${status})"; exit 1; }

for kib in 524288 262144; do
  for threads in "" 64; do
    label="ulimit -v ${kib} KiB, ACLCPU_NUM_THREADS=${threads:-default}"
    (
      ulimit -v "${kib}"
      if [ -n "${threads}" ]; then export ACLCPU_NUM_THREADS="${threads}"; fi
      "${million}"
      (cd "${work}" && "${example}") >"${work}/example.txt"
    ) || { echo "FAILED under ${label}"; exit 1; }
    diff -u "${expected}" "${work}/example.txt" || { echo "example output differs under ${label}"; exit 1; }
    echo "ok under ${label}"
  done
done
