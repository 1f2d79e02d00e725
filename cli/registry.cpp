#include "cli/registry.hpp"

#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/field25519_kernels.hpp"
#endif

namespace bx {
using namespace f25519;

int gpu_count() {
#if defined(BX_HAVE_CUDA)
  return kern::device_count();
#else
  return 0;
#endif
}
std::string gpu_name(int dev) {
#if defined(BX_HAVE_CUDA)
  return kern::device_name(dev);
#else
  (void)dev;
  return "";
#endif
}

DeviceSelection parse_devices(const std::string& s) {
  DeviceSelection sel;
  const int n = gpu_count();
  if (s == "cpu") return sel;
  if (s == "all" || s == "gpu") {
    sel.cpu = s == "all";
    for (int i = 0; i < n; ++i) sel.gpus.push_back(i);
    if (!sel.cpu && sel.gpus.empty()) throw InputError("--device gpu: no CUDA device found");
    return sel;
  }
  int idx = -1;
  try {
    size_t used = 0;
    idx = std::stoi(s, &used);
    if (used != s.size()) idx = -1;
  } catch (...) {
    idx = -1;
  }
  if (idx < 0) throw InputError("--device: expected cpu, all, gpu or a GPU index, got '" + s + "'");
  if (idx >= n)
    throw InputError("--device " + s + ": no such GPU (" + std::to_string(n) + " CUDA device(s) found)");
  sel.cpu = false;
  sel.gpus.push_back(idx);
  return sel;
}

std::string FieldImpl::variant() const {
  std::string v = name;
  v[v.find('/')] = '-';
  return "field25519/" + v;
}

namespace {
template <template <class> class... Ls>
void add_host_impls(std::vector<FieldImpl>& out, layout_list<Ls...>) {
  (
      [&] {
        using F = Ls<carry::portable>;
        FieldImpl fi;
        fi.name = std::string(F::name) + "/portable";
        fi.where = "cpu";
        fi.eval = [](Op op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* out, uint8_t* flags) {
          for (size_t i = 0; i < n; ++i) flags[i] = eval_bytes<F>(op, out[i].data(), a[i].data(), b[i].data());
        };
        fi.x25519 = [](const Bytes32* k, const Bytes32* u, size_t n, Bytes32* out) {
          for (size_t i = 0; i < n; ++i) f25519::x25519<F>(out[i].data(), k[i].data(), u[i].data());
        };
        out.push_back(std::move(fi));
      }(),
      ...);
}
}  // namespace

std::vector<VariantInfo> field_variants() {
  std::vector<VariantInfo> v;
  std::vector<FieldImpl> host;
  add_host_impls(host, AllLayouts{});
  for (auto& h : host) {
    const std::string layout = h.name.substr(0, h.name.find('/'));
    v.push_back({"field25519/" + layout + "-portable", layout, "portable", true});
    v.push_back({"field25519/" + layout + "-ptx", layout, "ptx", false});
  }
  return v;
}

std::vector<FieldImpl> field_impls(const DeviceSelection& sel) {
  std::vector<FieldImpl> out;
  if (sel.cpu) add_host_impls(out, AllLayouts{});
#if defined(BX_HAVE_CUDA)
  for (int dev : sel.gpus) {
    for (const auto& name : kern::fe_device_impls()) {
      FieldImpl fi;
      fi.name = name;
      fi.where = "gpu" + std::to_string(dev);
      fi.device = dev;
      fi.eval = [dev, name](Op op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* o, uint8_t* flags) {
        kern::fe_eval_bytes(dev, name, op, a->data(), b->data(), n, o->data(), flags);
      };
      fi.x25519 = [dev, name](const Bytes32* k, const Bytes32* u, size_t n, Bytes32* o) {
        kern::x25519_batch(dev, name, k->data(), u->data(), n, o->data());
      };
      out.push_back(std::move(fi));
    }
  }
#endif
  return out;
}

}  // namespace bx
