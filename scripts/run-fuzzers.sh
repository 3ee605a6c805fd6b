#!/usr/bin/env bash
# Runs each libFuzzer target of the fuzz preset for SECONDS, starting from the corpus in the
# repository (fuzz/corpus/ and the shipped scenes, with the scene format's dictionary;
# fuzz/formula_corpus/ with the formula grammar's dictionary for the formula target). New inputs
# go to build/fuzz/corpus/TARGET/ (the repository's corpus is left as it is); a finding is written
# to build/fuzz/findings/ and ends the run with its reproducer's path. Add a fixed finding to
# fuzz/corpus/ so that every `make test` replays it (tests/fuzz/corpus_replay_test.cpp).
# Usage: scripts/run-fuzzers.sh BUILD_DIR SECONDS
set -euo pipefail
build=$1
seconds=$2
source_dir=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$build/findings"
for target in scene_loader load_and_step state_restore formula narrowphase; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  if [ "$target" = state_restore ]; then
    # Saved states (fuzz/corpus/state_*), each a model's byte and a state's items.
    cp -n "$source_dir"/fuzz/corpus/state_* "$corpus"/
    options=(-max_len=16384)
  elif [ "$target" = narrowphase ]; then
    # Shapes and poses from raw bytes: no corpus needed.
    options=(-max_len=128)
  elif [ "$target" = formula ]; then
    # Formula texts (fuzz/formula_corpus/), with the grammar's dictionary.
    cp -n "$source_dir"/fuzz/formula_corpus/* "$corpus"/
    options=(-max_len=512 -dict="$source_dir/fuzz/formula.dict")
  else
    cp -n "$source_dir"/fuzz/corpus/* "$source_dir"/scenes/*.json "$corpus"/
    options=(-max_len=4096 -dict="$source_dir/fuzz/scene.dict")
  fi
  echo "fuzz: $target for $seconds s (corpus $corpus)"
  "$build/fuzz/${target}_fuzzer" -max_total_time="$seconds" -print_final_stats=1 "${options[@]}" \
    -artifact_prefix="$build/findings/$target-" "$corpus"
done
echo "fuzz: no findings"
