#!/usr/bin/env bash
# CI stage: sanitizers (issue "Reliability", clause 3).
#   1. ASan + UBSan (GCC, -O1): the whole CTest suite, in its own build directory.
#      Leaks are errors (LeakSanitizer), and so is any undefined behaviour
#      (-fno-sanitize-recover). The CANN example test is left out: it builds the
#      example with the plain toolchain against the install tree, which cannot load
#      ASan-instrumented libraries (ASan must come first in the link order).
#      Suites whose cases do not depend on a fresh process run as a few processes
#      each (ACLCPU_TESTS_WHOLE_BINARIES, cmake/aclcpuGTest.cmake), not one per
#      case: an instrumented process start costs more than most cases, and the
#      same cases run one per process in the main build and in strict mode.
#      The x86 targets below AVX-512 (SSSE3, SSE4, AVX2) are left out, as in the
#      TSan and fuzz builds: compiling them was a fifth of this stage, which keeps
#      CI inside its 30 minutes. Their kernels are Highway's same width-agnostic
#      code as AVX-512's and the portable fallback's, which run here (ISA-capped
#      entries included); the main build checks their results against the scalar
#      reference on every target, and the aarch64 stage runs 128-bit NEON.
#      The tests' own code (ACLCPU_TEST_CODE_FLAGS, tests/CMakeLists.txt) is
#      compiled without the instrumentation that made up most of its compile
#      time: ASan's use-after-scope poisoning and UBSan's null, alignment,
#      object-size and vptr checks (tests/api/validation_test.cc: 31 s -> 14 s,
#      g++ 12). The libraries keep all of them, and ASan's other checks, stack
#      use after return included, stay on in the tests too. (-O0 instead would
#      compile faster still but made the suite's run twice as long.)
#      Threads.three.hardsigmoid_golden_test is left out too: the forward pair's
#      golden data through three threads, which the main build and strict mode
#      run, was this stage's longest test (70 s of 236 on an AMD Zen 3 VM, where
#      the whole CI took 30.0 minutes); Threads.three.layouts_test keeps every
#      layout's partitioned launches under ASan, and the golden test runs here
#      on one thread.
#   2. TSan (GCC, -O1): the runtime suite, the phase-2/executor suite, the executor
#      fuzz corpus, the fault-injection walks, the worker pool's tests and the
#      stress test (at a quarter of its iterations).
# Build directories: $ACLCPU_ASAN_BUILD_DIR (default build-asan/) and
# $ACLCPU_TSAN_BUILD_DIR (default build-tsan/), both under the source tree.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
asan="${ACLCPU_ASAN_BUILD_DIR:-${root}/build-asan}"
tsan="${ACLCPU_TSAN_BUILD_DIR:-${root}/build-tsan}"
jobs="${ACLCPU_JOBS:-2}"

"${root}/scripts/install_deps.sh"

step() { echo "--- $1 ($(( $(date +%s) - t0 )) s)"; }
asan_failed=0
tsan_failed=0
t0=$(date +%s)

# ---- ASan + UBSan: everything -------------------------------------------------------------
asan_flags="-O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
cmake -S "${root}" -B "${asan}" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="${asan_flags}" -DCMAKE_CXX_FLAGS="${asan_flags}" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" \
  -DACLCPU_FUZZ_REPLAY_RANDOM=1000 -DACLCPU_TESTS_WHOLE_BINARIES=ON -DACLCPU_HWY_DISABLED_TARGETS="SSSE3;SSE4;AVX2" \
  -DACLCPU_TEST_CODE_FLAGS="-O1;-g1;-fno-sanitize-address-use-after-scope;-fno-sanitize=null,alignment,object-size,vptr" \
  >/dev/null
step "ASan+UBSan build"
cmake --build "${asan}" -j"${jobs}"
step "ASan+UBSan tests"
ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1" \
UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
ACLCPU_STRESS_SCALE=0.5 \
  ctest --test-dir "${asan}" -j"${jobs}" --output-on-failure --timeout 900 \
    -E '^(Example\.|Threads\.three\.hardsigmoid_golden_test$)' || asan_failed=1

# ---- TSan: runtime, streams, executors, stress ------------------------------------------
# TSan looks at threads, not SIMD: its kernels are compiled for AVX-512 and the
# portable fallback only (the ASan run above covers every target).
tsan_flags="-O1 -g1 -fno-omit-frame-pointer -fsanitize=thread"
cmake -S "${root}" -B "${tsan}" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_C_FLAGS="${tsan_flags}" -DCMAKE_CXX_FLAGS="${tsan_flags}" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=thread" -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=thread" \
  -DACLCPU_HWY_DISABLED_TARGETS="SSSE3;SSE4;AVX2" -DACLCPU_FUZZ_REPLAY_RANDOM=300 >/dev/null
step "TSan build"
cmake --build "${tsan}" -j"${jobs}" --target runtime_tests api_phase2_test stress_test fuzz_executor_sequence_replay \
  fault_injection_test thread_pool_test hardsigmoid_executor_test
step "TSan tests"
# halt_on_error: the first race fails the test; second_deadlock_stack for lock-order reports.
TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:history_size=4" \
ACLCPU_STRESS_SCALE=0.25 \
  ctest --test-dir "${tsan}" -j"${jobs}" --output-on-failure --timeout 900 \
    -R '^(runtime\.|api\.Phase2|stress\.|Fuzz\.replay\.executor_sequence|fault\.FaultInjection\.|ThreadPool\.|hardsigmoid\.(threads[13]\.)?Executors\.)' \
    || tsan_failed=1
step "sanitizers done"
[ "${asan_failed}" = 0 ] || echo "sanitizers: the ASan+UBSan suite failed (see above)"
[ "${tsan_failed}" = 0 ] || echo "sanitizers: the TSan suite failed (see above)"
[ "${asan_failed}" = 0 ] && [ "${tsan_failed}" = 0 ]
