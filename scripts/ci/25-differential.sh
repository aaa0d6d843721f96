#!/usr/bin/env bash
# CI stage: differential test against PyTorch (issue "Reliability", clause 6).
# Installs Debian's python3-torch if missing (~45 s), builds the driver in the
# main build directory if needed, and runs ACLCPU_DIFF_CASES (default 20000)
# random cases with seed ACLCPU_DIFF_SEED (default 1), then 5000 more with the
# SIMD target capped at SSE4 and three threads, so the other code paths meet
# PyTorch too; then the same for aclnnHardsigmoid / aclnnInplaceHardsigmoid
# (run_hardsigmoid_differential.py, a fifth of the cases each way). A mismatch
# prints the case and fails the stage.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${ACLCPU_MAIN_BUILD_DIR:-${root}/build}"
cases="${ACLCPU_DIFF_CASES:-20000}"
seed="${ACLCPU_DIFF_SEED:-1}"

"${root}/scripts/install_deps.sh" python3-numpy
if ! /usr/bin/python3 -c 'import torch' 2>/dev/null; then
  echo "aclcpu: installing python3-torch" >&2
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends python3-torch >/dev/null
fi
if [ ! -x "${build}/tests/differential/hsb_diff_driver" ] || [ ! -x "${build}/tests/differential/hs_diff_driver" ]; then
  cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "${build}" -j2 --target hsb_diff_driver hs_diff_driver
fi
driver="${build}/tests/differential/hsb_diff_driver"
/usr/bin/python3 "${root}/tests/differential/run_differential.py" --driver "${driver}" --cases "${cases}" --seed "${seed}"
ACLCPU_MAX_ISA=sse4 ACLCPU_NUM_THREADS=3 \
  /usr/bin/python3 "${root}/tests/differential/run_differential.py" --driver "${driver}" --cases 5000 --seed "$((seed + 1))"
forward="${build}/tests/differential/hs_diff_driver"
/usr/bin/python3 "${root}/tests/differential/run_hardsigmoid_differential.py" --driver "${forward}" \
  --cases "$((cases / 5))" --seed "${seed}"
ACLCPU_MAX_ISA=sse4 ACLCPU_NUM_THREADS=3 \
  /usr/bin/python3 "${root}/tests/differential/run_hardsigmoid_differential.py" --driver "${forward}" \
  --cases 1000 --seed "$((seed + 1))"
