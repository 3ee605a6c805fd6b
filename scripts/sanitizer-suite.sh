#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer: the debug preset
# (assertions on, -O1), built and run by ctest without the few tests that take many minutes
# there, and without the load-scaling ratio, which times AddressSanitizer's allocator rather
# than ours (the debug test preset's filter in CMakePresets.json). `make sanitize` runs it; CI
# runs it after `make test` with the time it has left.
# Usage: scripts/sanitizer-suite.sh [MINUTES]
#   MINUTES  the time it may take; when the build or the tests have not finished by then it
#            stops and says so. Running out of time is not a failure, unless a test had already
#            failed; a test that fails is. Without MINUTES there is no limit.
set -euo pipefail
cd "$(dirname "$0")/.."
limited=$(( $# > 0 ))
minutes=${1:-0}
start=$SECONDS
log=build/debug/sanitizer-suite.log
out_of_time() {
  echo "sanitizers: $1 did not finish within the $minutes minutes CI had left: no result (run \`make sanitize\`)"
  exit 0
}
# Runs "$@" in the time left, its output also in $log; its status, 124 when the time ran out.
within() {
  local left=$(( minutes * 60 - (SECONDS - start) ))
  if [ "$limited" -eq 0 ]; then "$@" 2>&1 | tee -a "$log"; return "${PIPESTATUS[0]}"; fi
  [ "$left" -gt 0 ] || return 124
  timeout -k 30 "$left" "$@" 2>&1 | tee -a "$log"
  return "${PIPESTATUS[0]}"
}

[ "$limited" -eq 0 ] || [ "$minutes" -gt 0 ] || out_of_time "the build"
cmake --preset debug >/dev/null
mkdir -p build/debug
: > "$log"
status=0
within cmake --build --preset debug || status=$?
if [ "$status" -eq 124 ]; then out_of_time "the build"; elif [ "$status" -ne 0 ]; then exit "$status"; fi
built=$SECONDS
within ctest --preset debug || status=$?
if [ "$status" -eq 124 ]; then
  # The tests that finished count: one that failed is a failure, time or not.
  if grep -E "\*\*\*Failed|\*\*\*Exception|Subprocess aborted|\*\*\*Timeout" "$log"; then
    echo "sanitizers: tests failed before the time ran out"
    exit 1
  fi
  out_of_time "the tests"
elif [ "$status" -ne 0 ]; then
  exit "$status"
fi
echo "sanitizers: the suite passed under ASan and UBSan; build $(( (built - start) / 60 )) min, tests $(( (SECONDS - built) / 60 )) min"
