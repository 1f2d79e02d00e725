// Field multiplications and squarings per attempt of each scalar strategy, counted on the host by running
// the per-item pipeline over fe32-portable through a counting layout (the digits are uniform across
// lanes, so a GPU attempt performs the same operations; only the TAI tries vary, averaged here over 256
// nonces), in the spec's form or the cofactor-folded one of the miner pipelines. The bench turns them into the IMAD share of each attempt: the PTX of fe32 issues 112 IMADs
// per multiplication (three 4x4 Karatsuba products of 16 mad.lo + 16 mad.hi, 16 in the 38-fold) and 88
// per squaring (56 cross, 16 diagonal, 16 fold). fe51s forms its products on the FP64 pipe instead: 3 FP64
// instructions a product (DFMA.RZ, DADD, DFMA.RZ) and one an operand conversion, so 25 * 3 + 10 = 85 per
// multiplication and 15 * 3 + 5 = 50 per squaring.
#include "cli/ecvrf/ecvrf.hpp"
#include "gpu/ecvrf/tai.hpp"
#include "reference/ecvrf/vrf.hpp"

namespace bx::ecvrf_family {
namespace {

thread_local uint64_t t_muls = 0, t_sqrs = 0;

template <class F>
struct Counted : F {
  using typename F::fe;
  BX_HD static void mul(fe& r, const fe& a, const fe& b) {
    ++t_muls;
    F::mul(r, a, b);
  }
  BX_HD static void sqr(fe& r, const fe& a) {
    ++t_sqrs;
    F::sqr(r, a);
  }
};

template <class S>
FieldOps count_of(const Job& job, bool folded) {
  using F = Counted<f25519::Fe32<carry::portable>>;
  const typename S::digits x = S::recode(folded ? ecvrf::cofactor_folded_scalar(job.x) : job.x);
  t_muls = t_sqrs = 0;
  const int n = 256;
  for (int i = 0; i < n; ++i) {
    uint8_t beta[64];
    ecvrf::H2cBlock m;
    ecvrf::h2c_block_miner(m, job.pk.data(), job.header.data(), uint64_t(i));
    if (folded) ecvrf::ecvrf_beta_block_folded<F, S>(beta, m, x);
    else ecvrf::ecvrf_beta_block<F, S>(beta, m, x);
  }
  return {double(t_muls) / n, double(t_sqrs) / n};
}

}  // namespace

FieldOps field_ops_per_attempt(const std::string& tag, const Job& job, bool folded) {
  if (tag == ecvrf::DoubleAdd::tag) return count_of<ecvrf::DoubleAdd>(job, folded);
  if (tag == ecvrf::Window4::tag) return count_of<ecvrf::Window4>(job, folded);
  if (tag == ecvrf::Wnaf5::tag) return count_of<ecvrf::Wnaf5>(job, folded);
  if (tag == ecvrf::JoyeTunstall::tag) return count_of<ecvrf::JoyeTunstall>(job, folded);
  throw std::invalid_argument("field_ops_per_attempt: unknown strategy " + tag);
}

}  // namespace bx::ecvrf_family
