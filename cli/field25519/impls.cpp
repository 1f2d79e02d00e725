#include "cli/field25519/impls.hpp"

#include <algorithm>

#include "cli/field25519/limb_model.hpp"
#include "cli/plugin_variants.hpp"
#include "suite/call_site.hpp"
#include "suite/field25519/plugin_ops.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/field25519_kernels.hpp"
#endif

namespace bx::field25519 {
using namespace f25519;

std::string builtin_variant_name(const std::string& code_name) {
  std::string v = code_name;
  v[v.find('/')] = '-';
  return "field25519/" + v;
}

namespace {

namespace S = suite::field25519;

// A built-in layout's limb level for the engine: its declared form (limb_model.hpp) and each op's contract
// (op_contracts(): add takes tight and returns loose, every other op takes loose and returns tight), sub
// taking lazy2 where the layout declares it.
template <class F>
S::LimbOps limb_ops_of() {
  S::LimbOps lo;
  lo.form = form_of<F>();
  for (const OpContract& c : op_contracts())
    if (int(c.op) < S::kLimbOps) lo.in[int(c.op)] = to_suite(c.in), lo.out[int(c.op)] = to_suite(c.out);
  if (F::bounds.lazy2_sub) lo.in[int(Op::sub)] = suite::Bound::lazy2;
  lo.provided = (1u << S::kLimbOps) - 1;
  return lo;
}

// The limb level through a typed batch evaluator (host loop or device kernel): ops, and encode as the
// canonical op whose bytes the evaluator writes.
template <class F, class Eval>
S::LimbOps bind_limbs(Eval eval, bool host) {
  S::LimbOps lo = limb_ops_of<F>();
  lo.op = [eval](Op op, const std::vector<suite::Limbs>& a, const std::vector<suite::Limbs>& b, std::vector<suite::Limbs>& out,
                 std::vector<uint8_t>& flags) {
    const size_t n = a.size();
    std::vector<typename F::fe> fa(n), fb(n), fo(n);
    std::vector<uint8_t> bytes(32 * n);
    for (size_t i = 0; i < n; ++i) fa[i] = to_fe<F>(a[i]), fb[i] = to_fe<F>(b[i]);
    eval(op, fa.data(), fb.data(), n, fo.data(), bytes.data(), flags.data());
    for (size_t i = 0; i < n; ++i) out[i] = from_fe<F>(fo[i]);
  };
  lo.encode = [eval](const std::vector<suite::Limbs>& a, std::vector<Bytes32>& out) {
    const size_t n = a.size();
    std::vector<typename F::fe> fa(n), fo(n);
    std::vector<uint8_t> bytes(32 * n), flags(n);
    for (size_t i = 0; i < n; ++i) fa[i] = to_fe<F>(a[i]);
    eval(Op::canonical, fa.data(), fa.data(), n, fo.data(), bytes.data(), flags.data());
    out.resize(n);
    for (size_t i = 0; i < n; ++i) std::copy(&bytes[32 * i], &bytes[32 * i] + 32, out[i].begin());
  };
  if (host)  // the device has no decode-only kernel: decode is checked on the host build of the same code
    lo.decode = [](const std::vector<Bytes32>& in, std::vector<suite::Limbs>& out) {
      out.resize(in.size());
      for (size_t i = 0; i < in.size(); ++i) {
        typename F::fe r;
        F::from_bytes(r, in[i].data());
        out[i] = from_fe<F>(r);
      }
    };
  return lo;
}

template <class F>
FieldImpl host_impl() {
  FieldImpl fi;
  fi.code_name = std::string(F::name) + "/portable";
  fi.name = builtin_variant_name(fi.code_name);
  fi.where = "cpu";
  fi.eval = [](Op op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* out, uint8_t* flags) {
    for (size_t i = 0; i < n; ++i) flags[i] = eval_bytes<F>(op, out[i].data(), a[i].data(), b[i].data());
  };
  fi.x25519 = [](const Bytes32* k, const Bytes32* u, size_t n, Bytes32* out) {
    for (size_t i = 0; i < n; ++i) f25519::x25519<F>(out[i].data(), k[i].data(), u[i].data());
  };
  fi.limbs = [] {
    return bind_limbs<F>(
        [](Op op, const typename F::fe* a, const typename F::fe* b, size_t n, typename F::fe* out, uint8_t* bytes, uint8_t* flags) {
          for (size_t i = 0; i < n; ++i) {
            flags[i] = eval_limbs<F>(op, out[i], a[i], b[i]);
            F::to_bytes(bytes + 32 * i, out[i]);
          }
        },
        true);
  };
  fi.derive = [] {
    std::array<Bytes32, kDerivedConstants> out;
    uint8_t r[kDerivedConstants][32];
    fe_derive_constants<F>(r);
    for (int c = 0; c < kDerivedConstants; ++c) std::copy(r[c], r[c] + 32, out[c].begin());
    return out;
  };
  return fi;
}

#if defined(BX_HAVE_CUDA)
template <class F>
FieldImpl device_impl(int dev) {
  FieldImpl fi;
  fi.code_name = std::string(F::name) + "/" + F::backend::name;
  fi.name = builtin_variant_name(fi.code_name);
  fi.where = "gpu" + std::to_string(dev);
  fi.device = dev;
  const std::string name = fi.code_name;
  fi.eval = [dev, name](Op op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* o, uint8_t* flags) {
    kern::fe_eval_bytes(dev, name, op, a->data(), b->data(), n, o->data(), flags);
  };
  fi.x25519 = [dev, name](const Bytes32* k, const Bytes32* u, size_t n, Bytes32* o) {
    kern::x25519_batch(dev, name, k->data(), u->data(), n, o->data());
  };
  fi.limbs = [dev] {
    return bind_limbs<F>([dev](Op op, const typename F::fe* a, const typename F::fe* b, size_t n, typename F::fe* out, uint8_t* bytes,
                               uint8_t* flags) { kern::fe_eval_limbs<F>(dev, op, a, b, n, out, bytes, flags); },
                         false);
  };
  fi.derive = [dev, name] {
    std::array<Bytes32, kDerivedConstants> out;
    kern::fe_derive_constants_on(dev, name, out[0].data());
    return out;
  };
  return fi;
}
#endif

template <template <class> class... Ls>
void add_impls(std::vector<FieldImpl>& out, const DeviceSelection& sel, layout_list<Ls...>) {
  if (sel.cpu) (out.push_back(host_impl<Ls<carry::portable>>()), ...);
#if defined(BX_HAVE_CUDA)
  const auto compiled = kern::fe_device_impls();  // BX_FIELD25519_KERNELS=one: fe32/ptx and fe51s/ptx only
  const auto add = [&](FieldImpl fi) {
    if (std::find(compiled.begin(), compiled.end(), fi.code_name) != compiled.end()) out.push_back(std::move(fi));
  };
  for (int dev : sel.gpus) {
    (add(device_impl<Ls<carry::portable>>(dev)), ...);
    (add(device_impl<Ls<carry::ptx>>(dev)), ...);
  }
#endif
}

// Every loaded plugin implementation of this family: host ones on the CPU, device ones on every selected GPU.
void add_plugin_impls(std::vector<FieldImpl>& out, const DeviceSelection& sel) {
  for (const auto& [p, dev] : suite::plugin_places("field25519", sel.cpu, sel.gpus, [](const suite::PluginImpl& p) { S::adapt(p); })) {
    S::PluginField pf = S::adapt(p, dev);
    FieldImpl fi;
    fi.code_name = p.name;
    fi.name = "field25519/" + p.name;
    fi.where = suite::Implementation::place_of(dev);
    fi.device = dev;
    fi.plugin_path = p.path;
    fi.eval = pf.eval;
    fi.bytes_provided = pf.bytes_provided;
    fi.canonical_inputs_only = pf.canonical_inputs_only;
    fi.device_bytes = pf.device_bytes;
    fi.chain = pf.chain;
    if (pf.limbs) fi.limbs = [lo = *pf.limbs] { return lo; };
    out.push_back(std::move(fi));
  }
}

template <template <class> class... Ls>
std::vector<VariantInfo> variants_of(layout_list<Ls...>) {
  std::vector<VariantInfo> v;
  const bool cuda =
#if defined(BX_HAVE_CUDA)
      true;
#else
      false;
#endif
  auto one = [&](const char* layout, const char* backend, bool host, const char* desc) {
    VariantInfo vi;
    vi.name = std::string("field25519/") + layout + "-" + backend;
    vi.layout = layout;
    vi.backend = backend;
    vi.cpu = host;
    vi.gpu = cuda;
    vi.description = desc;
    v.push_back(vi);
  };
  (one(Ls<carry::portable>::name, "portable", true, "plain C++ carries (host and device)"), ...);
  (one(Ls<carry::ptx>::name, "ptx", false, "inline PTX carry chains (device only)"), ...);
  for (auto& vi : plugin_variants("field25519", v, [](const suite::PluginImpl& p) {
         if (p.place == BX_PLACE_DEVICE && !suite::device_sites_available()) return std::string("device implementation (needs a CUDA build)");
         // validates the table (one error line) before anything runs; binding touches no device
         const S::PluginField pf = S::adapt(p, p.place == BX_PLACE_DEVICE ? 0 : -1);
         std::string ops;
         for (int o = 0; o < int(Op::count_); ++o)
           if (pf.bytes_provided >> o & 1) ops += std::string(ops.empty() ? "" : " ") + op_name(Op(o));
         return "bytes ops: " + (ops.empty() ? std::string("none") : ops) + (pf.bytes_composed ? " (composed from the limb level)" : "") +
                (pf.limbs ? "; limb form: " + pf.limbs->form.describe() : "; no limb form") + (pf.chain ? "; bench chains" : "");
       })) {
    vi.layout = vi.description.find("limb form:") != std::string::npos ? "limbs" : "-";
    v.push_back(vi);
  }
  return v;
}

}  // namespace

std::vector<VariantInfo> field_variants() { return variants_of(AllLayouts{}); }

namespace {
template <template <class> class... Ls>
std::vector<std::pair<std::string, suite::LimbForm>> forms_of(layout_list<Ls...>) {
  return {{Ls<carry::portable>::name, limb_ops_of<Ls<carry::portable>>().form}...};
}
}  // namespace
std::vector<std::pair<std::string, suite::LimbForm>> builtin_limb_forms() { return forms_of(AllLayouts{}); }

std::vector<FieldImpl> field_impls(const DeviceSelection& sel) {
  std::vector<FieldImpl> out;
  add_impls(out, sel, AllLayouts{});
  add_plugin_impls(out, sel);
  return out;
}

}  // namespace bx::field25519
