#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build script: uses $CXX, $CXXFLAGS, $LIB_FUZZING_ENGINE and $OUT.
# Builds every fuzz/<family>_<name>.cpp against every reference/ source (plus gpu/core's host symbol).
# Needs the Debian packages of ci/deps (Boost, OpenSSL, libsodium headers and libraries).
SRC_ROOT=$(cd "$(dirname "$0")/.." && pwd)
for src in "$SRC_ROOT"/fuzz/*_*.cpp; do
  target=$(basename "$src" .cpp)
  case $target in replay_main | plugin_*) continue ;; esac
  $CXX $CXXFLAGS -std=c++20 -I"$SRC_ROOT" "$src" "$SRC_ROOT"/reference/*/*.cpp "$SRC_ROOT/gpu/core/ptx_on_host.cpp" \
    $LIB_FUZZING_ENGINE -lcrypto -lsodium -o "$OUT/${target}_fuzz"
  [ -f "$SRC_ROOT/fuzz/$target.dict" ] && cp "$SRC_ROOT/fuzz/$target.dict" "$OUT/${target}_fuzz.dict"
  (cd "$SRC_ROOT/fuzz/corpus/$target" && zip -q -r "$OUT/${target}_fuzz_seed_corpus.zip" .)
done
# The plugin fuzzers (fuzz/plugin_<family>.cpp): fuzz the plugin named by BX_FUZZ_PLUGIN at run time through
# the engine's own plugin adapter (suite/<family>); the example plugins are built beside them to point them at.
COMMON="suite/plugin.cpp suite/limb_form.cpp suite/hex.cpp suite/isolate.cpp suite/device_site.cpp"
# A family's plugin adapters and judges: suite/<family>/*.cpp without its case catalogues and vector files
# (the same filter as fuzz/CMakeLists.txt).
adapters() { ls "$SRC_ROOT"/suite/"$1"/*.cpp | grep -Ev '/(vectors|base|inputs|host|decode_edges)\.cpp$'; }
for src in "$SRC_ROOT"/fuzz/plugin_*.cpp; do
  target=$(basename "$src" .cpp)
  fam=${target#plugin_}
  $CXX $CXXFLAGS -std=c++20 -I"$SRC_ROOT" -I"$SRC_ROOT/include" "$src" \
    $(for f in $COMMON; do echo "$SRC_ROOT/$f"; done) $(adapters "$fam") "$SRC_ROOT"/reference/*/*.cpp \
    "$SRC_ROOT/gpu/core/ptx_on_host.cpp" $LIB_FUZZING_ENGINE -lcrypto -lsodium -ldl -o "$OUT/${target}_fuzz"
done
${CC:-cc} -O2 -shared -fPIC -I"$SRC_ROOT/include" "$SRC_ROOT/examples/plugins/field25519_fe64/fe64_plugin.c" -o "$OUT/field25519_fe64.so"
