// `bitexact oracle`: JSON lines in, JSON lines out (one reply per request, in order). Each request names
// an operation; the family that owns it (Family::oracle_ops) replies with the reference result, every
// implementation's own full result under "impl" and "agree". {"op":"list"} returns every family's
// operations, the variants and the places. A bad request gets {"error":"..."} on its line and
// processing continues.
#pragma once
#include <iosfwd>
#include <map>
#include <string>

#include "cli/family.hpp"

namespace bx {

class Oracle {
 public:
  explicit Oracle(DeviceSelection sel) : sel_(std::move(sel)) {}
  std::string reply(const std::string& line);

 private:
  json dispatch(const json& req);
  DeviceSelection sel_;
  std::map<std::string, OracleHandler> handlers_;  // family name -> handler, built on first use
};

void run_oracle(std::istream& in, std::ostream& out, const DeviceSelection& sel);

}  // namespace bx
