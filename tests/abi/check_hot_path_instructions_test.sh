#!/usr/bin/env bash
# The hot-path instruction checker's own test. Rule "gathers": it must reject a
# disassembly holding any one gather or scatter form (x86 AVX2/AVX-512/
# AVX-512PF, SVE loads, stores and prefetches with vector addresses) and accept
# their near relatives (permutes, contiguous and NEON loads, scalar prefetches).
# Rule "masked-memory-sources": reject every AVX-512 masked instruction that
# reads memory, accept masked stores, masked register-only instructions,
# unmasked loads and masked reads of rip-relative constants. Both: reject an
# empty disassembly (objdump printing nothing must not pass).
# Usage: check_hot_path_instructions_test.sh <check_hot_path_instructions.sh>
set -euo pipefail
checker="$1"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# A disassembly as objdump -d --no-show-raw-insn prints it, with the given
# instruction lines in one function.
disassembly() {
  printf '\nlibopapi.so:     file format elf64-x86-64\n\n\nDisassembly of section .text:\n\n'
  printf '0000000000001000 <TileBlockVector>:\n'
  local address=4096 line
  for line in "$@"; do
    printf '    %x:\t%s\n' "${address}" "${line}"
    address=$((address + 4))
  done
}

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

gathers=(
  "vgatherdps %ymm2,(%rax,%ymm1,4),%ymm0"
  "vgatherqps %xmm2,(%rax,%ymm1,4),%xmm0"
  "vgatherdpd %ymm2,(%rax,%xmm1,8),%ymm0"
  "vgatherqpd 0x8(%rax,%zmm1,8),%zmm0{%k1}"
  "vpgatherdd %ymm2,(%rax,%ymm1,4),%ymm0"
  "vpgatherqd %xmm2,(%rax,%ymm1,4),%xmm0"
  "vpgatherdq (%rax,%ymm1,8),%zmm0{%k1}"
  "vpgatherqq (%rax,%zmm1,8),%zmm0{%k1}"
  "vgatherpf0dps (%rax,%zmm1,4){%k1}"
  "vscatterdps %zmm0,(%rax,%zmm1,4){%k1}"
  "vscatterqpd %zmm0,(%rax,%zmm1,8){%k1}"
  "vpscatterdd %zmm0,(%rax,%zmm1,4){%k1}"
  "vpscatterqq %zmm0,(%rax,%zmm1,8){%k1}"
  "vscatterpf1qps (%rax,%zmm1,4){%k1}"
  "VGATHERDPS ymm0,DWORD PTR [rax+ymm1*4],ymm2"
  "ld1w	{z0.s}, p0/z, [x0, z1.s, sxtw #2]"
  "ld1d	{z0.d}, p0/z, [x0, z1.d, lsl #3]"
  "ld1h	{z0.s}, p0/z, [x0, z1.s, uxtw #1]"
  "ld1sh	{z0.d}, p0/z, [x0, z1.d]"
  "ld1b	{z0.d}, p0/z, [z1.d, #8]"
  "ldff1w	{z0.s}, p0/z, [x0, z1.s, sxtw #2]"
  "ldnt1w	{z0.s}, p0/z, [z1.s, x0]"
  "st1w	{z0.s}, p0, [x0, z1.s, sxtw #2]"
  "st1d	{z0.d}, p0, [z1.d, #16]"
  "st1h	{z0.d}, p0, [x0, z1.d, lsl #1]"
  "stnt1d	{z0.d}, p0, [z1.d, x0]"
  "prfw	pldl1keep, p0, [x0, z1.s, sxtw #2]"
  "prfd	pldl2strm, p0, [z1.d, #0]"
)
for instruction in "${gathers[@]}"; do
  disassembly "vmovups (%rdi),%zmm0" "${instruction}" "ret" >"${work}/bad.txt"
  if bash "${checker}" --rule gathers --disassembly "${work}/bad.txt" >"${work}/out.txt" 2>&1; then
    fail "accepted: ${instruction}"
  elif ! grep -qF "TileBlockVector: ${instruction//	/ }" "${work}/out.txt"; then
    fail "rejected without naming the function and instruction: ${instruction}"
  fi
done

near_misses=(
  "vpermt2ps %zmm1,%zmm2,%zmm0"
  "vshufps \$0x88,%ymm1,%ymm0,%ymm2"
  "vmovups %zmm0,(%rdi,%rax,4)"
  "vgf2p8affineqb \$0x0,%zmm1,%zmm2,%zmm0"
  "vpshufb %xmm1,%xmm0,%xmm0"
  "ld1w	{z0.s}, p0/z, [x0, x1, lsl #2]"
  "ld1w	{z0.s}, p0/z, [x0, #1, mul vl]"
  "st1w	{z0.s}, p0, [x0, x1, lsl #2]"
  "ld1	{v0.4s}, [x0]"
  "ld1rw	{z0.s}, p0/z, [x0]"
  "uzp1	z0.s, z1.s, z2.s"
  "prfm	pldl1keep, [x0, #64]"
  "prfw	pldl1keep, p0, [x0, x1, lsl #2]"
  "ldr	z0, [x0, #1, mul vl]"
)
disassembly "${near_misses[@]}" >"${work}/good.txt"
bash "${checker}" --rule gathers --disassembly "${work}/good.txt" >"${work}/out.txt" 2>&1 ||
  fail "rejected a disassembly without gathers: $(cat "${work}/out.txt")"
grep -q "no vector gathers or scatters in ${#near_misses[@]} instructions" "${work}/out.txt" ||
  fail "did not count every instruction: $(cat "${work}/out.txt")"

masked_reads=(
  "vmulps -0x40(%r12,%rax,4),%zmm4,%zmm3{%k1}{z}"
  "vmulps (%r10,%rdi,4),%ymm4,%ymm3{%k1}{z}"
  "vaddps 0x20(%rsi),%xmm1,%xmm0{%k2}"
  "vmovups (%rdi),%zmm0{%k1}{z}"
  "vmovdqu16 0x40(%rdx,%rcx,2),%zmm5{%k3}"
  "vpandd (%rax),%zmm1,%zmm2{%k7}"
)
for instruction in "${masked_reads[@]}"; do
  disassembly "vmovups (%rdi),%zmm0" "${instruction}" "ret" >"${work}/bad.txt"
  if bash "${checker}" --rule masked-memory-sources --disassembly "${work}/bad.txt" >"${work}/out.txt" 2>&1; then
    fail "accepted: ${instruction}"
  elif ! grep -qF "TileBlockVector: ${instruction}" "${work}/out.txt"; then
    fail "rejected without naming the function and instruction: ${instruction}"
  fi
done
masked_fine=(
  "vmovups %zmm0,(%rdi,%rax,4){%k1}"
  "vmulps %zmm1,%zmm2,%zmm3{%k1}{z}"
  "vmulps 0x1e18c8(%rip){1to16},%zmm2,%zmm1{%k1}{z}        # 299d40 <kOneSixth>"
  "vmulps -0x40(%r12,%rax,4),%zmm4,%zmm3"
  "vpcmpnled (%rax),%zmm1,%k1"
  "vmovdqu16 %zmm0,0x40(%rdx){%k2}"
)
disassembly "${masked_fine[@]}" >"${work}/good.txt"
bash "${checker}" --rule masked-memory-sources --disassembly "${work}/good.txt" >"${work}/out.txt" 2>&1 ||
  fail "rejected a disassembly without masked memory sources: $(cat "${work}/out.txt")"
grep -q "no masked memory sources in ${#masked_fine[@]} instructions" "${work}/out.txt" ||
  fail "did not count every instruction: $(cat "${work}/out.txt")"
# With no --rule, both rules apply.
disassembly "vgatherdps %ymm2,(%rax,%ymm1,4),%ymm0" >"${work}/bad.txt"
bash "${checker}" --disassembly "${work}/bad.txt" >/dev/null 2>&1 && fail "no --rule: accepted a gather"
disassembly "${masked_reads[0]}" >"${work}/bad.txt"
bash "${checker}" --disassembly "${work}/bad.txt" >/dev/null 2>&1 && fail "no --rule: accepted a masked memory source"

disassembly >"${work}/empty.txt"
bash "${checker}" --disassembly "${work}/empty.txt" >/dev/null 2>&1 && fail "accepted an empty disassembly"

echo "${#gathers[@]} gather/scatter forms, ${#near_misses[@]} near misses, ${#masked_reads[@]} masked memory" \
     "sources, ${#masked_fine[@]} near misses of those, 1 empty disassembly: $failures failed"
[ "${failures}" -eq 0 ]
