// my_fe32.hpp as a bitexact plugin (C++; the table is plain C through extern "C"): only mul is provided,
// so every other operation reads "not provided" in bitexact's table, never a pass. The limb form states
// what my_fe32.hpp's comments state: 8 unsigned 32-bit limbs, any 256-bit value in and out.
#include <bitexact/plugin.h>

#include <cstring>

#include "my_fe32.hpp"

namespace {

bx_limb_form make_form() {
  bx_limb_form f{};
  f.struct_size = sizeof f;
  f.limb_count = 8;
  f.limb_bits = 32;
  for (int i = 0; i < 8; ++i) f.weight[i] = 32u * i, f.tight[i] = f.loose[i] = 0xffffffffu;
  for (int op = 0; op < BX_F25519_OP_COUNT; ++op) f.op_in[op] = f.op_out[op] = BX_BOUND_LOOSE;
  return f;
}
const bx_limb_form form = make_form();

int limb_op(void*, uint32_t op, const void* a, const void* b, size_t n, void* out, uint8_t* flags, void*) {
  if (op != BX_F25519_MUL) return 1;
  auto* x = static_cast<const consumer::Fe*>(a);
  auto* y = static_cast<const consumer::Fe*>(b);
  for (size_t i = 0; i < n; ++i) static_cast<consumer::Fe*>(out)[i] = consumer::mul(x[i], y[i]), flags[i] = 1;
  return 0;
}
int encode(void*, const void* a, size_t n, uint8_t* out, void*) {
  for (size_t i = 0; i < n; ++i) consumer::to_bytes(out + 32 * i, static_cast<const consumer::Fe*>(a)[i]);
  return 0;
}
int decode(void*, const uint8_t* in, size_t n, void* out, void*) {  // the contract ignores bit 255
  for (size_t i = 0; i < n; ++i) {
    uint8_t s[32];
    std::memcpy(s, in + 32 * i, 32);
    s[31] &= 0x7f;
    static_cast<consumer::Fe*>(out)[i] = consumer::from_bytes(s);
  }
  return 0;
}

bx_field25519_ops make_ops() {
  bx_field25519_ops t{};
  t.struct_size = sizeof t;
  t.limb_form = &form;
  t.limb_ops = 1u << BX_F25519_MUL;
  t.limb_op = limb_op;
  t.limb_encode = encode;
  t.limb_decode = decode;
  return t;
}
const bx_field25519_ops ops = make_ops();
const bx_impl impls[] = {{sizeof(bx_impl), "consumer-fe32", BX_FAMILY_FIELD25519, BX_PLACE_HOST, BX_CONTRACT_BIT_EXACT, nullptr,
                          nullptr, nullptr, &ops}};
const bx_plugin plugin = {BX_PLUGIN_ABI_VERSION, "consumer", 1, impls};

}  // namespace

extern "C" BX_PLUGIN_EXPORT const bx_plugin* bx_plugin_entry_v1(void) { return &plugin; }
