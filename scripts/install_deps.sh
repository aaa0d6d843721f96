#!/usr/bin/env bash
# Installs the Debian 12 packages aclcpu needs to build and test, if any is missing.
# Usage: scripts/install_deps.sh [extra-package ...]
set -euo pipefail

packages=(g++ make cmake ninja-build libgtest-dev libgmock-dev libhwy-dev "$@")
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "aclcpu: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
