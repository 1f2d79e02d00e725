// Shared pieces of the field25519 launchers (included by the .cu files only): the implementation list
// and name dispatch.
#pragma once
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

#include "gpu/core/cuda_check.hpp"
#include "gpu/kernels/cuda_util.cuh"
#include "gpu/field25519/layouts.hpp"

namespace bx::kern {
namespace {

using namespace bx::f25519;
using carry::portable;
using carry::ptx;

// Every layout of AllLayouts on every backend, in one fixed order (the bulk kernel's mismatch bits and
// fe_device_impls() follow it). A layout added to AllLayouts gets its kernels from this list.
template <class... Lists>
struct concat;
template <>
struct concat<> {
  using type = type_list<>;
};
template <class... A>
struct concat<type_list<A...>> {
  using type = type_list<A...>;
};
template <class... A, class... B, class... Rest>
struct concat<type_list<A...>, type_list<B...>, Rest...> {
  using type = typename concat<type_list<A..., B...>, Rest...>::type;
};
// Each layout's backends side by side (fe51/portable, fe51/ptx, fe32/portable, ...).
template <class List>
struct device_impls_of;
template <template <class> class... Ls>
struct device_impls_of<layout_list<Ls...>> {
  using type = typename concat<type_list<Ls<portable>, Ls<ptx>>...>::type;
};
using DeviceImpls = device_impls_of<AllLayouts>::type;

// The per-implementation kernels of field25519_eval.cu and field25519_x25519.cu: every implementation, or
// with BX_FIELD25519_KERNELS=one (a gate without a GPU: each kernel template once) fe32/ptx and fe51s/ptx,
// the two carry paths whose device code runs nowhere on the host (PTX integer chains, FP64 product
// splits), so that the on-card selftest of that build still checks both. The bulk kernel
// (field25519_bulk.cu) always runs every implementation, so every layout's device code is compiled.
#if defined(BX_FIELD25519_KERNELS_ONE)
using KernelImpls = type_list<Fe32<ptx>, Fe51s<ptx>>;
#else
using KernelImpls = DeviceImpls;
#endif

template <class F>
std::string impl_name() {
  return std::string(F::name) + "/" + F::backend::name;
}

// fn(F{}) for every implementation F of the list, in order: on the host (launch selection) and, as
// for_each_impl_on_device, inside kernels. Host-only where it can be, so nvcc does not compile every
// launcher lambda for the device too.
template <class... Fs, class Fn>
void for_each_impl(type_list<Fs...>, Fn&& fn) {
  (fn(Fs{}), ...);
}
template <class... Fs, class Fn>
__device__ __forceinline__ void for_each_impl_on_device(type_list<Fs...>, Fn&& fn) {
  (fn(Fs{}), ...);
}

template <class Fn>
void with_impl(const std::string& impl, Fn&& fn) {
  bool found = false;
  for_each_impl(DeviceImpls{}, [&](auto tag) {
    if (!found && impl == impl_name<decltype(tag)>()) {
      found = true;
      fn(tag);
    }
  });
  if (!found) throw std::invalid_argument("unknown field25519 implementation: " + impl);
}
// The same over KernelImpls (the kernels of this build).
template <class Fn>
void with_kernel_impl(const std::string& impl, Fn&& fn) {
  bool found = false;
  for_each_impl(KernelImpls{}, [&](auto tag) {
    if (!found && impl == impl_name<decltype(tag)>()) {
      found = true;
      fn(tag);
    }
  });
  if (!found)
    throw std::invalid_argument("field25519 implementation " + impl + ": its kernels are not in this build (BX_FIELD25519_KERNELS=one)");
}

}  // namespace
}  // namespace bx::kern
