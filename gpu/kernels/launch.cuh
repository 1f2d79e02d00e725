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

#define BX_FE_IMPLS(X) \
  X(Fe51, portable) X(Fe51, ptx) X(Fe32, portable) X(Fe32, ptx) X(Fe29, portable) X(Fe29, ptx) X(Fe26, portable) X(Fe26, ptx)

template <class F>
std::string impl_name() {
  return std::string(F::name) + "/" + F::backend::name;
}

template <class Fn>
void with_impl(const std::string& impl, Fn&& fn) {
#define BX_DISPATCH(L, B)                 \
  if (impl == impl_name<L<B>>()) {        \
    fn(L<B>{});                           \
    return;                               \
  }
  BX_FE_IMPLS(BX_DISPATCH)
#undef BX_DISPATCH
  throw std::invalid_argument("unknown field25519 implementation: " + impl);
}

}  // namespace
}  // namespace bx::kern
