#include "cli/field25519/impls.hpp"

#include <algorithm>

#include "cli/field25519/limb_cases.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/field25519_kernels.hpp"
#endif

namespace bx::field25519 {
using namespace f25519;

std::string FieldImpl::variant() const {
  std::string v = name;
  v[v.find('/')] = '-';
  return "field25519/" + v;
}

namespace {

template <class F>
FieldImpl host_impl() {
  FieldImpl fi;
  fi.name = std::string(F::name) + "/portable";
  fi.where = "cpu";
  fi.eval = [](Op op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* out, uint8_t* flags) {
    for (size_t i = 0; i < n; ++i) flags[i] = eval_bytes<F>(op, out[i].data(), a[i].data(), b[i].data());
  };
  fi.x25519 = [](const Bytes32* k, const Bytes32* u, size_t n, Bytes32* out) {
    for (size_t i = 0; i < n; ++i) f25519::x25519<F>(out[i].data(), k[i].data(), u[i].data());
  };
  fi.limb_check = [label = fi.label()](const std::function<void(const std::string&)>& report) {
    LimbEval<F> eval = [](Op op, const typename F::fe* a, const typename F::fe* b, size_t n, typename F::fe* out, uint8_t* bytes,
                          uint8_t* flags) {
      for (size_t i = 0; i < n; ++i) {
        flags[i] = eval_limbs<F>(op, out[i], a[i], b[i]);
        F::to_bytes(bytes + 32 * i, out[i]);
      }
    };
    return run_limb_cases<F>(eval, label, report);
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
  fi.name = std::string(F::name) + "/" + F::backend::name;
  fi.where = "gpu" + std::to_string(dev);
  fi.device = dev;
  const std::string name = fi.name;
  fi.eval = [dev, name](Op op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* o, uint8_t* flags) {
    kern::fe_eval_bytes(dev, name, op, a->data(), b->data(), n, o->data(), flags);
  };
  fi.x25519 = [dev, name](const Bytes32* k, const Bytes32* u, size_t n, Bytes32* o) {
    kern::x25519_batch(dev, name, k->data(), u->data(), n, o->data());
  };
  fi.limb_check = [dev, label = fi.label()](const std::function<void(const std::string&)>& report) {
    LimbEval<F> eval = [dev](Op op, const typename F::fe* a, const typename F::fe* b, size_t n, typename F::fe* out,
                             uint8_t* bytes, uint8_t* flags) { kern::fe_eval_limbs<F>(dev, op, a, b, n, out, bytes, flags); };
    return run_limb_cases<F>(eval, label, report);
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
    if (std::find(compiled.begin(), compiled.end(), fi.name) != compiled.end()) out.push_back(std::move(fi));
  };
  for (int dev : sel.gpus) {
    (add(device_impl<Ls<carry::portable>>(dev)), ...);
    (add(device_impl<Ls<carry::ptx>>(dev)), ...);
  }
#endif
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
  return v;
}

}  // namespace

std::vector<VariantInfo> field_variants() { return variants_of(AllLayouts{}); }

std::vector<FieldImpl> field_impls(const DeviceSelection& sel) {
  std::vector<FieldImpl> out;
  add_impls(out, sel, AllLayouts{});
  return out;
}

}  // namespace bx::field25519
