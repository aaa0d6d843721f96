#!/usr/bin/env bash
# Cross-builds aclcpu for aarch64 (Kunpeng and other Arm servers) with Debian's
# g++-aarch64-linux-gnu and arm64 libraries from multiarch, then runs the tests
# under qemu-aarch64 (qemu-user) on four emulated CPUs, so that every aarch64
# SIMD path Highway has is checked against the scalar reference and PyTorch:
#
#   neon      QEMU_CPU=max,sve=off                         NEON only
#   sve2      QEMU_CPU=max (SVE2, 512-bit vectors)         sve2, sve, neon
#   sve_256   QEMU_CPU=max,sve-default-vector-length=32    sve_256, sve2, sve, neon
#   sve2_128  QEMU_CPU=max,sve-default-vector-length=16    sve2_128, sve2, sve, neon
#
# On each: the unit tests and the forward pair's kernel tests (the targets the CPU adds to the matrix against the
# scalar reference — neon on the first, then sve2 and sve at 512 bits, sve_256
# and sve at 256, sve2_128 and sve2 at 128 — and the suites that loop over
# every target; the script checks the expected targets are instantiated) and the
# numerics, layouts and ops-nn suites on the best target (checked through the
# `isa=` of ACLCPU_VERBOSE's plans). On the neon and sve2 CPUs also the
# load-by-name program against an install of the cross build; on the sve2 CPU
# also numerics and layouts capped to plain SVE (ACLCPU_MAX_ISA=sve), the
# runtime, worker pool and meta/validation/phase-2 API suites; and the exported
# symbols of the aarch64 libraries against the committed lists. Before the
# tests: libopapi.so must hold no SVE gather or scatter instruction, and no
# per-vector lambda compiled as a function of its own.
#
# Not run emulated: the death tests (three in the runtime suite, two in the
# phase-2 suite: gtest re-executes the test binary, which the host kernel cannot
# start without binfmt_misc), the per-SoC
# API runs (api_soc_test: no architecture-dependent code), the example
# build (it compiles with the host's g++), the 8.4M-element f16/bf16 layout
# test (two minutes of emulation) and the 4.5M-element step-2 float32 one (the
# streaming kernels both reach run in the unit tests on every Arm target), and
# on the CPUs after sve2 the 4.5M-element contiguous float32 one. The
# binaries are run whole rather than through CTest, which would start qemu once
# per test case. The kernel tests make each input once per process
# (SharedKernelTestValues): generating them emulated used to take most of the
# unit suites' time.
#
# Usage: scripts/cross_aarch64.sh          (build directory: build-arm64/)
#        ACLCPU_ARM64_BUILD_DIR=dir scripts/cross_aarch64.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ACLCPU_ARM64_BUILD_DIR:-${root}/build-arm64}"

if [ "$(uname -m)" != "x86_64" ]; then
  echo "cross_aarch64.sh cross-builds from an x86-64 host; on aarch64 run scripts/run_tests.sh" >&2
  exit 1
fi

# ---- toolchain: cross compiler, qemu-user, arm64 libraries through multiarch ----
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
  $sudo dpkg --add-architecture arm64
fi
# install_deps.sh runs apt-get update before installing anything missing, which
# also picks up the arm64 package lists after the architecture was added.
"${root}/scripts/install_deps.sh" g++-aarch64-linux-gnu binutils-aarch64-linux-gnu qemu-user \
  libhwy-dev:arm64 libgtest-dev:arm64 libgmock-dev:arm64

# ---- build --------------------------------------------------------------------
start=$(date +%s)
cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_TOOLCHAIN_FILE="${root}/cmake/aarch64-linux-gnu.toolchain.cmake" >/dev/null
# Only what runs below: other suites (sanitizer, fuzz, stress builds...) are
# not run emulated, so they are not built either.
cmake --build "${build}" -j2 --target ascendcl nnopbase opapi aclcpu_unit_tests thread_pool_test \
  numerics_test layouts_test opsnn_cases_test runtime_tests \
  api_meta_api_test api_validation_test api_phase2_test aclcpu_load_by_name \
  hardsigmoid_kernel_test hardsigmoid_golden_test
echo "aarch64: cross build took $(( $(date +%s) - start )) s"

# No SVE gather or scatter (LD1W {z0.s}, p0/z, [x0, z1.s, sxtw #2] and kin) in
# the operator: the auto-vectoriser makes them of strided loops unless those are
# kept scalar (src/simd/keep_scalar.h).
bash "${root}/tests/abi/check_hot_path_instructions.sh" --rule gathers --objdump aarch64-linux-gnu-objdump \
  "$(find "${build}/src" -name libopapi.so | head -1)"
bash "${root}/tests/abi/check_inlined_lambdas.sh" --objdump aarch64-linux-gnu-objdump \
  "$(find "${build}/src" -name libopapi.so | head -1)"

# ---- tests under qemu ---------------------------------------------------------
unset QEMU_LD_PREFIX ACLCPU_MAX_ISA ACLCPU_SOC ACLCPU_NUM_THREADS ACLCPU_VERBOSE
log="$(mktemp -d)"
trap 'rm -rf "${log}"' EXIT
qemu=(qemu-aarch64)

# run_gtest <label> <binary> [gtest args...]: runs one test binary emulated.
run_gtest() {
  local label="$1" binary="$2" started
  shift 2
  started=$(date +%s)
  if ! "${qemu[@]}" "${build}/${binary}" --gtest_brief=1 "$@" >"${log}/out.txt" 2>&1; then
    cat "${log}/out.txt" >&2
    echo "aarch64 ${label}: $(basename "${binary}") failed" >&2
    exit 1
  fi
  echo "aarch64 ${label}: $(basename "${binary}") $(grep -o 'PASSED.*' "${log}/out.txt" | tail -1)" \
       "($(( $(date +%s) - started )) s)"
}

# check_unit_targets <label> <target...>: the unit tests must be instantiated
# for exactly these SIMD targets on this CPU (so a qemu that silently lost SVE
# fails here instead of testing less).
check_unit_targets() {
  local label="$1"
  shift
  local listed
  listed="$("${qemu[@]}" "${build}/tests/unit/aclcpu_unit_tests" --gtest_list_tests |
            sed -n 's/^  HalfToFloatMatchesScalarForAll65536Inputs\/\([a-z0-9_]*\).*/\1/p' | sort | tr '\n' ' ')"
  local expected
  expected="$(printf '%s\n' "$@" | sort | tr '\n' ' ')"
  if [ "${listed}" != "${expected}" ]; then
    echo "aarch64 ${label}: unit tests instantiated for [${listed}], expected [${expected}]" >&2
    exit 1
  fi
  echo "aarch64 ${label}: unit tests cover targets ${listed}"
}

# run_op_suites <label> <expected isa> [--short]: numerics, layouts (and ops-nn
# cases) with verbose plans; every plan must name the expected target.
run_op_suites() {
  local label="$1" isa="$2" suites=(numerics_test layouts_test opsnn_cases_test)
  local huge="Layouts.HugeContiguousHalfOutputsTakeTheNonTemporalStorePath"
  huge+=":Layouts.HugeStep2FloatViewsTakeTheNonTemporalStorePath"
  # Rows of out streamed one by one: the same streaming kernels as the huge
  # contiguous test kept here, through the launch's row loop, which is not
  # architecture-specific; under qemu it took about a minute per target.
  huge+=":Layouts.HugeLaunchesWithRowsOfOutTakeTheNonTemporalStorePath"
  # The short runs leave out the ops-nn cases and the huge contiguous float32
  # launch (4.5M elements, 7 s emulated on a Zen 4 VM), which run on the neon
  # and sve2 CPUs; each target's streaming kernels run in its unit tests.
  if [ "${3:-}" = "--short" ]; then
    suites=(numerics_test layouts_test)
    huge+=":Layouts.HugeContiguousFloatOutputTakesTheNonTemporalStorePath"
  fi
  local suite
  for suite in "${suites[@]}"; do
    ACLCPU_VERBOSE=1 run_gtest "${label}" "tests/op/${suite}" "--gtest_filter=-${huge}"
    local seen
    seen="$(grep -o 'isa=[a-z0-9_]*' "${log}/out.txt" | sort -u | tr '\n' ' ')"
    if [ "${seen}" != "isa=${isa} " ]; then
      echo "aarch64 ${label}: ${suite} ran on [${seen}], expected isa=${isa}" >&2
      exit 1
    fi
  done
  echo "aarch64 ${label}: op suites ran on isa=${isa}"
}

# run_unit_tests_for <label> <target...>: the unit tests on this CPU, limited to
# what the CPUs before it in the matrix did not already run: the per-target
# cases of the given targets only, and the suites that loop over every target
# the CPU has (tiles, streaming stores, same-type and in-place kernels, target
# selection). The target-independent suites (16-bit conversions, dtype rules,
# the stride iterator) run on the first CPU alone.
run_unit_tests_for() {
  local label="$1" filter="" target
  shift
  for target in "$@"; do
    # Per-dtype-path names are <target>_<DTYPE>_..., dtypes spelled FLOAT*/BF16.
    filter+="EveryTarget/*/${target}:EveryTargetAndDtypePath/*/${target}_F*:EveryTargetAndDtypePath/*/${target}_B*:"
  done
  filter+="SimdKernelSameHalfType.*:SimdKernelFloatWindow.*:SimdTileKernel.*:SimdStreamingKernel.*"
  filter+=":SimdKernelInPlace.*:SimdTargets.*"
  run_gtest "${label}" tests/unit/aclcpu_unit_tests "--gtest_filter=${filter}"
  run_forward_kernels_for "${label}" "$@"
}

# run_forward_kernels_for <label> <target...>: the forward pair's kernels of
# these targets against its scalar reference (names <target>_<DTYPE>[_streaming]).
run_forward_kernels_for() {
  local label="$1" filter="" target
  shift
  for target in "$@"; do filter+="EveryTargetAndDtype/*/${target}_F*:EveryTargetAndDtype/*/${target}_B*:EveryTargetAndDtype/*/${target}_I*:"; done
  run_gtest "${label}" tests/hardsigmoid/hardsigmoid_kernel_test "--gtest_filter=${filter%:}"
}

run_load_by_name() {
  local label="$1"
  bash "${root}/tests/load_by_name/run_load_by_name_test.sh" "${build}" \
    "${root}/tests/load_by_name/cases.txt" "${qemu[@]}" "${build}/tests/load_by_name/aclcpu_load_by_name" \
    >"${log}/out.txt" 2>&1 || { cat "${log}/out.txt" >&2; echo "aarch64 ${label}: load by name failed" >&2; exit 1; }
  echo "aarch64 ${label}: load by name $(tail -1 "${log}/out.txt")"
}

start=$(date +%s)
export QEMU_CPU="max,sve=off"
check_unit_targets neon neon
run_gtest neon tests/unit/aclcpu_unit_tests
run_gtest neon tests/hardsigmoid/hardsigmoid_kernel_test  # every target this CPU has, and the scalar reference
run_op_suites neon neon
run_load_by_name neon

export QEMU_CPU="max"
check_unit_targets sve2 sve2 sve neon
run_unit_tests_for sve2 sve2 sve
run_op_suites sve2 sve2
ACLCPU_MAX_ISA=sve run_op_suites sve2-capped-to-sve sve --short
# The forward pair against PyTorch's golden data through the API, on the best target.
run_gtest sve2 tests/hardsigmoid/hardsigmoid_golden_test "--gtest_filter=-*HugeLaunches*"
run_load_by_name sve2
# These re-execute the binary (threadsafe death tests): see the header.
death_tests="Device.CountOutsideOneToSixtyFourFallsBackToOne:RecentErrMsg.VerbosePrintsEachMessageOnStderr"
death_tests+=":SocName.UnknownSocIsNullWithMessageListingKnownNames"
run_gtest sve2 tests/runtime/runtime_tests "--gtest_filter=-${death_tests}"
run_gtest sve2 tests/unit/thread_pool_test
for suite in meta_api validation; do run_gtest sve2 "tests/api/api_${suite}_test"; done
death_tests="Phase2.VerboseLogsEachPlansDtypesShapePathTargetAndThreads"
death_tests+=":Phase2.VerboseSaysWhichHugeLaunchesStoreNonTemporally"
run_gtest sve2 tests/api/api_phase2_test "--gtest_filter=-${death_tests}"

export QEMU_CPU="max,sve-default-vector-length=32"
check_unit_targets sve_256 sve_256 sve2 sve neon
run_unit_tests_for sve_256 sve_256 sve  # and scalable SVE at 256 bits
run_op_suites sve_256 sve_256 --short

export QEMU_CPU="max,sve-default-vector-length=16"
check_unit_targets sve2_128 sve2_128 sve2 sve neon
run_unit_tests_for sve2_128 sve2_128 sve2  # and scalable SVE2 at 128 bits
run_op_suites sve2_128 sve2_128 --short
unset QEMU_CPU

for library in ascendcl nnopbase opapi; do
  bash "${root}/tests/abi/check_exports.sh" "$(find "${build}/src" -name "lib${library}.so" | head -1)" \
    "${root}/tests/abi/exports/lib${library}.symbols"
done
echo "aarch64: emulated tests took $(( $(date +%s) - start )) s"
