#!/usr/bin/env bash
# Fails if a library's machine code holds a vector gather or scatter: x86
# VGATHER*/VPGATHER*/VSCATTER*/VPSCATTER* (AVX2, AVX-512, and AVX-512PF's
# gather/scatter prefetches), or an SVE load, store or prefetch whose address
# has a vector register (LD1W {z0.s}, p0/z, [x0, z1.s, sxtw #2]; ST1D ...
# [z1.d, #8]; LDFF1*, LDNT1*, STNT1*, PRF*). They are microcoded and slow on many
# CPUs (src/simd/transpose-inl.h); the kernels transpose with permutes and keep
# their strided loops scalar (src/simd/keep_scalar.h) instead.
#
# Usage: check_no_gathers.sh [--objdump PROGRAM] <library.so>
#        check_no_gathers.sh --disassembly <file>   text as `objdump -d --no-show-raw-insn`
#                                                   prints it (the checker's own test)
set -euo pipefail
objdump=objdump
disassembly=""
while [ $# -gt 1 ]; do
  case "$1" in
    --objdump) objdump="$2"; shift 2 ;;
    --disassembly) disassembly="$2"; shift 2 ;;
    *) break ;;
  esac
done
[ -n "${disassembly}" ] || [ $# -eq 1 ] || { echo "usage: $0 [--objdump PROGRAM] <library.so>" >&2; exit 2; }

if [ -n "${disassembly}" ]; then
  name="${disassembly}"
  text() { cat "${disassembly}"; }
else
  name="$1"
  text() { "${objdump}" -d --no-show-raw-insn "$1"; }
fi

# Reads the disassembly; prints "<function>: <instruction>" for each offending
# instruction, then "checked N" on the last line.
scan() {
  awk '
    /^[0-9a-f]+ <.*>:$/ { function_name = $0; sub(/^[0-9a-f]+ </, "", function_name); sub(/>:$/, "", function_name); next }
    /^ *[0-9a-f]+:[ \t]/ {
      instruction = $0
      sub(/^ *[0-9a-f]+:[ \t]+/, "", instruction)
      gsub(/\t/, " ", instruction)
      lowered = tolower(instruction)
      checked++
      if (lowered ~ /^(vp?gather|vp?scatter)/ ||
          lowered ~ /^((ld|ldff|ldnt|st|stnt)1[a-z]*|prf[bhwd]) .*\[[^]]*z[0-9]+\.[sd]/) {
        print function_name ": " instruction
      }
    }
    END { print "checked " checked + 0 }'
}

result="$(text "${1:-}" | scan)"
checked="$(tail -1 <<<"${result}" | awk '{print $2}')"
offending="$(sed '$d' <<<"${result}")"
if [ "${checked}" -eq 0 ]; then
  echo "${name}: no instructions found in the disassembly" >&2
  exit 1
fi
if [ -n "${offending}" ]; then
  echo "${name}: $(wc -l <<<"${offending}") vector gather/scatter instruction(s) (first 20):" >&2
  head -20 <<<"${offending}" >&2
  exit 1
fi
echo "${name}: no vector gathers or scatters in ${checked} instructions"
