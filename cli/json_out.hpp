// --json: stdout holds exactly one JSON document. begin() moves the process's stdout onto stderr, so every
// table and progress line goes there, and keeps the real stdout for the document; a command adds its parts
// with put(); finish() writes the document once:
//   {"command": [argv...], <parts...>, "verdict": "PASS"|"FAIL"|"ERROR", "exit_status": N[, "error": line]}
// Every unsigned integer is written as a decimal string (a 64-bit seed, fold or nonce survives jq and
// JavaScript, which read numbers as doubles); signed and floating values stay numbers.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace bx::json_out {
void begin(int argc, char** argv);
bool active();
// Sets document[path[0]][path[1]]... = value (objects created on the way).
void put(const std::vector<std::string>& path, nlohmann::json value);
// Writes the document (once; later calls do nothing) and returns rc. `error` is the error line, if any.
int finish(int rc, const std::string& error = "");
// The transform finish() applies, exposed for tests.
nlohmann::json unsigned_as_strings(const nlohmann::json& j);
}  // namespace bx::json_out
