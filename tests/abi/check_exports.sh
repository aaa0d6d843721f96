#!/usr/bin/env bash
# Compares a library's exported (defined, dynamic) symbols with the committed
# list: only CANN's C API and our one internal service entry point may leave it.
# Usage: check_exports.sh <library.so> <expected symbol list>
set -euo pipefail
library="$1" expected="$2"
actual="$(mktemp)"
trap 'rm -f "${actual}"' EXIT
nm -D --defined-only "${library}" | awk '{print $3}' | sed 's/@.*//' | sort -u >"${actual}"
if ! diff -u "${expected}" "${actual}"; then
  echo "exports of ${library} differ from ${expected} (update the list if the change is deliberate)" >&2
  exit 1
fi
echo "$(wc -l <"${actual}") exports of $(basename "${library}") match"
