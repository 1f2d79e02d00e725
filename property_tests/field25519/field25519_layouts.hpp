// GoogleTest type lists derived from f25519::AllLayouts: a layout added there is tested by every typed
// suite (host: the portable backend; GPU: every backend) without touching the tests.
#pragma once
#include <gtest/gtest.h>

#include "gpu/field25519/layouts.hpp"

namespace bx::test {

template <class List>
struct LayoutTypes;
template <template <class> class... Ls>
struct LayoutTypes<f25519::layout_list<Ls...>> {
  using portable = ::testing::Types<Ls<carry::portable>...>;
  using every_backend = ::testing::Types<Ls<carry::portable>..., Ls<carry::ptx>...>;
};
using HostLayouts = LayoutTypes<f25519::AllLayouts>::portable;
using DeviceLayouts = LayoutTypes<f25519::AllLayouts>::every_backend;

}  // namespace bx::test
