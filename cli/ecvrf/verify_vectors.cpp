// verify ecvrf --vectors ROOT: the point vector files (vectors/ecvrf/decode.json, batch_invert.json,
// scalarmult.json under ROOT) through every compiled GPU pipeline's point code on each selected GPU
// (ecvrf_point_checks: the pipeline's layout and strategy), each answer compared with the file's expected
// bytes. The files themselves are checked against the golden model by `vectors check`; this is the check
// that the card's decoder, encoder, batch inversion and strategies reproduce them. Exit 1 on any
// difference, each printed with the file, tcId, pipeline and both values.
#include <algorithm>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "cli/ecvrf/ecvrf.hpp"
#include "cli/selftest.hpp"
#include "suite/vector_json.hpp"
#include "gpu/ecvrf/codec.hpp"
#include "gpu/kernels/ecvrf_kernels.hpp"  // plain C++: the point-check types exist in every build

namespace bx::ecvrf_family {
namespace {

namespace io = bx::vectors::io;

// The files' point vectors, with the tcId of each item.
struct PointVectors {
  kern::EcvrfPointInputs decode_encode;  // decodes, encodes (Z = 1 entries), inversions
  std::vector<int> decode_id, encode_id, invert_id;
  std::vector<std::string> decode_want;  // canonical re-encoding in hex, or the rejection reason
  std::vector<bool> decode_tai;          // TAI takes it as a candidate: valid and 8P ("cleared") not the identity
  std::vector<Bytes32> encode_want;
  std::vector<std::vector<Bytes32>> invert_want;
  struct ScalarGroup {
    std::string point_name;
    kern::EcvrfPointInputs in;  // h_point, scalars
    std::vector<int> id;
    std::vector<Bytes32> want;
  };
  std::vector<ScalarGroup> scalar_groups;
};

json load(const std::string& root, const std::string& rel) {
  std::string text;
  std::vector<std::string> problems;
  if (!io::read_repo_file(root, rel, text, problems)) throw InputError(problems.front());
  return io::parse_json(rel, text);
}
std::vector<Bytes32> b32_list(const json& t, const char* k, const std::string& where) {
  if (!t[k].is_array()) throw InputError(where + ": field '" + k + "' must be an array");
  std::vector<Bytes32> v;
  for (const auto& x : t[k]) {
    if (!x.is_string()) throw InputError(where + ": field '" + k + "': entries must be hex strings");
    v.push_back(bytes32_from_hex(x.get<std::string>(), where + ": field '" + k + "'"));
  }
  return v;
}

PointVectors load_point_vectors(const std::string& root) {
  PointVectors pv;
  const std::string dec = "vectors/ecvrf/decode.json", inv = "vectors/ecvrf/batch_invert.json",
                    sm = "vectors/ecvrf/scalarmult.json";
  // Each file held in a named json: a range-for over a member of a temporary would dangle (C++20).
  const json dec_file = load(root, dec), inv_file = load(root, inv), sm_file = load(root, sm);
  for (const auto& g : dec_file["testGroups"])
    for (const auto& t : g["tests"]) {
      const int id = t["tcId"].get<int>();
      const std::string where = dec + ": tcId " + std::to_string(id);
      if (g["type"] == "decode") {
        pv.decode_encode.decodes.push_back(io::get_b32(t, "encoding", where));
        pv.decode_id.push_back(id);
        pv.decode_want.push_back(t.contains("reason") ? io::get_str(t, "reason", where)
                                                      : to_hex(io::get_b32(t, "point", where)));
        pv.decode_tai.push_back(!t.contains("reason") &&
                                to_hex(io::get_b32(t, "cleared", where)) !=
                                    "0100000000000000000000000000000000000000000000000000000000000000");
      } else if (g["type"] == "encode") {
        Bytes32 one{};
        one[0] = 1;
        if (io::get_b32(t, "Z", where) != one) continue;  // the card's encode check holds Z = 1
        pv.decode_encode.encodes.push_back({io::get_b32(t, "X", where), io::get_b32(t, "Y", where)});
        pv.encode_id.push_back(id);
        pv.encode_want.push_back(io::get_b32(t, "encoding", where));
      }
    }
  for (const auto& g : inv_file["testGroups"])
    for (const auto& t : g["tests"]) {
      const int id = t["tcId"].get<int>();
      const std::string where = inv + ": tcId " + std::to_string(id);
      std::vector<Bytes32> in = b32_list(t, "in", where), out = b32_list(t, "out", where);
      if (in.empty() || in.size() > 8 || out.size() != in.size())
        throw InputError(where + ": a batch holds 1..8 values and as many inverses");
      pv.decode_encode.inversions.push_back(in);
      pv.invert_id.push_back(id);
      pv.invert_want.push_back(out);
    }
  for (const auto& g : sm_file["testGroups"]) {
    PointVectors::ScalarGroup sg;
    sg.point_name = io::get_str(g, "point", sm);
    sg.in.h_point = io::get_b32(g, "encoding", sm);
    for (const auto& t : g["tests"]) {
      const int id = t["tcId"].get<int>();
      const std::string where = sm + ": tcId " + std::to_string(id);
      sg.in.scalars.push_back(io::get_b32(t, "scalar", where));
      sg.id.push_back(id);
      sg.want.push_back(io::get_b32(t, "out", where));
    }
    pv.scalar_groups.push_back(std::move(sg));
  }
  if (pv.decode_id.empty() || pv.encode_id.empty() || pv.invert_id.empty() || pv.scalar_groups.empty())
    throw InputError("verify ecvrf --vectors: a point vector file under " + root + " holds no tests");
  return pv;
}

#if defined(BX_HAVE_CUDA)
// Differences of one pipeline on one card, one line each.
std::vector<std::string> check_variant(int dev, const std::string& variant, const PointVectors& pv) {
  std::vector<std::string> bad;
  const std::string at = variant + "@gpu" + std::to_string(dev);
  const auto differ = [&](const std::string& file, int id, const std::string& what, const std::string& want,
                          const std::string& got) {
    if (want != got)
      bad.push_back("vectors/ecvrf/" + file + " tcId " + std::to_string(id) + " " + at + " " + what + ": want " + want +
                    ", got " + got);
  };
  const kern::EcvrfPointOutputs o = kern::ecvrf_point_checks(dev, variant, pv.decode_encode);
  for (size_t i = 0; i < pv.decode_id.size(); ++i) {
    const auto st = ecvrf::DecodeStatus(o.decode_status[i]);
    differ("decode.json", pv.decode_id[i], "decode", pv.decode_want[i],
           st == ecvrf::DecodeStatus::valid ? to_hex(o.decoded[i]) : ecvrf::decode_status_name(st));
    const auto verdict = [](unsigned v) {
      return std::string("8P test ") + ((v & 1) ? "takes" : "skips") + ", small-order y test " + ((v & 2) ? "takes" : "skips");
    };
    differ("decode.json", pv.decode_id[i], "TAI candidate", verdict(pv.decode_tai[i] ? 3u : 0u), verdict(o.tai_verdicts.at(i)));
  }
  for (size_t i = 0; i < pv.encode_id.size(); ++i)
    differ("decode.json", pv.encode_id[i], "encode", to_hex(pv.encode_want[i]), to_hex(o.encoded[i]));
  for (size_t i = 0; i < pv.invert_id.size(); ++i)
    for (size_t j = 0; j < pv.invert_want[i].size(); ++j)
      differ("batch_invert.json", pv.invert_id[i], "inverse " + std::to_string(j), to_hex(pv.invert_want[i][j]),
             to_hex(o.inverses[i][j]));
  for (const auto& g : pv.scalar_groups) {
    const kern::EcvrfPointOutputs s = kern::ecvrf_point_checks(dev, variant, g.in);
    for (const auto& [tag, products] : s.scalar_products)
      for (size_t i = 0; i < g.id.size(); ++i)
        differ("scalarmult.json", g.id[i], tag + " scalar times " + g.point_name, to_hex(g.want[i]), to_hex(products[i]));
  }
  return bad;
}
#endif

}  // namespace

int run_verify_vectors(const RunContext& ctx, const std::string& root, const std::vector<std::string>& globs) {
  const PointVectors pv = load_point_vectors(root);
#if defined(BX_HAVE_CUDA)
  if (ctx.devices.gpus.empty()) throw InputError("verify ecvrf --vectors: checks the GPU point code; select a GPU (--device gpu)");
  size_t checked = 0, failed = 0;
  for (int dev : ctx.devices.gpus)
    for (const auto& v : kern::ecvrf_device_variants()) {
      if (!suite::variant_wanted(globs, v.name)) continue;
      std::vector<std::string> bad;
      try {
        bad = check_variant(dev, v.name, pv);
      } catch (const std::logic_error& e) {  // a host recoding that does not reconstruct its scalar
        bad.push_back(v.name + "@gpu" + std::to_string(dev) + ": " + e.what());
      }
      ++checked;
      failed += !bad.empty();
      for (size_t i = 0; i < bad.size() && i < 20; ++i) std::cout << "MISMATCH " << bad[i] << "\n";
      if (bad.size() > 20) std::cout << "... " << bad.size() - 20 << " more for " << v.name << "\n";
      if (!ctx.quiet)
        std::cout << (bad.empty() ? "PASS " : "FAIL ") << v.name << "@gpu" << dev << ": " << pv.decode_id.size()
                  << " decodes, " << pv.encode_id.size() << " encodes, " << pv.invert_id.size() << " batch inversions, "
                  << pv.scalar_groups.size() << " scalar groups\n";
    }
  if (checked == 0) throw InputError("verify ecvrf --vectors: no compiled GPU pipeline matches --variant");
  std::cout << "verify ecvrf --vectors: " << checked - failed << "/" << checked << " pipelines reproduce every point vector\n";
  return failed ? 1 : 0;
#else
  (void)ctx, (void)globs, (void)pv;
  throw InputError("verify ecvrf --vectors: this build has no CUDA kernels");
#endif
}

}  // namespace bx::ecvrf_family
