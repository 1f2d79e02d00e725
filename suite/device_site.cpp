#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <stdexcept>
#include <vector>

#include "suite/call_site.hpp"
#if defined(BX_HAVE_CUDA)
#include "gpu/kernels/device.hpp"
#endif

namespace bx::suite {

namespace {
[[maybe_unused]] constexpr size_t kGuard = isolate::Arena::kGuard;  // unused where there is no CUDA
using isolate::kGuardPattern;
using isolate::kUnwritten;
}  // namespace

struct DeviceSite::Impl {
  int dev;
  struct Buf {
    uint8_t* base;
    size_t size;
    std::string name;
    std::vector<uint8_t> original;  // inputs
  };
  std::vector<Buf> bufs;
};

#if defined(BX_HAVE_CUDA)
bool device_sites_available() { return true; }

DeviceSite::DeviceSite(int device) : impl_(new Impl{device, {}}) {}
DeviceSite::~DeviceSite() {
  for (auto& b : impl_->bufs) kern::device_free(impl_->dev, b.base);
}
uint8_t* DeviceSite::out(size_t n, const char* name) {
  auto* base = static_cast<uint8_t*>(kern::device_alloc(impl_->dev, n + 2 * kGuard));
  kern::device_fill(impl_->dev, base, kGuardPattern, kGuard);
  kern::device_fill(impl_->dev, base + kGuard, kUnwritten, n);
  kern::device_fill(impl_->dev, base + kGuard + n, kGuardPattern, kGuard);
  impl_->bufs.push_back({base, n, name, {}});
  return base + kGuard;
}
const uint8_t* DeviceSite::in(const void* data, size_t n, const char* name) {
  uint8_t* p = out(n, name);
  if (n) kern::device_copy_in(impl_->dev, p, data, n);
  impl_->bufs.back().original.assign(static_cast<const uint8_t*>(data), static_cast<const uint8_t*>(data) + n);
  return p;
}
void DeviceSite::get(void* host, const uint8_t* buf, size_t n) {
  if (n) kern::device_copy_out(impl_->dev, host, buf, n);
}
double DeviceSite::run(const std::string& who, const std::string& what, const std::function<int(void* stream)>& fn) {
  const int dev = impl_->dev;
  void* stream = kern::device_stream(dev);
  // The fills and copies that set up the buffers ran on the legacy stream, which bitexact's non-blocking
  // stream does not wait for: finish them before the plugin sees its buffers.
  kern::device_sync_all(dev);
  // The call on a worker thread: a hang past the timeout cannot be killed, so bitexact ends, saying so.
  double seconds = 0;
  auto done = std::async(std::launch::async, [&] {
    kern::device_select(dev);
    const auto t0 = std::chrono::steady_clock::now();
    const int rc = fn(stream);
    kern::device_sync(dev, stream);
    seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return rc;
  });
  const double limit = isolate::default_timeout_s();
  if (done.wait_for(std::chrono::duration<double>(limit)) != std::future_status::ready) {
    std::fprintf(stderr, "bitexact: error: %s %s on gpu%d: hung past %g s (a device call cannot be killed: exiting)\n", who.c_str(),
                 what.c_str(), dev, limit);
    std::fflush(stderr);
    std::_Exit(1);
  }
  int rc;
  try {
    rc = done.get();
  } catch (const std::exception& e) {
    throw std::runtime_error(who + " " + what + " on gpu" + std::to_string(dev) + ": " + e.what());
  }
  if (rc != 0) throw std::runtime_error(who + " " + what + " on gpu" + std::to_string(dev) + ": returned error " + std::to_string(rc));
  for (const auto& b : impl_->bufs) {
    std::vector<uint8_t> g(kGuard);
    kern::device_copy_out(dev, g.data(), b.base, kGuard);
    for (size_t i = 0; i < kGuard; ++i)
      if (g[i] != kGuardPattern)
        throw std::runtime_error(who + " " + what + " on gpu" + std::to_string(dev) + ": wrote " + std::to_string(kGuard - i) +
                                 " byte(s) before the start of " + b.name);
    kern::device_copy_out(dev, g.data(), b.base + kGuard + b.size, kGuard);
    for (size_t i = kGuard; i-- > 0;)
      if (g[i] != kGuardPattern)
        throw std::runtime_error(who + " " + what + " on gpu" + std::to_string(dev) + ": wrote " + std::to_string(i + 1) +
                                 " byte(s) past the end of " + b.name);
    if (!b.original.empty()) {
      std::vector<uint8_t> now(b.size);
      kern::device_copy_out(dev, now.data(), b.base + kGuard, b.size);
      if (now != b.original) throw std::runtime_error(who + " " + what + " on gpu" + std::to_string(dev) + ": changed its input " + b.name);
    }
  }
  return seconds;
}
#else
bool device_sites_available() { return false; }
DeviceSite::DeviceSite(int) { throw std::runtime_error("device implementations need a CUDA build of bitexact"); }
DeviceSite::~DeviceSite() = default;
const uint8_t* DeviceSite::in(const void*, size_t, const char*) { return nullptr; }
uint8_t* DeviceSite::out(size_t, const char*) { return nullptr; }
void DeviceSite::get(void*, const uint8_t*, size_t) {}
double DeviceSite::run(const std::string&, const std::string&, const std::function<int(void*)>&) { return 0; }
#endif

}  // namespace bx::suite
