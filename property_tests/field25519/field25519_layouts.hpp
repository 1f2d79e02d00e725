// GoogleTest type lists derived from f25519::AllLayouts: a layout added there is tested by every typed
// suite (host: the portable backend; GPU: every backend) without touching the tests.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <vector>

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

using f25519::for_each_host_layout;
// The layouts' names in AllLayouts order ("fe51", "fe32", ...).
inline std::vector<std::string> layout_names() {
  std::vector<std::string> out;
  for_each_host_layout([&]<class F>() { out.push_back(F::name); });
  return out;
}

}  // namespace bx::test
