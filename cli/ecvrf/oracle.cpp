// Oracle requests for ecvrf:
//   {"op":"ecvrf.score","sk":HEX32,"header":HEX32,"nonce":"decimal string below 2^64"}
//     -> {"ref":{"ctr":c,"beta":HEX64,"score":"decimal"},"impl":{"ecvrf/...@cpu":{...},...},"agree":bool}
// ref is the golden model (reference/ecvrf); every CPU variant reports its whole answer (ctr -1 and no
// beta when no ctr <= 255 gives a valid H); every compiled GPU variant on each selected GPU its beta and
// score (the kernels do not export ctr). Bad hex, a wrong length or a nonce >= 2^64 is an error line.
#include "cli/ecvrf/ecvrf.hpp"
#include "cli/hex.hpp"
#include "reference/ecvrf/vrf.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/ecvrf_kernels.hpp"
#endif

namespace bx::ecvrf_family {
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
Bytes32 bytes32_field(const json& req, const char* key) {
  if (!req[key].is_string()) throw InputError(std::string("field '") + key + "' must be a hex string");
  return bytes32_from_hex(req[key].get<std::string>(), std::string("field '") + key + "'");
}
json answer(int ctr, const uint8_t* beta) {
  if (ctr < 0) return {{"ctr", -1}, {"beta", nullptr}, {"score", nullptr}};
  ref::ecvrf::Bytes64 b;
  std::copy(beta, beta + 64, b.begin());
  return {{"ctr", ctr}, {"beta", to_hex(beta, 64)}, {"score", std::to_string(ref::ecvrf::score(b))}};
}

}  // namespace

OracleHandler oracle(const DeviceSelection& sel) {
  const bool cpu = sel.cpu;
  const std::vector<int> gpus = sel.gpus;
  return [cpu, gpus](const json& req) -> json {
    require_fields(req, {"sk", "header", "nonce"});
    const Bytes32 sk = bytes32_field(req, "sk"), header = bytes32_field(req, "header");
    const uint64_t nonce = nonce_of(req);
    const ref::ecvrf::VrfKey key = ref::ecvrf::vrf_key(sk);
    const auto alpha = ref::ecvrf::job_alpha(header, nonce);
    const ref::ecvrf::VrfTrace t = ref::ecvrf::vrf_trace(key, alpha);
    const json want = answer(t.tai.ctr ? int(*t.tai.ctr) : -1, t.beta ? t.beta->data() : nullptr);
    json impl = json::object();
    bool agree = true;
    const auto xl = ref::to_le_bytes(key.x_mod_l, 32);
    Bytes32 scalar;
    std::copy(xl.begin(), xl.end(), scalar.begin());
    if (cpu)
      for (const HostAttempt& a : host_attempts()) {
        uint8_t beta[64];
        const int ctr = a.run(beta, key.pk.data(), alpha.data(), int(alpha.size()), scalar);
        const json got = answer(ctr, beta);
        agree = agree && got == want;
        impl[a.variant + "@cpu"] = got;
      }
#if defined(BX_HAVE_CUDA)
    const kern::EcvrfJob job{scalar, key.pk, header};
    for (int dev : gpus)
      for (const auto& v : kern::ecvrf_device_variants()) {
        uint8_t beta[64], valid = 0;
        kern::ecvrf_betas(dev, v.name, job, nonce, 1, 12, beta, &valid);
        json got = answer(valid ? 0 : -1, beta);
        got.erase("ctr");
        agree = agree && got["beta"] == want["beta"] && got["score"] == want["score"];
        impl[v.name + "@gpu" + std::to_string(dev)] = got;
      }
#else
    (void)gpus;
#endif
    return {{"ref", want}, {"impl", impl}, {"agree", agree}};
  };
}

}  // namespace bx::ecvrf_family
