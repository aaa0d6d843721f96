#!/usr/bin/env bash
# Instructions per 1-element call (phase 1 + phase 2 + aclrtSynchronizeStream),
# counted by single-stepping (single_step_counter.cc): exact and independent of
# the machine's load, unlike a timing, and needing no PMU.
#
# Usage: bench/instruction_count/count_instructions.sh <build dir> [<baseline build dir>]
#   each a CMake build directory of aclcpu (its src/ holds the three libraries);
#   with a baseline, also prints the ratio. The per-call figure is the
#   difference between runs of 20 and 10 calls, divided by 10, so the markers'
#   own cost cancels out. ACLCPU_COUNT_PART=phase1|phase2|sync counts that part
#   of each call only (plus a few instructions of the markers themselves);
#   ACLCPU_COUNT_OP=forward counts aclnnHardsigmoid instead of the backward op.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "${here}/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "${work}"' EXIT
[ $# -ge 1 ] || { echo "usage: $0 <build dir> [<baseline build dir>]" >&2; exit 2; }

c++ -O2 -o "${work}/single_step_counter" "${here}/single_step_counter.cc"

# per_call <build dir>: instructions of one call against that build's libraries.
per_call() {
  local build="$1" libs
  libs="$(cd "${build}/src" && pwd):$(cd "${build}/src/runtime" && pwd)"
  c++ -O2 -I"${root}/include" -o "${work}/one_element_calls" "${here}/one_element_calls.cc" \
    -L"${build}/src" -L"${build}/src/runtime" -lopapi -lnnopbase -lascendcl
  local ten twenty
  ten=$(LD_LIBRARY_PATH="${libs}" "${work}/single_step_counter" "${work}/one_element_calls" 10 | awk '{print $2}')
  twenty=$(LD_LIBRARY_PATH="${libs}" "${work}/single_step_counter" "${work}/one_element_calls" 20 | awk '{print $2}')
  echo $(( (twenty - ten) / 10 ))
}

current=$(per_call "$1")
echo "instructions per 1-element call: ${current} ($1)"
if [ $# -ge 2 ]; then
  baseline=$(per_call "$2")
  echo "instructions per 1-element call: ${baseline} ($2, baseline)"
  awk -v a="${current}" -v b="${baseline}" 'BEGIN { printf "ratio: %.3f\n", a / b }'
fi
