#include "cli/oracle.hpp"

#include <iostream>

#include "suite/hex.hpp"

namespace bx {

void require_fields(const json& req, std::initializer_list<const char*> keys) {
  for (auto it = req.begin(); it != req.end(); ++it) {
    bool ok = it.key() == "op";
    for (auto k : keys) ok = ok || it.key() == k;
    if (!ok) throw InputError("unknown field '" + it.key() + "'");
  }
  for (auto k : keys)
    if (!req.contains(k)) throw InputError(std::string("missing field '") + k + "'");
}

namespace {
bool owns(const Family& f, const std::string& op) {
  for (const auto& o : f.oracle_ops())
    if (o == op || (!o.empty() && o.back() == '.' && op.size() > o.size() && op.compare(0, o.size(), o) == 0)) return true;
  return false;
}
}  // namespace

json Oracle::dispatch(const json& req) {
  const std::string op = req["op"].get<std::string>();
  if (op == "list") {
    for (auto it = req.begin(); it != req.end(); ++it)
      if (it.key() != "op") throw InputError("unknown field '" + it.key() + "'");
    json ops = json::object(), variants = json::array();
    for (auto* f : families()) {
      ops[f->name()] = f->oracle_ops();
      for (auto& v : f->variants()) variants.push_back(v.name);
    }
    return {{"ops", ops}, {"variants", variants}, {"places", place_names(sel_)}};
  }
  for (auto* f : families())
    if (owns(*f, op)) {
      auto& h = handlers_[f->name()];
      if (!h) h = f->oracle(sel_);
      return h(req);
    }
  throw InputError("unknown op '" + op + "' ({\"op\":\"list\"} lists them)");
}

// Every request line gets exactly one reply line and the session goes on: bad input of any kind (not
// JSON, a wrong type, a number the op cannot represent, invalid UTF-8) is an {"error": ...} reply, and
// replies are serialised with invalid UTF-8 replaced, so writing a reply cannot throw either.
std::string Oracle::reply(const std::string& line) {
  const auto dump = [](const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); };
  try {
    json req;
    try {
      req = json::parse(line);
    } catch (const json::exception& e) {  // parse_error, or out_of_range for a number such as 1e400
      throw InputError(std::string("request is not valid JSON (") + e.what() + ")");
    }
    if (!req.is_object()) throw InputError("request must be a JSON object");
    if (!req.contains("op") || !req["op"].is_string()) throw InputError("missing string field 'op'");
    return dump(dispatch(req));
  } catch (const InputError& e) {
    return dump(json{{"error", e.what()}});
  } catch (const json::exception& e) {  // a field of the wrong JSON type or out of its type's range
    return dump(json{{"error", std::string("bad request: ") + e.what()}});
  } catch (const std::bad_alloc&) {
    return dump(json{{"error", "request too large: out of memory"}});
  } catch (const std::exception& e) {
    return dump(json{{"error", e.what()}});
  }
}

void run_oracle(std::istream& in, std::ostream& out, const DeviceSelection& sel) {
  Oracle o(sel);
  std::string line;
  while (std::getline(in, line)) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    out << o.reply(line) << "\n" << std::flush;
  }
}

}  // namespace bx
