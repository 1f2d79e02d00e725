#include "suite/field25519/plugin_ops.hpp"

#include <cstddef>
#include <cstring>
#include <stdexcept>

#include "suite/call_site.hpp"

namespace bx::suite::field25519 {

// The C numbering is the engine's: one table of ops, no translation.
static_assert(BX_F25519_ADD == int(Op::add) && BX_F25519_SUB == int(Op::sub) && BX_F25519_NEG == int(Op::neg) &&
              BX_F25519_MUL == int(Op::mul) && BX_F25519_SQR == int(Op::sqr) && BX_F25519_MUL_SMALL == int(Op::mul_small) &&
              BX_F25519_INVERT == int(Op::invert) && BX_F25519_POW22523 == int(Op::pow22523) &&
              BX_F25519_SQRT_RATIO == int(Op::sqrt_ratio) && BX_F25519_CANONICAL == int(Op::canonical) &&
              BX_F25519_OP_COUNT == int(Op::count_) && BX_F25519_MUL_SMALL_K == f25519::kMulSmallK);

namespace {

LimbForm form_of(const bx_limb_form& f, const std::string& who) {
  if (f.struct_size < sizeof(bx_limb_form))
    throw InputError(who + ": limb_form struct_size " + std::to_string(f.struct_size) + ", want at least " + std::to_string(sizeof(bx_limb_form)));
  LimbForm r;
  r.limbs = int(f.limb_count);
  r.bits = int(f.limb_bits);
  r.is_signed = f.is_signed != 0;
  r.montgomery_bits = int(f.montgomery_bits);
  if (f.limb_count >= 1 && f.limb_count <= BX_MAX_LIMBS)
    for (uint32_t j = 0; j < f.limb_count; ++j) {
      r.weight.push_back(int(f.weight[j]));
      r.tight.push_back(f.tight[j]), r.loose.push_back(f.loose[j]), r.lazy2.push_back(f.lazy2[j]);
    }
  const std::string why = r.invalid_because(modulus());
  if (!why.empty()) throw InputError(who + ": limb form refused: " + why);
  return r;
}

Bound bound_of(uint8_t b, const LimbForm& f, const std::string& who, const char* what, int op) {
  if (b > BX_BOUND_LAZY2 || (b == BX_BOUND_LAZY2 && !f.has_lazy2()))
    throw InputError(who + ": " + what + "[" + f25519::op_name(Op(op)) + "] = " + std::to_string(b) +
                     (b == BX_BOUND_LAZY2 ? " (lazy2) but the form declares no lazy2 bound" : " is not a bound (0 tight, 1 loose, 2 lazy2)"));
  return Bound(b);
}


}  // namespace

PluginField adapt(const PluginImpl& p, int device) {
  const std::string who = "plugin " + p.path + ": implementation '" + p.name + "'";
  const bx_field25519_ops ops = read_ops<bx_field25519_ops>(p, offsetof(bx_field25519_ops, bench_chain), "field25519");
  const bx_field25519_ops* t = &ops;
  require_place(p.place, device, who, "field25519");
  if (p.contract != BX_CONTRACT_BIT_EXACT) throw InputError(who + ": field25519 implementations are judged bit-exact only");
  const uint32_t all = (1u << BX_F25519_OP_COUNT) - 1;
  if (t->bytes_ops & ~all) throw InputError(who + ": bytes_ops has bits past the defined operations");
  if (t->bytes_ops && !t->bytes_op) throw InputError(who + ": bytes_ops is non-zero but bytes_op is NULL");
  if (t->bytes_input > BX_F25519_IN_CANONICAL) throw InputError(who + ": bytes_input " + std::to_string(t->bytes_input) + " is not defined");
  if (!t->limb_form && (t->limb_ops || t->limb_op || t->limb_encode || t->limb_decode))
    throw InputError(who + ": limb operations without a limb_form");
  if (!t->bytes_ops && !t->limb_form) throw InputError(who + ": provides no operation (bytes_ops is 0 and there is no limb form)");

  PluginField pf;
  pf.label = "plugin " + p.library;
  pf.canonical_inputs_only = t->bytes_input == BX_F25519_IN_CANONICAL;
  void* ctx = p.impl->ctx;
  const std::string tag = "plugin " + p.library + " '" + p.name + "'";

  if (t->limb_form) {
    if (t->limb_ops & ~((1u << kLimbOps) - 1)) throw InputError(who + ": limb_ops has bits past sqrt_ratio (encode is limb_encode)");
    if (t->limb_ops && !t->limb_op) throw InputError(who + ": limb_ops is non-zero but limb_op is NULL");
    LimbOps lo;
    lo.form = form_of(*t->limb_form, who);
    lo.provided = t->limb_ops;
    for (int o = 0; o < kLimbOps; ++o) {
      lo.in[o] = bound_of(t->limb_form->op_in[o], lo.form, who, "op_in", o);
      lo.out[o] = bound_of(t->limb_form->op_out[o], lo.form, who, "op_out", o);
    }
    const LimbForm form = lo.form;
    const size_t eb = element_bytes(form);
    auto fn = t->limb_op;
    lo.op = [=](Op op, const std::vector<Limbs>& a, const std::vector<Limbs>& b, std::vector<Limbs>& out, std::vector<uint8_t>& flags) {
      const size_t n = a.size();
      const auto pa = pack(form, a), pb = pack(form, b);
      std::vector<uint8_t> ho(n * eb);
      flags.resize(n);
      on_site(device, [&](auto& site) {
        const uint8_t* ia = site.in(pa.data(), pa.size(), "a");
        const uint8_t* ib = site.in(pb.data(), pb.size(), "b");
        uint8_t* o = site.out(n * eb, "out");
        uint8_t* fl = site.out(n, "flags");
        site.run(tag, f25519::op_name(op), [&](void* stream) { return fn(ctx, uint32_t(op), ia, ib, n, o, fl, stream); });
        site.get(ho.data(), o, ho.size());
        site.get(flags.data(), fl, n);
      });
      out = unpack(form, ho.data(), n);
    };
    if (auto enc = t->limb_encode)
      lo.encode = [=](const std::vector<Limbs>& a, std::vector<Bytes32>& out) {
        const size_t n = a.size();
        const auto pa = pack(form, a);
        out.resize(n);
        on_site(device, [&](auto& site) {
          const uint8_t* ia = site.in(pa.data(), pa.size(), "a");
          uint8_t* o = site.out(32 * n, "out");
          site.run(tag, "encode", [&](void* stream) { return enc(ctx, ia, n, o, stream); });
          site.get(out.data(), o, 32 * n);
        });
      };
    if (auto dec = t->limb_decode)
      lo.decode = [=](const std::vector<Bytes32>& in, std::vector<Limbs>& out) {
        const size_t n = in.size();
        std::vector<uint8_t> ho(n * eb);
        on_site(device, [&](auto& site) {
          const uint8_t* ii = site.in(in.data(), 32 * n, "in");
          uint8_t* o = site.out(n * eb, "out");
          site.run(tag, "decode", [&](void* stream) { return dec(ctx, ii, n, o, stream); });
          site.get(ho.data(), o, ho.size());
        });
        out = unpack(form, ho.data(), n);
      };
    pf.limbs = std::move(lo);
  }

  if (t->bytes_ops) {
    pf.bytes_provided = t->bytes_ops;
    auto fn = t->bytes_op;
    if (device >= 0)
      pf.device_bytes = [=](Op op, const uint8_t* a, const uint8_t* b, size_t n, uint8_t* out, uint8_t* flags, void* stream) {
        const int rc = fn(ctx, uint32_t(op), a, b, n, out, flags, stream);
        if (rc) throw std::runtime_error(tag + " " + f25519::op_name(op) + ": returned error " + std::to_string(rc));
      };
    pf.eval = [=](Op op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* out, uint8_t* flags) {
      on_site(device, [&](auto& site) {
        const uint8_t* ia = site.in(a->data(), 32 * n, "a");
        const uint8_t* ib = site.in(b->data(), 32 * n, "b");
        uint8_t* o = site.out(32 * n, "out");
        uint8_t* fl = site.out(n, "flags");
        site.run(tag, f25519::op_name(op), [&](void* stream) { return fn(ctx, uint32_t(op), ia, ib, n, o, fl, stream); });
        site.get(out->data(), o, 32 * n);
        site.get(flags, fl, n);
      });
    };
  } else if (pf.limbs && pf.limbs->encode && pf.limbs->decode) {
    // Composed: decode (tight) -> op -> encode, for the ops whose input bound holds a tight value and whose
    // output the encoder accepts.
    pf.bytes_composed = true;
    for (int o = 0; o < kLimbOps; ++o)
      if (pf.limbs->has(Op(o)) && pf.limbs->out[o] != Bound::lazy2) pf.bytes_provided |= 1u << o;
    pf.bytes_provided |= 1u << int(Op::canonical);  // decode then encode
    const LimbOps lo = *pf.limbs;
    pf.eval = [lo](Op op, const Bytes32* a, const Bytes32* b, size_t n, Bytes32* out, uint8_t* flags) {
      std::vector<Bytes32> va(a, a + n), vb(b, b + n), vo;
      std::vector<Limbs> la, lb, lr;
      std::vector<uint8_t> fl(n, 1);
      lo.decode(va, la);
      lo.decode(vb, lb);
      lr = la;
      if (op != Op::canonical) lo.op(op, la, lb, lr, fl);
      lo.encode(lr, vo);
      std::copy(vo.begin(), vo.end(), out);
      std::copy(fl.begin(), fl.end(), flags);
    };
  }
  if (auto fn = t->bench_chain)
    pf.chain = [=](Op op, const std::vector<Bytes32>& a, const std::vector<Bytes32>& b, uint32_t iters, std::vector<Bytes32>& out) {
      if (op != Op::mul && op != Op::sqr) throw std::logic_error("field25519 chain: mul or sqr only");
      const size_t n = a.size();
      out.resize(n);
      double seconds = 0;
      on_site(device, [&](auto& site) {
        const uint8_t* ia = site.in(a.data(), 32 * n, "a");
        const uint8_t* ib = site.in(b.data(), 32 * n, "b");
        uint8_t* o = site.out(32 * n, "out");
        seconds = site.run(tag, std::string("bench_chain ") + f25519::op_name(op),
                           [&](void* stream) { return fn(ctx, uint32_t(op), ia, ib, n, iters, o, stream); });
        site.get(out.data(), o, 32 * n);
      });
      return seconds;
    };
  return pf;
}

}  // namespace bx::suite::field25519
