#!/usr/bin/env bash
# CI stage: packaging. Builds aclcpu's .deb with `cpack -G DEB`, installs it with
# apt-get, and uses it as each kind of CANN user would:
#   1. CANN's example with its CANN-style CMakeLists after
#      `source /usr/local/Ascend/aclcpu/set_env.sh`, output checked against PyTorch;
#   2. the same source built by a project that calls find_package(aclcpu) with no
#      hints and no environment (the package's forwarder in /usr/lib/<multiarch>);
#   3. the same source built with `pkg-config aclcpu` and `pkg-config aclcpu-opapi`;
#   4. the load-by-name program (dlopen by soname, as torch_npu does);
#   5. find_package and pkg-config against a plain `cmake --install --prefix` tree
#      (both are relocatable);
#   6. CANN's example built with no environment at all, through the link the
#      package offers at CANN's default path (/usr/local/Ascend/ascend-toolkit/latest,
#      made only when nothing is there);
# then removes the package and checks nothing is left behind, the link
# included; and installs and removes it once more over a link that is not its
# own, which both leave alone. About 30 s (reuses the main build; builds only
# the libraries if it is not there).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
build="${ACLCPU_MAIN_BUILD_DIR:-${root}/build-pkg}"
prefix=/usr/local/Ascend/aclcpu
cann_link=/usr/local/Ascend/ascend-toolkit/latest
expected="${root}/tests/example/expected_output.txt"
example_source="${root}/examples/hardsigmoid_backward/test_aclnn_hardsigmoid_backward.cpp"

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
"${root}/scripts/install_deps.sh" pkgconf

if dpkg-query -W -f='${Status}' aclcpu 2>/dev/null | grep -q "install ok installed"; then
  echo "an aclcpu package is already installed here; this stage installs and removes its own" >&2
  exit 1
fi

# What is at CANN's default path before we start: the package must leave it alone.
cann_link_before=""
if [ -e "${cann_link}" ] || [ -L "${cann_link}" ]; then
  cann_link_before="$(stat -c "%i %F %N" "${cann_link}")"
fi
# Directories this stage may create on the way to ${cann_link}, removed if it did.
made_dirs=()
for dir in /usr/local/Ascend/ascend-toolkit /usr/local/Ascend; do
  [ -e "${dir}" ] || made_dirs+=("${dir}")
done

work="$(mktemp -d)"
installed=0
foreign_link=0
cleanup() {
  [ "${installed}" = 1 ] && $sudo apt-get remove -y -qq aclcpu >/dev/null 2>&1
  [ "${foreign_link}" = 1 ] && $sudo rm -f "${cann_link}"
  for dir in "${made_dirs[@]}"; do $sudo rmdir "${dir}" 2>/dev/null || true; done
  rm -rf "${work}"
}
trap cleanup EXIT

# expect_cann_path <when>: CANN's default path is what the package must leave
# there: untouched if something was there before, else $1 ("our link" or "nothing").
expect_cann_path() {
  if [ -n "${cann_link_before}" ]; then
    [ "$(stat -c "%i %F %N" "${cann_link}")" = "${cann_link_before}" ] ||
      { echo "${cann_link} changed: was ${cann_link_before}," \
        "now $(stat -c "%i %F %N" "${cann_link}" 2>&1)" >&2; exit 1; }
  elif [ "$1" = "our link" ]; then
    [ -L "${cann_link}" ] && [ "$(readlink "${cann_link}")" = "${prefix}" ] ||
      { echo "${cann_link} is not a link to ${prefix}: $(ls -ld "${cann_link}" 2>&1)" >&2; exit 1; }
  else
    [ ! -e "${cann_link}" ] && [ ! -L "${cann_link}" ] ||
      { echo "${cann_link} left behind: $(ls -ld "${cann_link}")" >&2; exit 1; }
  fi
}

# ---- the package ----------------------------------------------------------------
if [ ! -f "${build}/CPackConfig.cmake" ]; then
  cmake -S "${root}" -B "${build}" -G Ninja -DCMAKE_BUILD_TYPE=Release -DACLCPU_TESTS=OFF >/dev/null
fi
cmake --build "${build}" -j2 --target ascendcl nnopbase opapi >/dev/null
(cd "${work}" && cpack -G DEB --config "${build}/CPackConfig.cmake" -B "${work}/package" >/dev/null)
deb="$(ls "${work}"/package/aclcpu_*.deb)"
echo "package: $(basename "${deb}") ($(du -k "${deb}" | cut -f1) KiB)"
contents="$(dpkg-deb -c "${deb}")"
for path in include/aclnnop/aclnn_hardsigmoid_backward.h include/aclnnop/aclnn_hardsigmoid.h include/acl/acl.h \
            lib64/libascendcl.so \
            lib64/libnnopbase.so lib64/libopapi.so lib64/libopapi_nn.so lib64/libopapi_math.so set_env.sh \
            share/cmake/aclcpu/aclcpuConfig.cmake lib64/pkgconfig/aclcpu.pc; do
  grep -q " \./${prefix#/}/${path}\( \|$\)" <<<"${contents}" || { echo "package lacks ${prefix}/${path}" >&2; exit 1; }
done

install_package() {
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${deb}" >"${work}/apt.log" 2>&1 ||
    { cat "${work}/apt.log" >&2; exit 1; }
  installed=1
}
install_package
echo "installed: $(dpkg-query -W -f='${Package} ${Version} ${Architecture}' aclcpu)"
expect_cann_path "our link"
if [ -z "${cann_link_before}" ]; then
  echo "CANN's default path: ${cann_link} -> $(readlink "${cann_link}")"
else
  echo "CANN's default path was taken, left as it was: ${cann_link_before}"
fi

# ---- 1. CANN's recipe -------------------------------------------------------------
# run_and_check <label> <program>: the example's output must be PyTorch's.
run_and_check() {
  "$2" >"${work}/output.txt"
  diff -u "${expected}" "${work}/output.txt"
  echo "$1: example output matches PyTorch"
}
(
  unset ASCEND_CUSTOM_PATH
  # shellcheck disable=SC1091
  source "${prefix}/set_env.sh"
  cmake -S "${root}/examples/hardsigmoid_backward" -B "${work}/cann" \
    -DCMAKE_CXX_COMPILER=g++ -DCMAKE_SKIP_RPATH=TRUE >/dev/null
  cmake --build "${work}/cann" >/dev/null
  cd "${work}/cann/bin" && run_and_check "CANN CMakeLists + set_env.sh" ./opapi_test
)

# ---- 2. find_package, nothing set --------------------------------------------------
mkdir -p "${work}/find_package"
cat >"${work}/find_package/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.14)
project(uses_aclcpu CXX)
find_package(aclcpu 0.1 REQUIRED)
add_executable(opapi_test "${example_source}")
target_link_libraries(opapi_test PRIVATE aclcpu::opapi)
EOF
(
  unset ASCEND_HOME_PATH ASCEND_TOOLKIT_HOME ASCEND_CUSTOM_PATH LD_LIBRARY_PATH CMAKE_PREFIX_PATH
  cmake -S "${work}/find_package" -B "${work}/find_package/build" >/dev/null
  cmake --build "${work}/find_package/build" >/dev/null
  # Imported targets give the build tree an RPATH: no set_env.sh needed to run.
  run_and_check "find_package(aclcpu), no environment" "${work}/find_package/build/opapi_test"
)

# ---- 3. pkg-config ------------------------------------------------------------------
(
  unset PKG_CONFIG_PATH
  # shellcheck disable=SC1091
  source "${prefix}/set_env.sh"
  for module in aclcpu aclcpu-opapi; do
    # shellcheck disable=SC2046
    g++ -std=c++11 $(pkg-config --cflags "${module}") "${example_source}" -o "${work}/pc_${module}" \
      $(pkg-config --libs "${module}")
    run_and_check "pkg-config ${module} ($(pkg-config --modversion "${module}"))" "${work}/pc_${module}"
  done
)

# ---- 4. load by name -------------------------------------------------------------------
(
  cmake -S "${root}/tests/load_by_name" -B "${work}/load_by_name" >/dev/null
  cmake --build "${work}/load_by_name" >/dev/null
  unset LD_LIBRARY_PATH
  # shellcheck disable=SC1091
  source "${prefix}/set_env.sh"
  echo "load by name: $("${work}/load_by_name/aclcpu_load_by_name" "${root}/tests/load_by_name/cases.txt" | tail -1)"
)

# ---- 5. a relocated install tree ---------------------------------------------------------
cmake --install "${build}" --prefix "${work}/elsewhere/aclcpu" >/dev/null
(
  cmake -S "${work}/find_package" -B "${work}/find_package/relocated" \
    -DCMAKE_PREFIX_PATH="${work}/elsewhere/aclcpu" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF >/dev/null
  found="$(sed -n 's/^aclcpu_DIR:PATH=//p' "${work}/find_package/relocated/CMakeCache.txt")"
  [ "${found}" = "${work}/elsewhere/aclcpu/share/cmake/aclcpu" ] || { echo "found aclcpu at ${found}" >&2; exit 1; }
  cmake --build "${work}/find_package/relocated" >/dev/null
  run_and_check "find_package in a --prefix tree" "${work}/find_package/relocated/opapi_test"
  cflags="$(PKG_CONFIG_PATH="${work}/elsewhere/aclcpu/lib64/pkgconfig" pkg-config --cflags aclcpu)"
  # ${pcfiledir}/../../include: the same directory, spelled from the .pc file.
  include_dir="${cflags%% *}"
  include_dir="${include_dir#-I}"
  [ "$(readlink -f "${include_dir}")" = "${work}/elsewhere/aclcpu/include" ] ||
    { echo "pkg-config gave ${cflags}" >&2; exit 1; }
  echo "pkg-config in a --prefix tree: ${cflags}"
)

# ---- 6. CANN's default path, no environment ------------------------------------------------
if [ -z "${cann_link_before}" ]; then
  (
    unset ASCEND_CUSTOM_PATH ASCEND_HOME_PATH ASCEND_TOOLKIT_HOME LD_LIBRARY_PATH
    # With neither variable set, the CMakeLists falls back to CANN's default path.
    cmake -S "${root}/examples/hardsigmoid_backward" -B "${work}/cann_default" \
      -DCMAKE_CXX_COMPILER=g++ -DCMAKE_SKIP_RPATH=TRUE >/dev/null
    cmake --build "${work}/cann_default" >/dev/null
    export LD_LIBRARY_PATH="${cann_link}/lib64"
    cd "${work}/cann_default/bin" && run_and_check "CANN CMakeLists, no environment (${cann_link})" ./opapi_test
  )
fi

# ---- removal ---------------------------------------------------------------------------
# remove_package: removes it and checks that nothing of it is left.
remove_package() {
  $sudo apt-get remove -y -qq aclcpu >"${work}/apt.log" 2>&1 || { cat "${work}/apt.log" >&2; exit 1; }
  installed=0
  local multiarch path
  multiarch="$(gcc -print-multiarch)"
  for path in "${prefix}" "/usr/lib/${multiarch}/cmake/aclcpu" "/usr/lib/${multiarch}/pkgconfig/aclcpu.pc"; do
    [ ! -e "${path}" ] || { echo "${path} left after removing the package" >&2; exit 1; }
  done
}
remove_package
expect_cann_path "nothing"
echo "package removed cleanly"

# ---- a link at CANN's path that is not ours ---------------------------------------------------
# Installing does not replace it and removing does not delete it.
if [ -z "${cann_link_before}" ]; then
  $sudo mkdir -p "$(dirname "${cann_link}")"
  $sudo ln -s "${work}/not-aclcpu" "${cann_link}"
  foreign_link=1
  cann_link_before="$(stat -c "%i %F %N" "${cann_link}")"
  install_package
  expect_cann_path "not ours"
  remove_package
  expect_cann_path "not ours"
  $sudo rm -f "${cann_link}"
  foreign_link=0
  echo "a link at ${cann_link} that is not the package's: left alone by install and removal"
fi
