#!/usr/bin/env bash
# CI stage: fuzzing (issue "Reliability", clause 1).
# Builds aclcpu and the libFuzzer harnesses of tests/fuzz with clang-14, ASan and
# UBSan (build-fuzz/), then runs each harness for ACLCPU_FUZZ_SECONDS (default 15)
# starting from its committed seed corpus (copied: the committed corpus is not
# modified). Any crash, sanitizer report, leak, failed check or timeout fails the
# stage; the input that caused it is left in build-fuzz/artifacts/.
#
# The harnesses demand that phase 1 refuse views reaching past their storage
# shape (ACLCPU_FUZZ_STORAGE_CHECK=0 would tolerate a library without that check).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${ACLCPU_FUZZ_BUILD_DIR:-${root}/build-fuzz}"
seconds="${ACLCPU_FUZZ_SECONDS:-15}"
jobs="${ACLCPU_JOBS:-2}"
export ACLCPU_FUZZ_STORAGE_CHECK="${ACLCPU_FUZZ_STORAGE_CHECK:-1}"

# clang-14 and its compiler-rt (libFuzzer and the sanitizer runtimes); llvm-14 for the symbolizer.
"${root}/scripts/install_deps.sh" clang-14 libclang-rt-14-dev llvm-14

resource_lib="$(clang-14 -print-resource-dir)/lib/linux"
# -shared-libsan: our shared libraries are linked with --no-undefined, so they
# need the sanitizer runtime as a shared library (clang links it statically
# into executables only by default).
# The kernels are compiled for AVX-512 and the portable fallback only (not
# SSSE3, SSE4, AVX2): the harnesses drive phase 1, the tensor and executor APIs
# and the kernel of whichever target the CPU picks; the sanitizer stage runs the
# same two targets' kernels under ASan (ISA-capped entries included). All five made the
# kernels (then one translation unit) ~290 s of this stage's ~400 s; with three
# of them left out and the kernels split by grad dtype the stage takes ~190 s.
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fsanitize=fuzzer-no-link -fno-sanitize-recover=undefined -shared-libsan"
link="-fsanitize=address,undefined -shared-libsan -Wl,-rpath,${resource_lib}"
cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_C_FLAGS="${flags}" -DCMAKE_CXX_FLAGS="${flags}" \
  -DCMAKE_EXE_LINKER_FLAGS="${link}" -DCMAKE_SHARED_LINKER_FLAGS="${link}" \
  -DACLCPU_HWY_DISABLED_TARGETS="SSSE3;SSE4;AVX2" -DACLCPU_FUZZ=ON >/dev/null
harnesses=(tensor_api hardsigmoid_backward hardsigmoid executor_sequence)
cmake --build "${build}" -j"${jobs}" --target "${harnesses[@]/#/fuzz_}"

mkdir -p "${build}/artifacts"
export ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_SYMBOLIZER_PATH="$(command -v llvm-symbolizer-14 || command -v llvm-symbolizer || true)"
unset ACLCPU_SOC  # the harnesses model the default SoC's rules
failed=()
for harness in "${harnesses[@]}"; do
  work="$(mktemp -d)"
  cp "${root}/tests/fuzz/corpus/${harness}/"* "${work}/"
  echo "--- fuzz_${harness}: ${seconds} s from $(ls "${work}" | wc -l) seeds"
  # The shared ASan runtime must be the first library loaded (libFuzzer pulls
  # libstdc++ in ahead of it), hence the preload.
  if LD_PRELOAD="${resource_lib}/libclang_rt.asan-x86_64.so" "${build}/tests/fuzz/fuzz_${harness}" "${work}" -max_total_time="${seconds}" -timeout=30 \
       -rss_limit_mb=4096 -max_len=2048 -print_final_stats=1 -artifact_prefix="${build}/artifacts/${harness}-" \
       2>"${build}/artifacts/${harness}.log"; then
    grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb|^#[0-9]+ +DONE' "${build}/artifacts/${harness}.log" || true
  else
    tail -n 60 "${build}/artifacts/${harness}.log"
    failed+=("${harness}")
  fi
  rm -rf "${work}"
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: failed: ${failed[*]} (inputs in ${build}/artifacts/)"
  exit 1
fi
echo "fuzz: ${#harnesses[@]} harnesses ran ${seconds} s each without a finding"
