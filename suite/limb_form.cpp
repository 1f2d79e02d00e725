#include "suite/limb_form.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <stdexcept>

namespace bx::suite {

const char* bound_name(Bound b) { return b == Bound::tight ? "tight" : b == Bound::loose ? "loose" : "lazy2"; }

bool LimbForm::has_lazy2() const {
  for (uint64_t m : lazy2)
    if (m) return true;
  return false;
}

const std::vector<uint64_t>& LimbForm::max(Bound b) const { return b == Bound::tight ? tight : b == Bound::loose ? loose : lazy2; }

std::string LimbForm::invalid_because(const Int& p) const {
  if (limbs < 1 || limbs > 32) return "limb_count " + std::to_string(limbs) + " is not in 1..32";
  if (bits != 32 && bits != 64) return "limb_bits " + std::to_string(bits) + " is not 32 or 64";
  if (int(weight.size()) != limbs || int(tight.size()) != limbs || int(loose.size()) != limbs || int(lazy2.size()) != limbs)
    return "bound arrays do not have limb_count entries";
  if (weight[0] != 0) return "weight[0] is " + std::to_string(weight[0]) + ", not 0";
  for (int j = 1; j < limbs; ++j)
    if (weight[j] <= weight[j - 1] || weight[j] > 4096) return "weights do not increase at limb " + std::to_string(j);
  if (montgomery_bits < 0 || montgomery_bits > 4096) return "montgomery_bits out of range";
  const uint64_t cap = is_signed ? (uint64_t(1) << (bits - 1)) - 1 : bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1;
  for (Bound b : {Bound::tight, Bound::loose, Bound::lazy2}) {
    if (b == Bound::lazy2 && !has_lazy2()) continue;
    for (int j = 0; j < limbs; ++j) {
      if (max(b)[j] > cap)
        return std::string(bound_name(b)) + " bound of limb " + std::to_string(j) + " does not fit a " + std::to_string(bits) + "-bit " +
               (is_signed ? "signed" : "unsigned") + " limb";
      if (b != Bound::tight && max(b)[j] < max(b == Bound::loose ? Bound::tight : Bound::loose)[j])
        return std::string(bound_name(b)) + " bound of limb " + std::to_string(j) + " is below the narrower bound";
    }
  }
  // Every value below p must have a tight representation (the checks build their inputs that way): each
  // lower limb must hold every digit of its width, and a sample of values (0, 1, each limb's digit at its
  // maximum, values near p, p/2 and the weights) must be representable.
  for (int j = 0; j + 1 < limbs; ++j) {
    const int s = weight[j + 1] - weight[j];
    if (s > 64) return "the gap between limb " + std::to_string(j) + " and " + std::to_string(j + 1) + " is wider than a limb";
    const Int need = is_signed ? Int(1) << (s - 1) : (Int(1) << s) - 1;
    if (Int(tight[j]) < need)
      return "the tight bound of limb " + std::to_string(j) + " cannot hold every " + std::to_string(s) + "-bit digit";
  }
  std::vector<Int> sample = {0, 1, p - 1, p - 2, (p - 1) / 2, (p + 1) / 2};
  for (int j = 0; j < limbs; ++j)
    if (weight[j] < 4096) {
      const Int w = Int(1) << weight[j];
      if (w < p) sample.push_back(w), sample.push_back(w - 1), sample.push_back(p - w);
    }
  for (const Int& v : sample)
    if (!represent(*this, v, p)) return "the tight bound cannot hold every value below p (no tight representation of 0x" + v.str(0, std::ios_base::hex) + ")";
  return "";
}

std::string LimbForm::describe() const {
  std::string s = std::to_string(limbs) + " x " + std::to_string(bits) + "-bit " + (is_signed ? "signed" : "unsigned") + " limbs, weights ";
  for (int j = 0; j < limbs; ++j) s += (j ? "," : "") + std::to_string(weight[j]);
  if (montgomery_bits) s += ", Montgomery form R = 2^" + std::to_string(montgomery_bits);
  if (has_lazy2()) s += ", lazy2 declared";
  return s;
}

Int held(const LimbForm& f, const Limbs& x) {
  Int v = 0;
  for (int j = 0; j < f.limbs; ++j) v += x[j] << f.weight[j];
  return v;
}

Int element(const LimbForm& f, const Limbs& x, const Int& p) {
  const ref::PrimeField F(p);
  const Int v = F.reduce(held(f, x));
  if (!f.montgomery_bits) return v;
  return F.mul(v, F.inv(F.reduce(Int(1) << f.montgomery_bits)));
}

namespace {
std::string hex_int(const Int& v) {
  std::string h = (v < 0 ? Int(-v) : v).str(0, std::ios_base::hex);
  for (char& c : h) c = char(std::tolower(static_cast<unsigned char>(c)));
  return (v < 0 ? "-0x" : "0x") + h;
}
}  // namespace

std::string past_bound(const LimbForm& f, const Limbs& x, Bound b) {
  const auto& mx = f.max(b);
  for (int j = 0; j < f.limbs; ++j) {
    const bool neg = x[j] < 0;
    if ((neg && !f.is_signed) || (neg ? Int(-x[j]) : x[j]) > Int(mx[j])) {
      char buf[96];
      std::snprintf(buf, sizeof buf, " > %s bound 0x%llx", bound_name(b), (unsigned long long)mx[j]);
      return "limb " + std::to_string(j) + " = " + hex_int(x[j]) + (neg && !f.is_signed ? " is negative in an unsigned form" : buf);
    }
  }
  return "";
}

bool within(const LimbForm& f, const Limbs& x, Bound b) {
  if (b == Bound::lazy2 && !f.has_lazy2()) return false;
  return past_bound(f, x, b).empty();
}

namespace {
// Floor modulus and exact digits: d = v mod 2^s in [0, 2^s) (balanced to [-2^(s-1), 2^(s-1)) when signed).
Limbs digits(const LimbForm& f, Int v) {
  Limbs r(f.limbs);
  for (int j = 0; j + 1 < f.limbs; ++j) {
    const int s = f.weight[j + 1] - f.weight[j];
    const Int m = Int(1) << s;
    Int d = v % m;
    if (d < 0) d += m;
    if (f.is_signed && d >= (m >> 1)) d -= m;
    r[j] = d;
    v = (v - d) >> s;  // exact: v - d is a multiple of 2^s
  }
  r[f.limbs - 1] = v;
  return r;
}
}  // namespace

std::optional<Limbs> represent(const LimbForm& f, const Int& v, const Int& p) {
  for (const Int& c : {v, Int(v - p), Int(v + p)}) {
    Limbs r = digits(f, c);
    if (within(f, r, Bound::tight)) return r;
  }
  return std::nullopt;
}

Limbs represent_element(const LimbForm& f, const Int& e, const Int& p) {
  const ref::PrimeField F(p);
  const Int held_value = f.montgomery_bits ? F.mul(e, F.reduce(Int(1) << f.montgomery_bits)) : F.reduce(e);
  auto r = represent(f, held_value, p);
  // invalid_because() refuses forms that cannot hold a value below p; built-in forms are checked by tests.
  if (!r) throw std::logic_error("limb form cannot represent 0x" + held_value.str(0, std::ios_base::hex) + " (" + f.describe() + ")");
  return *r;
}

std::vector<Limbs> corners(const LimbForm& f, Bound b) {
  std::vector<Limbs> out;
  if (b == Bound::lazy2 && !f.has_lazy2()) return out;
  const auto& mx = f.max(b);
  auto make = [&](auto fn) {
    Limbs r(f.limbs);
    for (int j = 0; j < f.limbs; ++j) r[j] = fn(j);
    out.push_back(r);
  };
  make([&](int j) { return Int(mx[j]); });
  make([&](int) { return Int(0); });
  make([&](int j) { return j & 1 ? Int(mx[j]) : Int(0); });
  make([&](int j) { return j & 1 ? Int(0) : Int(mx[j]); });
  make([&](int j) { return mx[j] ? Int(mx[j] - 1) : Int(0); });
  if (f.is_signed) {
    make([&](int j) { return Int(-Int(mx[j])); });
    make([&](int j) { return j & 1 ? Int(-Int(mx[j])) : Int(mx[j]); });
  }
  for (int k = 0; k < f.limbs; ++k) make([&](int j) { return j == k ? Int(mx[j]) : Int(0); });
  return out;
}

std::vector<Limbs> just_outside(const LimbForm& f, Bound b) {
  std::vector<Limbs> out;
  if (b == Bound::lazy2 && !f.has_lazy2()) return out;
  const auto& mx = f.max(b);
  const Int cap = f.is_signed ? (Int(1) << (f.bits - 1)) - 1 : (Int(1) << f.bits) - 1;
  for (int k = 0; k < f.limbs; ++k) {
    if (Int(mx[k]) + 1 > cap) continue;  // the storage cannot hold it: nothing lies just outside
    Limbs r(f.limbs, Int(0));
    r[k] = Int(mx[k]) + 1;
    out.push_back(r);
  }
  return out;
}

size_t element_bytes(const LimbForm& f) { return size_t(f.limbs) * (f.bits / 8); }

std::vector<uint8_t> pack(const LimbForm& f, const std::vector<Limbs>& xs) {
  std::vector<uint8_t> out(xs.size() * element_bytes(f));
  uint8_t* o = out.data();
  const Int mod = Int(1) << f.bits;
  for (const Limbs& x : xs)
    for (int j = 0; j < f.limbs; ++j) {
      Int v = x[j] % mod;
      if (v < 0) v += mod;
      const uint64_t w = v.convert_to<uint64_t>();
      if (f.bits == 32) {
        const uint32_t w32 = uint32_t(w);
        std::memcpy(o, &w32, 4), o += 4;
      } else {
        std::memcpy(o, &w, 8), o += 8;
      }
    }
  return out;
}

std::vector<Limbs> unpack(const LimbForm& f, const uint8_t* data, size_t n) {
  std::vector<Limbs> out(n, Limbs(f.limbs));
  for (size_t i = 0; i < n; ++i)
    for (int j = 0; j < f.limbs; ++j) {
      if (f.bits == 32) {
        uint32_t w;
        std::memcpy(&w, data, 4), data += 4;
        out[i][j] = f.is_signed ? Int(int32_t(w)) : Int(w);
      } else {
        uint64_t w;
        std::memcpy(&w, data, 8), data += 8;
        out[i][j] = f.is_signed ? Int(int64_t(w)) : Int(w);
      }
    }
  return out;
}

std::string limbs_hex(const Limbs& x) {
  std::string s = "[";
  for (size_t j = 0; j < x.size(); ++j) s += (j ? ", " : "") + hex_int(x[j]);
  return s + "]";
}

}  // namespace bx::suite
