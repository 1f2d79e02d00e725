// libFuzzer differential target: two operands and an operation program decoded from the input, run on
// every layout (portable backend) and on the golden model; any difference aborts with a full report
// (the program, the operands and every implementation's answer), cryptofuzz style.
//
// Input: bytes 0..31 operand a, 32..63 operand b (bit 255 ignored), then one byte per operation:
//   bits 0..2 op (add sub mul sqr mul_small neg invert canonical), bits 3..4 first source register,
//   bits 5..6 second source register, bit 7 destination (r2 or r3). r0 = r2 = a, r1 = r3 = b.
// The layout contract is kept by the program itself: add takes tight registers; a loose one is
// carried first (an operation of its own, checked too).
#include "fuzz/fuzz_hex.hpp"
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/field25519/layouts.hpp"
#include "reference/field25519/ref25519.hpp"

namespace {
using namespace bx::f25519;
namespace R = bx::ref::f25519;
using bx::carry::portable;

template <class F>
struct Machine {
  typename F::fe r[4];
  void init(const uint8_t* a, const uint8_t* b) {
    F::from_bytes(r[0], a);
    F::from_bytes(r[1], b);
    r[2] = r[0];
    r[3] = r[1];
  }
  void step(int op, int s1, int s2, int d, bool carry1, bool carry2) {
    typename F::fe x = r[s1], y = r[s2];
    if (carry1) F::carry(x, x);
    if (carry2) F::carry(y, y);
    switch (op) {
      case 0: F::add(r[d], x, y); break;
      case 1: F::sub(r[d], x, y); break;
      case 2: F::mul(r[d], x, y); break;
      case 3: F::sqr(r[d], x); break;
      case 4: F::mul_small(r[d], x, kMulSmallK); break;
      case 5: F::neg(r[d], x); break;
      case 6: fe_invert<F>(r[d], x); break;
      default: F::carry(r[d], x); break;
    }
  }
  void out(uint8_t s[32], int d) const { F::to_bytes(s, r[d]); }
  static std::string name() { return std::string(F::name) + "/portable"; }
};

// One machine per layout of AllLayouts.
template <class L>
struct machines_of;
template <template <class> class... Ls>
struct machines_of<layout_list<Ls...>> {
  using type = std::tuple<Machine<Ls<portable>>...>;
};
using Machines = machines_of<AllLayouts>::type;
template <class Fn>
void each_machine(Machines& ms, Fn&& fn) {
  std::apply([&](auto&... m) { (fn(m), ...); }, ms);
}

const char* kOpNames[8] = {"add", "sub", "mul", "sqr", "mul_small", "neg", "invert", "carry"};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 64) return 0;
  uint8_t a[32], b[32];
  for (int i = 0; i < 32; ++i) a[i] = data[i], b[i] = data[32 + i];
  a[31] &= 0x7f;
  b[31] &= 0x7f;
  Machines ms;
  each_machine(ms, [&](auto& m) { m.init(a, b); });
  bx::ref::Int ref[4];
  {
    R::Bytes32 ab, bb;
    std::copy(a, a + 32, ab.begin());
    std::copy(b, b + 32, bb.begin());
    ref[0] = ref[2] = R::field().reduce(R::raw_value(ab));
    ref[1] = ref[3] = R::field().reduce(R::raw_value(bb));
  }
  bool tight[4] = {true, true, true, true};
  std::string program;
  int inversions = 0;
  const size_t n_ops = std::min<size_t>(size - 64, 64);
  for (size_t k = 0; k < n_ops; ++k) {
    const uint8_t c = data[64 + k];
    int op = c & 7;
    const int s1 = (c >> 3) & 3, s2 = (c >> 5) & 3, d = 2 + (c >> 7);
    if (op == 6 && ++inversions > 2) op = 2;  // bound the cost of a run
    const bool c1 = op == 0 && !tight[s1], c2 = op == 0 && !tight[s2];
    each_machine(ms, [&](auto& m) { m.step(op, s1, s2, d, c1, c2); });
    const bx::ref::Int x = ref[s1], y = ref[s2];
    switch (op) {
      case 0: ref[d] = R::add(x, y); break;
      case 1: ref[d] = R::sub(x, y); break;
      case 2: ref[d] = R::mul(x, y); break;
      case 3: ref[d] = R::sqr(x); break;
      case 4: ref[d] = R::mul_small(x, kMulSmallK); break;
      case 5: ref[d] = R::neg(x); break;
      case 6: ref[d] = R::invert(x); break;
      default: ref[d] = x; break;
    }
    tight[d] = op != 0;
    program += std::string(kOpNames[op]) + "(r" + std::to_string(s1) + (op <= 2 ? ",r" + std::to_string(s2) : "") + ")->r" +
               std::to_string(d) + (c1 || c2 ? " [carried]" : "") + "; ";
    const auto e = R::encode(ref[d]);
    bool same = true;
    std::string answers;
    each_machine(ms, [&](auto& m) {
      uint8_t o[32];
      m.out(o, d);
      same = same && std::equal(e.begin(), e.end(), o);
      answers += "  " + m.name() + std::string(16 - std::min<size_t>(15, m.name().size()), ' ') + hex(o, 32) + "\n";
    });
    if (!same) {
      std::fprintf(stderr,
                   "field25519 differential failure after step %zu\n  program: %s\n  a = %s\n  b = %s\n"
                   "  reference       %s\n%s",
                   k, program.c_str(), hex(a, 32).c_str(), hex(b, 32).c_str(), hex(e.data(), 32).c_str(), answers.c_str());
      std::abort();
    }
  }
  return 0;
}
