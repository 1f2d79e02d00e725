// Spec §9.3: hash_bytes known answers (qp-poseidon test_known_value_hashes), shared by the reference's
// tests and the layouts' sponge tests.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace bx::qpow::kat {

inline std::vector<std::pair<std::vector<uint8_t>, std::string>> hash_bytes_kats() {
  auto zeros = [](size_t n) { return std::vector<uint8_t>(n, 0); };
  auto iota = [](size_t n) {
    std::vector<uint8_t> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = uint8_t(i);
    return v;
  };
  const std::string hello = "hello world";
  return {
      {zeros(0), "4d8d22af81f6c27a005a07028590ef4ee480f6c4b93f813daf9de47a07c8ae86"},
      {zeros(1), "8f5b42e350ff5a12788210c86c2bcd49243b8f9350de818b3b0c56839a42ebad"},
      {zeros(2), "3e6ee24fb61a22f4d825b72fc8ebd359e3b3b9566e246c71c3e450ebe3262f9c"},
      {zeros(3), "34f4338a6f1b671062a3ac00b37ca05a47b43e16e589ccaa5b063416ba42356b"},
      {zeros(4), "7bac8c6bc49b0b750f2ce0912b815a2cb4ae20c75ac430850257882d9d321afa"},
      {zeros(5), "c95cfddb573adf4070b3d7c8d2dfbbee48b4b973d80cbda2b458abe7bb6f0def"},
      {zeros(6), "a4dc08d0a8c5ea44007462fe1fd8e45962d4ea85c420eab4140fbb30b5b5e111"},
      {zeros(7), "b01975012df91d9f9f040c34655f23f3ec1f6d1738d85679e9848143756637c9"},
      {zeros(8), "eacd9e48d2e968131e48c8e69f2a211cc06c7778db6c5467348b45418fc7f585"},
      {zeros(9), "00df670e8ec0751d3fb9b5f0281d0af9a7a82f62ad35a21247a9d6117daec151"},
      {zeros(14), "d6182896f274c5d9640972e2bf2a5e893e516a21adfdd8ebd39969128d619934"},
      {zeros(15), "15fc2f3c3bc51c96797b889d4fecfcd3535b959f510c007598a87f099e356303"},
      {{0, 0, 0, 1}, "6ffff0c97262139567c426e916c1fd70c924010153c366bb2a8957ea89902942"},
      {{1, 2, 3, 4, 5, 6, 7, 8}, "131020b2e74819343f8568258ae2e9717e9b2253d57baabab78a518bc7499a8b"},
      {std::vector<uint8_t>(32, 0xff), "41260a4322e97dc3dda2b5f70b5ffb1b43071ad5510e101f34209721042c0987"},
      {std::vector<uint8_t>(hello.begin(), hello.end()), "fd1f5d7d4701c25bbdd5dd6e3be6abb474fffbaa402f814dce95f8283abbf3e7"},
      {iota(32), "36884f9093be80632397f5736dce2fece627a4182daf3cdbf8bf12c8e3e02668"},
      {iota(64), "dd0d06fbe4e7575d0eeac53706482cbbe592e269a35bcd5591a495814371724e"},
  };
}

}  // namespace bx::qpow::kat
