#!/usr/bin/env bash
# Builds aclcpu's benchmark, runs it once per thread count (aclcpu reads
# ACLCPU_NUM_THREADS once per process) and writes the results into
# bench/README.md. Installs what it needs from Debian (Google Benchmark and the
# optional peers libtorch and oneDNN) first. Takes about 5-8 minutes on 2 cores.
#
# Usage: bench/run_bench.sh [google-benchmark flags...]
#   e.g. bench/run_bench.sh --benchmark_filter='f32/contig' --benchmark_repetitions=3
#        bench/run_bench.sh --isa-sweep [isa_sweep.py flags...]
#   --isa-sweep: the portability sweep instead (bench/isa_sweep.py: every case under
#   every SIMD target of this CPU, interleaved rounds, 1 thread unless
#   --threads=2; about 15 minutes on 2 cores), recorded as
#   bench/results/<cpu>.md (bench/cpu_record.py) and summarised in bench/README.md;
#   exits 1 when a target is confirmed more than 15 % slower than a lower one.
# Environment: ACLCPU_BENCH_BUILD_DIR (default <repo>/build-bench),
#              ACLCPU_BENCH_THREADS (default "1 2"),
#              ACLCPU_BENCH_README (default <repo>/bench/README.md),
#              ACLCPU_BENCH_IDLE_WAIT (default 300: seconds to wait for an idle machine).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${ACLCPU_BENCH_BUILD_DIR:-$root/build-bench}"
thread_counts="${ACLCPU_BENCH_THREADS:-1 2}"
readme="${ACLCPU_BENCH_README:-$root/bench/README.md}"
results="$build/bench-results"

"$root/scripts/install_deps.sh" libbenchmark-dev libtorch-dev libdnnl-dev

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DACLCPU_BENCH=ON -DACLCPU_TESTS=OFF >/dev/null
cmake --build "$build" -j2 --target aclcpu_bench

# Busy and total jiffies of the whole machine, from /proc/stat.
machine_jiffies() { awk '/^cpu / { busy = $2 + $3 + $4 + $7 + $8 + $9; print busy, busy + $5 + $6 }' /proc/stat; }

cores() { printf '%d.%02d' $(( $1 / 100 )) $(( $1 % 100 )); }

# Waits (at most $ACLCPU_BENCH_IDLE_WAIT seconds) until the rest of the machine
# uses less than 0.2 cores: on a 2-core VM a single busy neighbour wrecks every
# 2-thread measurement (a fork-join then waits for a whole time slice).
wait_for_idle() {
  local deadline=$(( $(date +%s) + ${ACLCPU_BENCH_IDLE_WAIT:-300} ))
  while :; do
    read -r busy0 total0 < <(machine_jiffies); sleep 2; read -r busy1 total1 < <(machine_jiffies)
    local cores_busy_x100=$(( (busy1 - busy0) * 100 * $(nproc) / (total1 - total0 > 0 ? total1 - total0 : 1) ))
    (( cores_busy_x100 < 20 )) && return 0
    if (( $(date +%s) >= deadline )); then
      echo "aclcpu bench: machine still busy ($(cores "$cores_busy_x100") cores); measuring anyway" >&2
      return 0
    fi
    echo "aclcpu bench: waiting for the machine to be idle ($(cores "$cores_busy_x100") cores busy)" >&2
    sleep 10
  done
}

if [ "${1:-}" = "--isa-sweep" ]; then
  shift
  sweep="$build/isa-sweep"
  rm -rf "$sweep"
  wait_for_idle
  status=0
  python3 "$root/bench/isa_sweep.py" --bench "$build/bench/aclcpu_bench" --out "$sweep" "$@" || status=$?
  (( status <= 1 )) || exit "$status"  # 1 = something flagged; anything else is a failure of the sweep
  python3 "$root/bench/cpu_record.py" --sweep "$sweep" --repo "$root" --results "$root/bench/results"
  python3 "$root/bench/make_readme.py" --cpus-only --results-dir "$root/bench/results" --out "$readme"
  exit "$status"
fi

mkdir -p "$results"
rm -f "$results"/*
uptime >"$results/load.txt"
# The commit measured (make_readme.py can be rerun on these results later).
{ git -C "$root" rev-parse --short HEAD
  git -C "$root" status --porcelain -- src include; } >"$results/commit.txt" 2>/dev/null || true
started=$(date +%s)
for threads in $thread_counts; do
  wait_for_idle
  echo "aclcpu bench: ACLCPU_NUM_THREADS=$threads" >&2
  read -r busy0 _ < <(machine_jiffies)
  run_start=$(date +%s.%N)
  TIMEFORMAT='%U %S'
  { time ACLCPU_NUM_THREADS="$threads" "$build/bench/aclcpu_bench" \
      --summary_tsv="$results/threads-$threads.tsv" "$@" 2>&3 | tee "$results/threads-$threads.log"; } \
    3>&2 2>"$results/cpu-$threads.txt"
  read -r busy1 _ < <(machine_jiffies)
  # What the rest of the machine used meanwhile, in cores: all busy time minus ours.
  awk -v busy="$(( busy1 - busy0 ))" -v hz="$(getconf CLK_TCK)" -v start="$run_start" -v end="$(date +%s.%N)" \
    '{ printf "%.2f\n", (busy / hz - $1 - $2) / (end - start) }' "$results/cpu-$threads.txt" \
    >"$results/other-load-$threads.txt"
done
echo "$(( $(date +%s) - started ))" >"$results/seconds.txt"
uptime >>"$results/load.txt"

python3 "$root/bench/make_readme.py" --results "$results" --repo "$root" --out "$readme" -- "$@"
echo "aclcpu bench: wrote $readme" >&2
