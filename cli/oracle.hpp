// `bitexact oracle`: JSON lines in, JSON lines out (one reply per request, in order).
//   {"op":"fe25519.OP","a":HEX,"b":HEX}   OP: add sub mul sqr neg invert pow22523 sqrt_ratio mul_small canonical
//   {"op":"x25519","scalar":HEX,"u":HEX}
//   {"op":"md5","data":HEX}  {"op":"md5z.base","seed":N}  {"op":"md5z.candidate","base":HEX52,"index":N}
//   (cli/md5z_oracle.cpp; a non-base or an index >= 2^32 gets an error line)
// reply {"ref":..., "impl":{"fe51/portable":..., "fe32/ptx@gpu0":...}, "agree":bool}; a bad request gets
// {"error":"..."} on its line and processing continues.
#pragma once
#include <iosfwd>
#include <string>
#include "cli/md5z.hpp"
#include "cli/registry.hpp"

namespace bx {
std::string oracle_reply(const std::string& line, const std::vector<FieldImpl>& impls,
                         const std::vector<md5z::Impl>& md5_impls = {});
void run_oracle(std::istream& in, std::ostream& out, const DeviceSelection& sel);
}  // namespace bx
