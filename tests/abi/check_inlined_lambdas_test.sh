#!/usr/bin/env bash
# The inlined-lambda checker's own test: it must reject a symbol table holding
# any per-vector lambda compiled as a function (the transposed blocks' row
# lambda, a streaming loop's vector lambda, a contiguous loop's), accept the
# selectors' lambdas, the strided loops' block callbacks and ordinary
# functions, and reject a table with no function at all (objdump printing
# nothing must not pass).
# Usage: check_inlined_lambdas_test.sh <check_inlined_lambdas.sh>
set -euo pipefail
checker="$1"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT

# A symbol table as objdump -t -C prints it, one local function per name (the
# checker reads names and flags, not addresses).
table() {
  printf '\nlibopapi.so:     file format elf64-x86-64\n\nSYMBOL TABLE:\n'
  printf '0000000000000000 l    df *ABS*\t0000000000000000              simd_kernel.cc\n'
  [ $# -eq 0 ] || printf '0000000000001000 l     F .text\t0000000000000040              %s\n' "$@"
}

allowed=(
  "auto aclcpu::hardsigmoid_backward::N_AVX3::SelectTileKernel(aclDataType, aclDataType, aclDataType, aclDataType)::{lambda(auto:1)#1}::operator()<aclcpu::element::F32>(aclcpu::element::F32) const"
  "auto aclcpu::hardsigmoid_backward::N_AVX2::SelectVectorKernelForGrad<aclcpu::element::F16>(aclDataType, aclDataType, aclDataType)::{lambda(auto:1, auto:2)#1}::operator()<aclcpu::element::Bf16, aclcpu::element::F32>(aclcpu::element::Bf16, aclcpu::element::F32) const [clone .isra.0]"
  "aclcpu::hardsigmoid_backward::N_SSE4::StridedRun<aclcpu::element::F16, aclcpu::element::F32, aclcpu::element::F32, aclcpu::element::Bf16>(void const*, long, void const*, long, void*, long, long)::{lambda(long, long, bool, unsigned short*)#1}::operator()(long, long, bool, unsigned short*) const"
  "void aclcpu::hardsigmoid::N_AVX3::ContiguousRun<aclcpu::element::F16>(aclcpu::element::F16::Storage const*, aclcpu::element::F16::Storage*, long)"
)
forbidden=(
  "aclcpu::N_AVX3::SharedTileBlockOfInputHalves<aclcpu::element::Bf16, 2, aclcpu::hardsigmoid_backward::N_AVX3::HardsigmoidGradOnHalves<aclcpu::element::Bf16> >(aclcpu::N_AVX3::SharedTileInput const (&) [2], long, long, unsigned short*, long, long, long, unsigned int*, aclcpu::N_AVX3::HalvesColumnMap const&, bool, aclcpu::hardsigmoid_backward::N_AVX3::HardsigmoidGradOnHalves<aclcpu::element::Bf16> const&)::{lambda(unsigned short const* const (&) [2], unsigned short const* const (&) [2], long, unsigned int*)#1}::operator()(unsigned short const* const (&) [2], unsigned short const* const (&) [2], long, unsigned int*) const [clone .isra.0]"
  "aclcpu::hardsigmoid_backward::N_SSE4::StreamingRun<aclcpu::element::F16, aclcpu::element::F16, aclcpu::element::F16, aclcpu::element::Bf16>(void const*, long, void const*, long, void*, long, long)::{lambda(long)#2}::operator()(long) const"
  "void aclcpu::hardsigmoid::N_AVX2::ContiguousRun<aclcpu::element::Bf16>(aclcpu::element::Bf16::Storage const*, aclcpu::element::Bf16::Storage*, long)::{lambda(long)#1}::operator()(long) const"
)

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

table "${allowed[@]}" >"${work}/allowed"
bash "${checker}" --symbols "${work}/allowed" >/dev/null 2>&1 || fail "rejected the allowed kinds"
for name in "${forbidden[@]}"; do
  table "${allowed[@]}" "${name}" >"${work}/one"
  if bash "${checker}" --symbols "${work}/one" >/dev/null 2>&1; then fail "accepted: ${name}"; fi
done
table >"${work}/empty"
if bash "${checker}" --symbols "${work}/empty" >/dev/null 2>&1; then fail "accepted a table without functions"; fi

[ "${failures}" -eq 0 ] || exit 1
echo "inlined-lambda checker: $(( ${#forbidden[@]} + 2 )) cases as expected"
