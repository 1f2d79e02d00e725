// Oracle requests for ecvrf (HEX32: 64 hex digits, little-endian as in RFC 8032/9381; HEX: any even number
// of hex digits, empty allowed). Every reply is {"ref":...,"impl":{name: answer},"agree":bool} (OracleReply:
// an answer agrees iff each field it reports equals ref's field of that name; a refusal is not compared).
//   {"op":"ecvrf.score","sk":HEX32,"header":HEX32,"nonce":"decimal string below 2^64"}
//     -> {"ctr":c,"beta":HEX64,"score":"decimal"}; every CPU variant its whole answer (ctr -1 and null
//     beta and score when no ctr <= 255 gives a valid H); every compiled GPU variant on each selected GPU
//     its beta and score (the kernels do not export ctr).
//   {"op":"ecvrf.hash","sk":HEX32,"alpha":HEX}
//     -> {"pk","ctr","h","gamma","beta"} of the golden model (no ctr <= 255 gives a valid H: ctr -1, h,
//     gamma and beta null); every CPU variant its ctr and beta (scalar x mod L, as ecvrf.score; |alpha|
//     <= 75, one SHA-512 block, else a refusal); "libsodium" the spec 4.3 recipe's whole answer, or its
//     refusal (only where the golden model finds no ctr either). No GPU answers for ecvrf.hash.
//   {"op":"ed25519.decode","point":HEX32}          -> the canonical re-encoding
//   {"op":"ed25519.add","p":HEX32,"q":HEX32}       -> encode(P + Q)
//   {"op":"ed25519.scalarmult","scalar":HEX32,"point":HEX32} -> encode(k P), k all 256 bits, no clamping
//     Point answers: {"point":HEX32}, or {"rejected":REASON,"input":FIELD} for the first input (in request
//     order) the strict decoder rejects, REASON one of y_not_below_p, not_square, x_zero_sign_set. Every host
//     layout answers decode and add ("ecvrf/fe51-portable@cpu"); scalarmult every host variant's scalar
//     strategy (Joye-Tunstall refuses k >= 2^255) and "libsodium" (compared only where it and ref give a
//     point; it refuses non-order-L points, a zero scalar, an identity result, and does not apply to k >=
//     2^255). Each GPU answers through its point code: decode and add per compiled layout-backend
//     ("ecvrf/fe32-ptx@gpu0"), scalarmult per layout-backend and strategy ("ecvrf/fe32-ptx/jt@gpu0").
// Loaded plugins answer ecvrf.score and ecvrf.hash through their vrf_beta (ctr and beta; "not provided"
// where they have none), and the point operations through their decode, add and scalar_mult.
// A refusal is {"refused":why}; an implementation that throws (a host recoding that does not reconstruct
// its scalar, a CUDA error) answers {"failed":why}, which disagrees.
// Bad hex, a wrong length, a missing or unknown field, or a nonce >= 2^64 is an error line.
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/ecvrf/ecvrf.hpp"
#include "cli/ecvrf/oracle_parts.hpp"
#include "suite/hex.hpp"
#include "reference/ecvrf/oracles.hpp"
#include "reference/ecvrf/vrf.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {


Bytes32 hex32_field(const json& req, const char* key) {
  const std::string what = std::string("field '") + key + "'";
  if (!req.contains(key)) throw InputError("missing " + what);
  if (!req[key].is_string()) throw InputError(what + " must be a hex string");
  return bytes32_from_hex(req[key].get<std::string>(), what);
}
std::vector<uint8_t> hex_field(const json& req, const char* key) {
  const std::string what = std::string("field '") + key + "'";
  if (!req.contains(key)) throw InputError("missing " + what);
  if (!req[key].is_string()) throw InputError(what + " must be a hex string");
  const std::string s = req[key].get<std::string>();
  if (s.size() % 2) throw InputError(what + ": expected an even number of hex digits, got " + std::to_string(s.size()));
  return from_hex(s, s.size() / 2, what);
}

namespace {

uint64_t nonce_of(const json& req) {
  if (!req["nonce"].is_string()) throw InputError("field 'nonce' must be a decimal string");
  const std::string s = req["nonce"].get<std::string>();
  if (s.empty() || s.size() > 20 || s.find_first_not_of("0123456789") != std::string::npos)
    throw InputError("field 'nonce': expected a decimal integer below 2^64, got '" + s + "'");
  uint64_t v = 0;
  for (char c : s) {
    const uint64_t d = uint64_t(c - '0');
    if (v > (~0ull - d) / 10) throw InputError("field 'nonce': " + s + " is not below 2^64");
    v = v * 10 + d;
  }
  return v;
}
// The scalar every host pipeline multiplies by: x mod L (H is in the order-L subgroup).
Bytes32 pipeline_scalar(const ref::ecvrf::VrfKey& key) {
  const auto xl = ref::to_le_bytes(key.x_mod_l, 32);
  Bytes32 s;
  std::copy(xl.begin(), xl.end(), s.begin());
  return s;
}
json score_answer(int ctr, const uint8_t* beta) {
  if (ctr < 0) return {{"ctr", -1}, {"beta", nullptr}, {"score", nullptr}};
  ref::ecvrf::Bytes64 b;
  std::copy(beta, beta + 64, b.begin());
  return {{"ctr", ctr}, {"beta", to_hex(beta, 64)}, {"score", std::to_string(ref::ecvrf::score(b))}};
}

// Loaded plugins answer through vrf_beta (with the pipeline's scalar x mod L), or read "not provided".
void plugin_answers(const std::vector<PluginEntry>& plugins, const ref::ecvrf::VrfKey& key, const std::vector<uint8_t>& alpha,
                    OracleReply& r, bool with_score) {
  for (const PluginEntry& im : plugins) {
    if (!im.ops.vrf_beta) {
      r.not_provided(im.label());
      continue;
    }
    if (alpha.size() > 255) {
      r.refusal(im.label(), "alpha longer than 255 bytes (the contract's alpha_len)");
      continue;
    }
    r.attempt(im.label(), [&] {
      const auto got = im.ops.vrf_beta(key.pk, pipeline_scalar(key), {alpha})[0];
      if (with_score) return score_answer(got.ctr, got.beta.data());
      return json{{"ctr", got.ctr}, {"beta", got.ctr < 0 ? json(nullptr) : json(to_hex(got.beta.data(), 64))}};
    });
  }
}

json score_reply(const json& req, bool cpu, const std::vector<int>& gpus, const std::vector<PluginEntry>& plugins) {
  require_fields(req, {"sk", "header", "nonce"});
  const Bytes32 sk = hex32_field(req, "sk"), header = hex32_field(req, "header");
  const uint64_t nonce = nonce_of(req);
  const ref::ecvrf::VrfKey key = ref::ecvrf::vrf_key(sk);
  const auto alpha = ref::ecvrf::job_alpha(header, nonce);
  const ref::ecvrf::VrfTrace t = ref::ecvrf::vrf_trace(key, alpha);
  OracleReply r;
  r.ref = score_answer(t.tai.ctr ? int(*t.tai.ctr) : -1, t.beta ? t.beta->data() : nullptr);
  const Bytes32 scalar = pipeline_scalar(key);
  if (cpu)
    for (const HostAttempt& a : host_attempts())
      r.attempt(a.variant + "@cpu", [&] {
        uint8_t beta[64];
        const int ctr = a.run(beta, key.pk.data(), alpha.data(), int(alpha.size()), scalar);
        return score_answer(ctr, beta);
      });
#if defined(BX_HAVE_CUDA)
  const kern::EcvrfJob job{scalar, key.pk, header};
  for (int dev : gpus)
    for (const auto& v : kern::ecvrf_device_variants())
      r.attempt(v.name + "@gpu" + std::to_string(dev), [&] {
        uint8_t beta[64], valid = 0;
        kern::ecvrf_betas(dev, v.name, job, nonce, 1, 12, beta, &valid);
        json got = score_answer(valid ? 0 : -1, beta);
        got.erase("ctr");
        return got;
      });
#else
  (void)gpus;
#endif
  plugin_answers(plugins, key, std::vector<uint8_t>(alpha.begin(), alpha.end()), r, true);
  return r.to_json();
}

// One SHA-512 block holds 03 01 PK alpha ctr 00 and its padding iff 36 + |alpha| <= 111.
constexpr size_t kHostAlphaMax = 75;

json hash_ref_answer(const ref::ecvrf::VrfTrace& t) {
  if (!t.tai.ctr) return {{"pk", to_hex(t.key.pk)}, {"ctr", -1}, {"h", nullptr}, {"gamma", nullptr}, {"beta", nullptr}};
  return {{"pk", to_hex(t.key.pk)},
          {"ctr", int(*t.tai.ctr)},
          {"h", to_hex(ref::ecvrf::encode(*t.tai.h))},
          {"gamma", to_hex(ref::ecvrf::encode(*t.gamma))},
          {"beta", to_hex(t.beta->data(), 64)}};
}
void host_hash_answers(const ref::ecvrf::VrfKey& key, const std::vector<uint8_t>& alpha, OracleReply& r) {
  const Bytes32 scalar = pipeline_scalar(key);
  for (const HostAttempt& a : host_attempts()) {
    const std::string name = a.variant + "@cpu";
    if (alpha.size() > kHostAlphaMax) {
      r.refusal(name, "alpha longer than 75 bytes (the host pipeline hashes one SHA-512 block)");
      continue;
    }
    r.attempt(name, [&] {
      uint8_t beta[64];
      const int ctr = a.run(beta, key.pk.data(), alpha.data(), int(alpha.size()), scalar);
      return json{{"ctr", ctr}, {"beta", ctr < 0 ? json(nullptr) : json(to_hex(beta, 64))}};
    });
  }
}
void sodium_hash_answer(const Bytes32& sk, const std::vector<uint8_t>& alpha, OracleReply& r) {
  const auto s = ref::ecvrf::sodium_vrf(sk, alpha);
  // The recipe refuses exactly when no ctr <= 255 gives a valid H; a refusal where the golden model found
  // one is a failure.
  if (!s && r.ref["ctr"] == -1) return r.refusal("libsodium", "the spec 4.3 recipe found no valid H for ctr <= 255");
  if (!s) return r.answer("libsodium", {{"failed", "the spec 4.3 recipe refused a valid alpha (an rc != 0)"}});
  r.answer("libsodium", {{"pk", to_hex(s->pk)}, {"ctr", int(s->ctr)}, {"h", to_hex(s->h)}, {"gamma", to_hex(s->gamma)},
                         {"beta", to_hex(s->beta.data(), 64)}});
}

json hash_reply(const json& req, bool cpu, const std::vector<PluginEntry>& plugins) {
  require_fields(req, {"sk", "alpha"});
  const Bytes32 sk = hex32_field(req, "sk");
  const std::vector<uint8_t> alpha = hex_field(req, "alpha");
  const ref::ecvrf::VrfTrace t = ref::ecvrf::vrf_trace(sk, alpha);
  OracleReply r;
  r.ref = hash_ref_answer(t);
  if (cpu) host_hash_answers(t.key, alpha, r);
  sodium_hash_answer(sk, alpha, r);
  plugin_answers(plugins, t.key, alpha, r, false);
  return r.to_json();
}

}  // namespace

OracleHandler oracle(const DeviceSelection& sel) {
  const bool cpu = sel.cpu;
  const std::vector<int> gpus = sel.gpus;
  auto plugins = std::make_shared<std::vector<PluginEntry>>(plugin_impls(sel));
  return [cpu, gpus, plugins](const json& req) -> json {
    const std::string op = req["op"].get<std::string>();
    if (op == "ecvrf.score") return score_reply(req, cpu, gpus, *plugins);
    if (op == "ecvrf.hash") return hash_reply(req, cpu, *plugins);
    return ed25519_reply(req, cpu, gpus, *plugins);
  };
}

}  // namespace bx::ecvrf_family
