// Where one call of a plugin's operation runs, with the buffers it is handed. Adapters write each binding
// once as a generic lambda over a site and run it on the place the implementation declares:
//   HostSite    buffers in a shared mapping between guard zones (isolate::Arena), the call in a forked
//               child with a timeout (isolate::checked_call);
//   DeviceSite  device buffers between guard zones on one GPU, the call in this process on bitexact's
//               stream, then the stream synchronised and the guards and inputs checked. A device call
//               cannot be killed: past the timeout bitexact ends with one error line naming the call.
// Every failure throws std::runtime_error "<who> <what>: <reason>".
#pragma once
#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>

#include <bitexact/plugin.h>

#include "suite/hex.hpp"  // InputError
#include "suite/isolate.hpp"

namespace bx::suite {

class HostSite {
 public:
  const uint8_t* in(const void* data, size_t n, const char* name) { return arena_.input(static_cast<const uint8_t*>(data), n, name); }
  uint8_t* out(size_t n, const char* name) { return arena_.output(n, name); }
  void get(void* host, const uint8_t* buf, size_t n) {
    if (n) std::memcpy(host, buf, n);  // an empty vector's data() may be null
  }
  // Returns the seconds the call took, measured in the child around the call alone (no fork, no wait).
  double run(const std::string& who, const std::string& what, const std::function<int(void* stream)>& fn) {
    double* seconds = reinterpret_cast<double*>(arena_.output(sizeof(double), "seconds"));
    isolate::checked_call(who, what, arena_, [&] {
      const auto t0 = std::chrono::steady_clock::now();
      const int rc = fn(nullptr);
      *seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      return rc;
    });
    return *seconds;
  }

 private:
  isolate::Arena arena_;
};

class DeviceSite {
 public:
  explicit DeviceSite(int device);
  ~DeviceSite();
  DeviceSite(const DeviceSite&) = delete;
  DeviceSite& operator=(const DeviceSite&) = delete;
  const uint8_t* in(const void* data, size_t n, const char* name);
  uint8_t* out(size_t n, const char* name);
  void get(void* host, const uint8_t* buf, size_t n);
  // Returns the seconds from the call to its stream's completion (what bench times for a device plugin).
  double run(const std::string& who, const std::string& what, const std::function<int(void* stream)>& fn);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Whether this build can run device implementations (a CUDA build).
bool device_sites_available();

// fn(site) on a fresh site for `device` (-1: the host).
// The place checks of every family's adapt: a device implementation needs a CUDA build (an InputError
// naming `who`), and the device asked for must match the place (-1 for a host one; else a caller's bug).
inline void require_place(uint32_t place, int device, const std::string& who, const char* family) {
  if (place == BX_PLACE_DEVICE && !device_sites_available())
    throw InputError(who + ": a device implementation needs a CUDA build of bitexact");
  if ((place == BX_PLACE_DEVICE) != (device >= 0)) throw std::logic_error(std::string(family) + " adapt: place and device disagree");
}

template <class Fn>
void on_site(int device, Fn&& fn) {
  if (device < 0) {
    HostSite s;
    fn(s);
  } else {
    DeviceSite s(device);
    fn(s);
  }
}

}  // namespace bx::suite
