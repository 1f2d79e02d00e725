// libFuzzer differential target: a program of Goldilocks field operations decoded from the input, run on
// gl64 and gl2x32<carry::portable> (lazy u64 lanes, as the kernels keep them) and on the golden model
// reference/qpow (exact big-integer arithmetic mod p); after every operation both layouts' results must
// be canonically equal to the reference. The lossy engine's host model gl2x32_lossy<carry::portable> runs
// each operation on the same inputs and may differ from the exact value only by one documented error term
// (spec §7: +EPS, +2^32 or -EPS mod p; its sub and neg are exact). gl2x32's deferred products
// (mul, sqr, fused; kDeferBorrow) must equal its exact ones bit for bit but for a counted borrow, which
// adds exactly EPS. On a difference: the program, the
// operation, its inputs and every implementation's answer, then abort().
//
// Input: bytes 0..31 = registers r0..r3 (little-endian u64, any value: lazy lanes in [p, 2^64) allowed),
// then instructions of one byte c: op = c & 15, d = (c >> 4) & 3 (destination and first operand),
// s = c >> 6 (second operand); ops 8 and 9 read one more operand from the input:
//   0 add(rd, rs)   1 sub(rd, rs)   2 mul(rd, rs)   3 sqr(rs)        4 neg(rs)     5 canonical(rs)
//   6 sbox(rs) (x^2, x^3, x^4, x^7, the permutation's chain)     7 reduce128(lo = rd, hi = rs)
//   8 rd = next 8 bytes (LE u64)    9 rd = boundary value[next byte] (spec §8 catalogue, lazy included)
//  10 rd = rd * k + (r0 + r1 + r2 + r3) with one reduction (mul_add_reduce, the fused internal layer;
//     k = canonical(rs) mod (2^64 - 2^59), the bound the layouts rely on)
//  11 rd = sum of 28 registers r[(s + i) & 3] in a 96-bit accumulator (acc_reduce; the M_E row-sum bound)
//  12 rd = lazy(rs): canonical(rs) + p when that is below 2^64, else canonical(rs)
//  13 sub(rs, rd)   14 add(rs, rs)   15 mul(rs, rs) through mul (not sqr)
// At most 96 instructions run.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "gpu/qpow/goldilocks/gl2x32.hpp"
#include "gpu/qpow/goldilocks/gl64.hpp"
#include "reference/qpow/qpow_ref.hpp"

namespace {
namespace R = bx::ref::qpow;
using bx::carry::portable;
using G64 = bx::gl::gl64;
using G32 = bx::gl::gl2x32<portable>;
using Lossy = bx::gl::gl2x32_lossy<portable>;
using bx::gl::Acc96;
constexpr uint64_t P = bx::gl::P, EPS = bx::gl::EPS;
constexpr uint64_t kDiagBound = 0xffffffffffffffffull - (1ull << 59) + 1;  // 2^64 - 2^59

const char* kOpNames[16] = {"add", "sub", "mul", "sqr", "neg", "canonical", "sbox", "reduce128",
                            "load", "load-edge", "mul_add_reduce", "acc_reduce28", "lazy", "rsub", "double", "mul-self"};
const uint64_t kEdge[] = {0, 1, 2, P - 2, P - 1, P, P + 1, ~0ull - 1, ~0ull, EPS, 1ull << 32, (1ull << 32) + 1, 1ull << 48,
                          1ull << 63, 2 * EPS, 0xfffffffeffffffffull, 0x8000000080000000ull, 0xffffffff00000000ull,
                          0x7fffffff00000000ull, 0xb504f334b504f334ull, 28, kDiagBound - 1, 0x00000000fffffffeull};
constexpr size_t kEdgeCount = sizeof kEdge / sizeof kEdge[0];

std::string program;

struct Inputs {  // what one operation read, per implementation
  uint64_t g64[2], g32[2];
};

[[noreturn]] void report(const char* what, int op, const Inputs& in, uint64_t ref, uint64_t g64, uint64_t g32, uint64_t lossy) {
  std::fprintf(stderr,
               "qpow_field_diff: DIFFERENCE (%s) in %s\n  program: %s\n"
               "  inputs gl64          %016llx %016llx\n  inputs gl2x32        %016llx %016llx\n"
               "  reference (canonical) %016llx\n  gl64                 %016llx (canonical %016llx)\n"
               "  gl2x32/portable      %016llx (canonical %016llx)\n  gl2x32-lossy-model   %016llx (canonical %016llx)\n",
               what, kOpNames[op], program.c_str(), (unsigned long long)in.g64[0], (unsigned long long)in.g64[1],
               (unsigned long long)in.g32[0], (unsigned long long)in.g32[1], (unsigned long long)ref, (unsigned long long)g64,
               (unsigned long long)bx::gl::canonical(g64), (unsigned long long)g32, (unsigned long long)bx::gl::canonical(g32),
               (unsigned long long)lossy, (unsigned long long)bx::gl::canonical(lossy));
  std::abort();
}

// The lossy model's answer may be the exact value plus 0, EPS, 2^32 or -EPS (mod p), nothing else.
bool documented_error(uint64_t lossy, uint64_t exact_canonical) {
  const uint64_t d = R::sub(lossy, exact_canonical);
  return d == 0 || d == EPS || d == (1ull << 32) || d == P - EPS;
}

template <class L>
uint64_t sbox_chain(uint64_t x) {  // the permutation's chain (gpu/qpow/poseidon2/permutation.hpp)
  const uint64_t x2 = L::sqr(x), x3 = L::mul(x2, x), x4 = L::sqr(x2);
  return L::mul(x3, x4);
}

template <class L>
uint64_t run_op(int op, uint64_t rd, uint64_t rs, const uint64_t r[4], uint64_t k, int s) {
  switch (op) {
    case 0: return L::add(rd, rs);
    case 1: return L::sub(rd, rs);
    case 2: return L::mul(rd, rs);
    case 3: return L::sqr(rs);
    case 4: return L::neg(rs);
    case 5: return bx::gl::canonical(rs);
    case 6: return sbox_chain<L>(rs);
    case 7: return L::reduce128(rd, rs);
    case 10: {
      Acc96 acc = L::acc_of(r[0]);
      for (int i = 1; i < 4; ++i) L::acc_add(acc, r[i]);
      return L::mul_add_reduce(rd, k, acc);
    }
    case 11: {
      Acc96 acc = L::acc_of(r[s & 3]);
      for (int i = 1; i < 28; ++i) L::acc_add(acc, r[(s + i) & 3]);
      return L::acc_reduce(acc);
    }
    case 13: return L::sub(rs, rd);
    case 14: return L::add(rs, rs);
    case 15: return L::mul(rs, rs);
  }
  std::abort();
}

uint64_t ref_op(int op, uint64_t rd, uint64_t rs, const uint64_t r[4], uint64_t k, int s) {
  switch (op) {
    case 0: return R::add(rd, rs);
    case 1: return R::sub(rd, rs);
    case 2: return R::mul(rd, rs);
    case 3: return R::sqr(rs);
    case 4: return R::neg(rs);
    case 5: return R::canonical(rs);
    case 6: return R::sbox(rs);
    case 7: return R::reduce128(rs, rd);  // reference order: (hi, lo)
    case 10: return R::add(R::mul(rd, k), R::add(R::add(r[0], r[1]), R::add(r[2], r[3])));
    case 11: {
      uint64_t t = 0;
      for (int i = 0; i < 28; ++i) t = R::add(t, r[(s + i) & 3]);
      return t;
    }
    case 13: return R::sub(rs, rd);
    case 14: return R::add(rs, rs);
    case 15: return R::mul(rs, rs);
  }
  std::abort();
}

uint64_t le64(const uint8_t* p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = v << 8 | p[i];
  return v;
}
std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "%llx", (unsigned long long)v);
  return b;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 32) return 0;
  uint64_t g64[4], g32[4], ref[4];
  program.clear();
  for (int i = 0; i < 4; ++i) {
    g64[i] = g32[i] = le64(data + 8 * i);
    ref[i] = R::canonical(g64[i]);
    program += "r" + std::to_string(i) + "=" + hex(g64[i]) + " ";
  }
  program += "| ";
  size_t pos = 32;
  for (int step = 0; step < 96 && pos < size; ++step) {
    const uint8_t c = data[pos++];
    const int op = c & 15, d = (c >> 4) & 3, s = c >> 6;
    if (op == 8 || op == 9 || op == 12) {  // loads: the same raw value into every implementation
      uint64_t v;
      if (op == 8) {
        if (pos + 8 > size) break;
        v = le64(data + pos);
        pos += 8;
      } else if (op == 9) {
        if (pos >= size) break;
        v = kEdge[data[pos++] % kEdgeCount];
      } else {
        v = ref[s];
        if (v < EPS) v += P;
      }
      g64[d] = g32[d] = v;
      ref[d] = R::canonical(v);
      program += std::string(kOpNames[op]) + "(" + hex(v) + ")->r" + std::to_string(d) + "; ";
      continue;
    }
    const uint64_t k = ref[s] % kDiagBound;  // the fused product's multiplier, the same for all
    Inputs in{{g64[d], g64[s]}, {g32[d], g32[s]}};
    const uint64_t want = ref_op(op, ref[d], ref[s], ref, k, s);
    const uint64_t a64 = run_op<G64>(op, g64[d], g64[s], g64, k, s);
    const uint64_t a32 = run_op<G32>(op, g32[d], g32[s], g32, k, s);
    // The lossy model on the exact layout's inputs, one reduction at a time (the sbox step by step).
    uint64_t lossy;
    if (op == 6) {
      const uint64_t x = g32[s];
      const uint64_t x2 = Lossy::sqr(x);
      if (!documented_error(x2, R::sqr(x))) report("lossy sbox x^2 beyond the documented error terms", op, in, R::sqr(x), a64, a32, x2);
      const uint64_t x3 = Lossy::mul(x2, x);
      if (!documented_error(x3, R::mul(x2, x))) report("lossy sbox x^3 beyond the documented error terms", op, in, R::mul(x2, x), a64, a32, x3);
      const uint64_t x4 = Lossy::sqr(x2);
      if (!documented_error(x4, R::sqr(x2))) report("lossy sbox x^4 beyond the documented error terms", op, in, R::sqr(x2), a64, a32, x4);
      lossy = Lossy::mul(x3, x4);
      if (!documented_error(lossy, R::mul(x3, x4))) report("lossy sbox x^7 beyond the documented error terms", op, in, R::mul(x3, x4), a64, a32, lossy);
    } else {
      lossy = run_op<Lossy>(op, g32[d], g32[s], g32, k, s);
      const bool exact_op = op == 1 || op == 4 || op == 5 || op == 13;  // sub, neg, canonical: no lossy step
      if (exact_op ? R::canonical(lossy) != want : !documented_error(lossy, want))
        report("lossy model beyond the documented error terms", op, in, want, a64, a32, lossy);
    }
    // The fused product: gl64 also has a branch-free reduce128; both must agree canonically.
    if (op == 7) {
      const uint64_t bf = G64::reduce128_branchfree(g64[d], g64[s]);
      if (R::canonical(bf) != want) report("gl64 reduce128_branchfree", op, in, want, bf, a32, lossy);
    }
    if (op == 5 && (a64 >= P || a32 >= P)) report("canonical returned a lazy value", op, in, want, a64, a32, lossy);
    if (op == 2 || op == 3 || op == 10 || op == 15) {
      // The deferred final borrow (kDeferBorrow): gl2x32's product bit for bit when no borrow was
      // counted, that product + EPS (mod 2^64) with exactly one counted (borrows counts down).
      uint32_t borrows = 0;
      uint64_t dfr;
      if (op == 3) {
        dfr = G32::sqr_deferred(g32[s], borrows);
      } else if (op == 10) {
        Acc96 acc = G32::acc_of(g32[0]);
        for (int i = 1; i < 4; ++i) G32::acc_add(acc, g32[i]);
        dfr = G32::mul_add_reduce_deferred(g32[d], k, acc, borrows);
      } else {
        dfr = G32::mul_deferred(op == 2 ? g32[d] : g32[s], g32[s], borrows);
      }
      if (borrows != 0 && borrows != 0xffffffffu) report("deferred product counted more than one borrow", op, in, want, a64, a32, dfr);
      if (dfr != (borrows ? a32 + EPS : a32))
        report("deferred product differs from gl2x32's exact one beyond its counted borrow (lossy column: deferred)", op, in,
               want, a64, a32, dfr);
    }
    program += std::string(kOpNames[op]) + "(r" + std::to_string(d) + ",r" + std::to_string(s) + ")->r" + std::to_string(d) + "; ";
    if (R::canonical(a64) != want || R::canonical(a32) != want) report("exact layout differs from the reference", op, in, want, a64, a32, lossy);
    g64[d] = a64;
    g32[d] = a32;
    ref[d] = want;
  }
  return 0;
}
