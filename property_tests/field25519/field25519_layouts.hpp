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

// fn.template operator()<L<portable>>() for every layout L of AllLayouts, in order (for checks that
// compare the layouts with each other inside one property).
template <template <class> class... Ls, class Fn>
void for_each_host_layout_in(f25519::layout_list<Ls...>, Fn&& fn) {
  (fn.template operator()<Ls<carry::portable>>(), ...);
}
template <class Fn>
void for_each_host_layout(Fn&& fn) {
  for_each_host_layout_in(f25519::AllLayouts{}, fn);
}
// The layouts' names in AllLayouts order ("fe51", "fe32", ...).
inline std::vector<std::string> layout_names() {
  std::vector<std::string> out;
  for_each_host_layout([&]<class F>() { out.push_back(F::name); });
  return out;
}

}  // namespace bx::test
