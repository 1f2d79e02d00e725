#include "cli/devices.hpp"

#include "suite/hex.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/device.hpp"
#endif

namespace bx {

// The CUDA queries, or what a build without CUDA answers (no GPU, nothing known).
#if defined(BX_HAVE_CUDA)
int gpu_count() { return kern::device_count(); }
std::string gpu_name(int dev) { return kern::device_name(dev); }
std::string gpu_pci_bus_id(int dev) { return kern::device_pci_bus_id(dev); }
int cuda_driver_version() { return kern::cuda_driver_version(); }
int cuda_runtime_version() { return kern::cuda_runtime_version(); }
#else
int gpu_count() { return 0; }
std::string gpu_name(int) { return ""; }
std::string gpu_pci_bus_id(int) { return ""; }
int cuda_driver_version() { return 0; }
int cuda_runtime_version() { return 0; }
#endif

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
  if (!s.empty() && s.size() < 4 && s.find_first_not_of("0123456789") == std::string::npos) idx = std::stoi(s);
  if (idx < 0) throw InputError("--device: expected cpu, all, gpu or a GPU index, got '" + s + "'");
  if (idx >= n) throw InputError("--device " + s + ": no such GPU (" + std::to_string(n) + " CUDA device(s) found)");
  sel.cpu = false;
  sel.gpus.push_back(idx);
  return sel;
}

DeviceSelection default_devices(bool prefer_gpu) {
  return parse_devices(prefer_gpu && gpu_count() > 0 ? "gpu" : prefer_gpu ? "cpu" : "all");
}

std::vector<int> place_devices(const DeviceSelection& sel) {
  std::vector<int> v;
  if (sel.cpu) v.push_back(-1);
  v.insert(v.end(), sel.gpus.begin(), sel.gpus.end());
  return v;
}

std::vector<std::string> place_names(const DeviceSelection& sel) {
  std::vector<std::string> v;
  for (int d : place_devices(sel)) v.push_back(d < 0 ? "cpu" : "gpu" + std::to_string(d));
  return v;
}

}  // namespace bx
