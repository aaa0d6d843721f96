#!/usr/bin/env bash
# Fails if a library's machine code holds an instruction form whose cost swings
# between CPUs or stalls a memory-bound loop. Rules (--rule, repeatable; both
# when none is given):
#   gathers: a vector gather or scatter: x86 VGATHER*/VPGATHER*/VSCATTER*/
#     VPSCATTER* (AVX2, AVX-512, and AVX-512PF's gather/scatter prefetches), or
#     an SVE load, store or prefetch whose address has a vector register (LD1W
#     {z0.s}, p0/z, [x0, z1.s, sxtw #2]; ST1D ... [z1.d, #8]; LDFF1*, LDNT1*,
#     STNT1*, PRF*). They are microcoded and slow on many CPUs
#     (src/simd/transpose-inl.h); the kernels transpose with permutes and keep
#     their strided loops scalar (src/simd/keep_scalar.h) instead.
#   masked-memory-sources: an AVX-512 instruction with a mask ({%k1}..{%k7}) that
#     reads a memory operand other than a constant (rip-relative): its load waits
#     for the mask, a comparison of another input, which chains the two inputs'
#     cache misses (src/simd/unmasked_load-inl.h). Masked stores (the memory
#     operand is the destination) are not reads and pass.
#
# Usage: check_hot_path_instructions.sh [--rule R]... [--objdump PROGRAM] <library.so>
#        check_hot_path_instructions.sh [--rule R]... --disassembly <file>
#            text as `objdump -d --no-show-raw-insn` prints it (the checker's own test)
set -euo pipefail
objdump=objdump
disassembly=""
gathers=0
masked=0
while [ $# -gt 1 ]; do
  case "$1" in
    --objdump) objdump="$2"; shift 2 ;;
    --disassembly) disassembly="$2"; shift 2 ;;
    --rule)
      case "$2" in
        gathers) gathers=1 ;;
        masked-memory-sources) masked=1 ;;
        *) echo "$0: unknown rule $2" >&2; exit 2 ;;
      esac
      shift 2 ;;
    *) break ;;
  esac
done
[ -n "${disassembly}" ] || [ $# -eq 1 ] || {
  echo "usage: $0 [--rule R]... [--objdump PROGRAM] <library.so>" >&2; exit 2; }
[ "${gathers}" = 1 ] || [ "${masked}" = 1 ] || { gathers=1; masked=1; }

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
  awk -v gathers="${gathers}" -v masked="${masked}" '
    /^[0-9a-f]+ <.*>:$/ { function_name = $0; sub(/^[0-9a-f]+ </, "", function_name); sub(/>:$/, "", function_name); next }
    /^ *[0-9a-f]+:[ \t]/ {
      instruction = $0
      sub(/^ *[0-9a-f]+:[ \t]+/, "", instruction)
      gsub(/\t/, " ", instruction)
      # objdump'"'"'s x86 comment (a rip-relative target), after a run of spaces;
      # a single space before # is an Arm immediate.
      sub(/  +#.*$/, "", instruction)
      lowered = tolower(instruction)
      checked++
      if (gathers && (lowered ~ /^(vp?gather|vp?scatter)/ ||
          lowered ~ /^((ld|ldff|ldnt|st|stnt)1[a-z]*|prf[bhwd]) .*\[[^]]*z[0-9]+\.[sd]/)) {
        print function_name ": " instruction
      } else if (masked && lowered ~ /%[xyz]mm[0-9]+\{%k[1-7]\}/) {
        # AT&T order: sources first, the destination last. A memory operand
        # before the masked destination register is a source.
        operands = lowered
        sub(/^[^ ]+ +/, "", operands)
        if (operands ~ /\(%r[a-z0-9]+[^)]*\).*,%[xyz]mm[0-9]+\{%k[1-7]\}/ && operands !~ /\(%rip\)/) {
          print function_name ": " instruction
        }
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
rules=""
[ "${gathers}" = 1 ] && rules+="vector gathers or scatters"
[ "${masked}" = 1 ] && rules+="${rules:+ or }masked memory sources"
if [ -n "${offending}" ]; then
  echo "${name}: $(wc -l <<<"${offending}") instruction(s) breaking the rules (${rules}; first 20):" >&2
  head -20 <<<"${offending}" >&2
  exit 1
fi
echo "${name}: no ${rules} in ${checked} instructions"
