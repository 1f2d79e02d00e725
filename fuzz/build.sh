#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: uses $CXX, $CXXFLAGS, $LIB_FUZZING_ENGINE and $OUT.
# Builds every fuzz/<family>_<name>.cpp against every reference/ source (plus gpu/core's host symbol).
# Needs the Debian packages of ci/deps (Boost, OpenSSL, libsodium headers and libraries).
SRC_ROOT=$(cd "$(dirname "$0")/.." && pwd)
for src in "$SRC_ROOT"/fuzz/*_*.cpp; do
  target=$(basename "$src" .cpp)
  [ "$target" = replay_main ] && continue
  $CXX $CXXFLAGS -std=c++20 -I"$SRC_ROOT" "$src" "$SRC_ROOT"/reference/*/*.cpp "$SRC_ROOT/gpu/core/ptx_on_host.cpp" \
    $LIB_FUZZING_ENGINE -lcrypto -lsodium -o "$OUT/${target}_fuzz"
  [ -f "$SRC_ROOT/fuzz/$target.dict" ] && cp "$SRC_ROOT/fuzz/$target.dict" "$OUT/${target}_fuzz.dict"
  (cd "$SRC_ROOT/fuzz/corpus/$target" && zip -q -r "$OUT/${target}_fuzz_seed_corpus.zip" .)
done
