#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: uses $CXX, $CXXFLAGS, $LIB_FUZZING_ENGINE and $OUT.
# Needs the Debian packages of ci/deps (Boost, OpenSSL, libsodium headers and libraries).
SRC_ROOT=$(cd "$(dirname "$0")/.." && pwd)
for target in field25519_diff md5z_tunnel; do
  $CXX $CXXFLAGS -std=c++20 -I"$SRC_ROOT" \
    "$SRC_ROOT/fuzz/$target.cpp" \
    "$SRC_ROOT/reference/field25519/ref25519.cpp" \
    "$SRC_ROOT/reference/md5z/md5z_ref.cpp" \
    "$SRC_ROOT/gpu/core/ptx_on_host.cpp" \
    $LIB_FUZZING_ENGINE -lcrypto -o "$OUT/${target}_fuzz"
  [ -f "$SRC_ROOT/fuzz/$target.dict" ] && cp "$SRC_ROOT/fuzz/$target.dict" "$OUT/${target}_fuzz.dict"
  (cd "$SRC_ROOT/fuzz/corpus/$target" && zip -q -r "$OUT/${target}_fuzz_seed_corpus.zip" .)
done
