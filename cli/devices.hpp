// Where implementations run: the CPU (host builds of the portable code) and CUDA devices.
// Every command takes --device cpu|all|gpu|N; a GPU that is asked for and absent is an InputError.
#pragma once
#include <string>
#include <vector>

namespace bx {

struct DeviceSelection {
  bool cpu = true;
  std::vector<int> gpus;
};
int gpu_count();  // 0 without CUDA support or a usable device; never throws
std::string gpu_name(int dev);
std::string gpu_pci_bus_id(int dev);  // "" without CUDA
int cuda_driver_version();            // 13000 for CUDA 13.0; 0 without CUDA
int cuda_runtime_version();
// "cpu", "all" (CPU and every GPU), "gpu" (every GPU, at least one) or a GPU index N; throws InputError.
DeviceSelection parse_devices(const std::string& s);
// The selection of an empty --device: `gpu` where one exists and the command prefers it, else `cpu`.
DeviceSelection default_devices(bool prefer_gpu);
// "cpu" / "gpuN" names of a selection, in order.
std::vector<std::string> place_names(const DeviceSelection& sel);
// The same places as devices: -1 for the CPU, then the GPUs.
std::vector<int> place_devices(const DeviceSelection& sel);

}  // namespace bx
