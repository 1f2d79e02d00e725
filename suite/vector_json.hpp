// The JSON side of the vector files (Wycheproof shape): deterministic rendering (one test per line) and
// strict field access. Every problem is an InputError naming the file, the tcId and the field.
#pragma once
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>
#include "suite/hex.hpp"

namespace bx::vectors::io {

// A problem line for a file that cannot be read or does not parse (bad JSON, bad hex, a missing field): it
// ends with kMalformed, and `vectors check` exits 2 (bad input) when any line does, 1 when the files are
// well-formed but disagree with the reference or with generation.
inline constexpr const char* kMalformed = " (malformed file)";
inline std::string malformed(const std::string& what) { return what + kMalformed; }
inline bool is_malformed(const std::string& line) {
  const std::string m = kMalformed;
  return line.size() >= m.size() && line.compare(line.size() - m.size(), m.size(), m) == 0;
}
using json = nlohmann::ordered_json;

// A vector file's top level, in file order: algorithm, schema, generator, source (left out when empty),
// numberOfTests, notes, testGroups.
inline json file_header(const std::string& algorithm, const std::string& schema, const std::string& generator,
                        const std::string& source, int n, const json& notes, const json& groups) {
  json top;
  top["algorithm"] = algorithm;
  top["schema"] = schema;
  top["generator"] = generator;
  if (!source.empty()) top["source"] = source;
  top["numberOfTests"] = n;
  top["notes"] = notes;
  top["testGroups"] = groups;
  return top;
}

inline std::string render(const json& top, const std::string& groups_key) {
  std::ostringstream o;
  o << "{\n";
  bool first = true;
  for (auto it = top.begin(); it != top.end(); ++it) {
    if (!first) o << ",\n";
    first = false;
    o << "  " << json(it.key()).dump() << ": ";
    if (it.key() == groups_key) {
      o << "[\n";
      for (size_t g = 0; g < it->size(); ++g) {
        const json& grp = (*it)[g];
        o << "    {";
        bool gf = true;
        for (auto gi = grp.begin(); gi != grp.end(); ++gi) {
          if (gi.key() == "tests") continue;
          o << (gf ? "" : ", ") << json(gi.key()).dump() << ": " << gi->dump();
          gf = false;
        }
        o << (gf ? "" : ", ") << "\"tests\": [\n";
        const json& tests = grp["tests"];
        for (size_t t = 0; t < tests.size(); ++t) o << "      " << tests[t].dump() << (t + 1 < tests.size() ? ",\n" : "\n");
        o << "    ]}" << (g + 1 < it->size() ? ",\n" : "\n");
      }
      o << "  ]";
    } else {
      std::string d = it->dump(2);
      std::string ind;
      for (char c : d) {
        ind += c;
        if (c == '\n') ind += "  ";
      }
      o << ind;
    }
  }
  o << "\n}\n";
  return o.str();
}

// ---- strict loading ----

inline void require_keys(const json& j, const std::set<std::string>& required, const std::set<std::string>& optional,
                  const std::string& where) {
  if (!j.is_object()) throw InputError(where + ": expected an object");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (!required.count(it.key()) && !optional.count(it.key())) throw InputError(where + ": unknown field '" + it.key() + "'");
  for (auto& k : required)
    if (!j.contains(k)) throw InputError(where + ": missing field '" + k + "'");
}
inline std::string get_str(const json& j, const std::string& k, const std::string& where) {
  if (!j[k].is_string()) throw InputError(where + ": field '" + k + "' must be a string");
  return j[k].get<std::string>();
}
// Hex in a vector file is lowercase, as generation writes it: an uppercase digit is reported as what it
// is, never as a disagreement with the reference.
inline void require_lowercase_hex(const std::string& s, const std::string& what) {
  for (char c : s)
    if (c >= 'A' && c <= 'F')
      throw InputError(what + ": uppercase hex digit '" + std::string(1, c) + "' (vector files hold lowercase hex)");
}
inline std::vector<uint8_t> file_hex(const std::string& s, size_t n, const std::string& what) {
  require_lowercase_hex(s, what);
  return from_hex(s, n, what);
}
inline Bytes32 file_b32(const std::string& s, const std::string& what) {
  require_lowercase_hex(s, what);
  return bytes32_from_hex(s, what);
}
inline Bytes32 get_b32(const json& j, const std::string& k, const std::string& where) {
  return file_b32(get_str(j, k, where), where + ": field '" + k + "'");
}
inline json parse_json(const std::string& file, const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {  // parse_error, or out_of_range for a number such as 1e400
    throw InputError(file + ": not valid JSON (" + std::string(e.what()) + ")");
  }
}
inline std::vector<std::string> get_flags(const json& t, const json& notes, const std::string& where) {
  if (!t["flags"].is_array()) throw InputError(where + ": field 'flags' must be an array");
  std::vector<std::string> f;
  for (auto& x : t["flags"]) {
    if (!x.is_string()) throw InputError(where + ": field 'flags': entries must be strings");
    if (!notes.contains(x.get<std::string>()))
      throw InputError(where + ": field 'flags': '" + x.get<std::string>() + "' is not described in notes");
    f.push_back(x.get<std::string>());
  }
  return f;
}
inline void check_header(const json& top, const std::string& file, const char* schema, const std::set<std::string>& optional) {
  require_keys(top, {"algorithm", "schema", "generator", "numberOfTests", "notes", "testGroups"}, optional, file);
  if (!top["schema"].is_string() || top["schema"].get<std::string>() != schema)
    throw InputError(file + ": field 'schema': expected '" + schema + "'");
  if (!top["numberOfTests"].is_number_integer()) throw InputError(file + ": field 'numberOfTests' must be an integer");
  if (!top["testGroups"].is_array()) throw InputError(file + ": field 'testGroups' must be an array");
  if (!top["notes"].is_object()) throw InputError(file + ": field 'notes' must be an object");
}
inline int get_id(const json& t, std::set<int>& seen, const std::string& file) {
  if (!t.is_object() || !t.contains("tcId") || !t["tcId"].is_number_integer())
    throw InputError(file + ": a test has no integer tcId");
  int id = t["tcId"].get<int>();
  if (!seen.insert(id).second) throw InputError(file + ": tcId " + std::to_string(id) + ": duplicate tcId");
  return id;
}
// The one walker of a vector file's tests, every family's loaders: each group has exactly "tests" (an
// array) and `group_keys`; each test an integer tcId, unique in the file, and is handed to
// each(group, test, where, tcId) (or each(group, test, where)) with where = "<file>: tcId N"; then numberOfTests must equal the tests
// walked (a truncated file fails here, with one message for every family). Returns that count.
template <class Each>
size_t for_each_test(const json& top, const std::string& file, const std::set<std::string>& group_keys, Each&& each) {
  std::set<int> seen;
  size_t n = 0;
  std::set<std::string> keys = group_keys;
  keys.insert("tests");
  for (const json& g : top["testGroups"]) {
    require_keys(g, keys, {}, file + ": testGroups");
    if (!g["tests"].is_array()) throw InputError(file + ": testGroups: field 'tests' must be an array");
    for (const json& t : g["tests"]) {
      const int id = get_id(t, seen, file);
      if constexpr (std::is_invocable_v<Each&, const json&, const json&, const std::string&, int>) each(g, t, file + ": tcId " + std::to_string(id), id);
      else each(g, t, file + ": tcId " + std::to_string(id));  // a loader that reads the tcId from `where` only
      ++n;
    }
  }
  if (top["numberOfTests"].get<int64_t>() != int64_t(n))
    throw InputError(file + ": numberOfTests is " + top["numberOfTests"].dump() + " but the file has " + std::to_string(n) +
                     " tests (truncated?)");
  return n;
}
inline void check_result(const json& t, const std::string& where) {
  if (get_str(t, "result", where) != "valid") throw InputError(where + ": field 'result': expected 'valid'");
}


// The first line where a and b differ (1-based) and the tcId on it, for a stale file's message.
inline std::string first_difference(const std::string& a, const std::string& b) {
  size_t line = 1, start = 0, i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) {
    if (a[i] == '\n') ++line, start = i + 1;
    ++i;
  }
  const size_t end = a.find('\n', start);
  const std::string s = a.substr(start, end == std::string::npos ? std::string::npos : end - start);
  std::string r = "line " + std::to_string(line);
  const size_t at = s.find("\"tcId\":");
  if (at != std::string::npos) r += " (tcId " + std::to_string(std::atoi(s.c_str() + at + 7)) + ")";
  return r;
}

// The one stale-file line of every family's vectors check ("" when the file is what generation writes):
// "<rel>: stale: line N (tcId T) differs from what `bitexact vectors generate --family F` writes (run it and commit)".
inline std::string stale_line(const std::string& rel, const std::string& text, const std::string& fresh, const std::string& family) {
  if (text == fresh) return "";
  return rel + ": stale: " + first_difference(text, fresh) + " differs from what `bitexact vectors generate --family " + family +
         "` writes (run it and commit)";
}

// The file root/rel as text; on failure a problem line is appended and false returned.
inline bool read_repo_file(const std::string& root, const std::string& rel, std::string& text, std::vector<std::string>& problems) {
  std::ifstream f(root + "/" + rel, std::ios::binary);
  if (!f) {
    std::error_code ec;
    problems.push_back(malformed(rel + (std::filesystem::is_directory(root + "/" + rel, ec) ? ": is a directory, not a file"
                                                                                            : ": cannot read the file")));
    return false;
  }
  std::ostringstream s;
  s << f.rdbuf();
  text = s.str();
  return true;
}

}  // namespace bx::vectors::io
