#!/usr/bin/env bash
# Fails if a library holds a lambda compiled as a function of its own, other
# than the two kinds that run once per plan or once per block:
#   - lambdas of the kernel selectors (a function named Select...), which run
#     once when phase 1 picks a kernel;
#   - block callbacks, lambdas taking (start, length, more_follow, out) that the
#     strided loops call once per block of up to 2,048 elements
#     (ops/shared/simd/element_io-inl.h, ForEachStridedBlock).
# Every other lambda in the kernels is called once a vector (the shared loops
# ForEachFullVector and StreamVectors, the transposed blocks' rows). When the
# compiler declines to inline one, each vector pays a call, and the loop
# around it cannot be scheduled as one: 12-24 % of a transposed launch's time
# in cache in the one case GCC 12 left out of line at -O2 only (the transposed
# blocks' row lambda, ops/shared/simd/transposed_tiles-inl.h). Names come
# from the symbol table, so this holds for any target objdump can read.
#
# Usage: check_inlined_lambdas.sh [--objdump PROGRAM] <library.so>
#        check_inlined_lambdas.sh --symbols <file>
#            text as `objdump -t -C` prints it (the checker's own test)
set -euo pipefail
objdump=objdump
symbols=""
while [ $# -gt 1 ]; do
  case "$1" in
    --objdump) objdump="$2"; shift 2 ;;
    --symbols) symbols="$2"; shift 2 ;;
    *) break ;;
  esac
done
if [ -n "${symbols}" ]; then
  name="${symbols}"
  table() { cat "${symbols}"; }
else
  [ $# -eq 1 ] || { echo "usage: $0 [--objdump PROGRAM] <library.so>" >&2; exit 2; }
  name="$1"
  table() { "${objdump}" -t -C "$1"; }
fi

# Function symbols (flag F) of the symbol table; prints each lambda call
# operator outside the two kinds above, then "functions N" on the last line.
scan() {
  awk '
    $0 ~ /[ \t]F[ \t]/ {
      functions++
      if ($0 !~ /::\{lambda\(/ || $0 !~ /operator\(\)/) next
      if ($0 ~ /::Select[A-Za-z0-9_]*(<[^{]*>)?\([^{]*\)::\{lambda\(/) next
      if ($0 ~ /::\{lambda\(long, long, bool, [^)]*\)#[0-9]+\}::operator\(\)/) next
      line = $0
      sub(/^.*[ \t]F[ \t]+[^ \t]+[ \t]+[0-9a-f]+[ \t]+/, "", line)
      print line
    }
    END { print "functions " functions + 0 }'
}

output="$(table "${name}" | scan)"
functions="$(tail -n 1 <<<"${output}" | awk '{print $2}')"
offenders="$(sed '$d' <<<"${output}")"
if [ "${functions}" -eq 0 ]; then
  echo "${name}: no function symbols read (objdump failed, or a stripped library?)" >&2
  exit 1
fi
if [ -n "${offenders}" ]; then
  echo "${name}: lambdas compiled as functions of their own (called once a vector):" >&2
  echo "${offenders}" >&2
  exit 1
fi
echo "${name}: ${functions} functions, no out-of-line per-vector lambda"
