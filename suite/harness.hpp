// A harness: the user's program, in any language, that answers bitexact's cases over JSON lines on its
// stdin and stdout (docs/protocol.md, docs/protocol.schema.json). bitexact starts it with `/bin/sh -c
// COMMAND`, asks it to describe itself, then sends batches of cases (the oracle's requests, with ids) and
// reads one answer line per request. Nothing here knows a family.
//
// Invariants: every request gets exactly one line back within the timeout; that line is one JSON object
// (nested at most 64 deep) of the expected type; the answers of a batch come in the batch's order with its
// ids, each with one "answer" or one "error". Anything else (the harness exits, hangs, writes a line that
// is not JSON or one nobody asked for, answers out of order) throws HarnessError naming the last case sent,
// and the harness and what it started in its process group are killed. It starts with default signal
// handling and no blocked signals; its stderr is bitexact's (kept in the run's log).
#pragma once
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace bx::suite::harness {

using json = nlohmann::ordered_json;

constexpr int kProtocol = 1;  // "bitexact_protocol" in describe, both ways

struct HarnessError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One implementation the harness offers (its describe reply).
struct Described {
  std::string name, family;
  std::string contract = "bit-exact";
  std::vector<std::string> ops;  // the oracle's op names it answers ("fe25519.mul")
  // The preconditions it accepts (a case with another one is not asked); nullopt: it accepts every case.
  std::optional<std::vector<std::string>> preconditions;
  size_t max_batch = 1024;  // cases per request (1: one request per case)
  std::string description;
  bool provides(const std::string& op) const;
  bool accepts(const std::string& precondition) const;
};

struct Case {
  uint64_t id;
  json request;
};

class Harness {
 public:
  // Starts COMMAND and asks it to describe itself (HarnessError on any failure, including a malformed
  // describe reply). timeout_s bounds every request.
  Harness(const std::string& command, double timeout_s);
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;
  ~Harness();  // kills a harness still running

  const std::string& command() const { return command_; }
  const std::vector<Described>& implementations() const { return impls_; }

  // The answers of `impl` to `cases`, in order (batches of its max_batch): each the answer entry
  // {"id": ID, "answer": A} or {"id": ID, "error": "..."} the harness wrote. `seconds`, if given, receives
  // the wall time of the exchange (requests written to last answer read).
  std::vector<json> answer(const Described& impl, const std::vector<Case>& cases, double* seconds = nullptr);

  // Says "end" and waits for the harness to exit; HarnessError if it does not exit 0 within the timeout.
  void finish();

 private:
  void read_describe();
  json exchange(const json& request, const std::string& last_case);
  [[noreturn]] void fail(const std::string& what, const std::string& last_case);
  // Its stdout ended (or its stdin closed) mid-request: reaped (killed past a short deadline), then thrown.
  [[noreturn]] void end_of_harness(const std::string& detail, const std::string& last_case);
  // Waits until the deadline for it to exit; then kills what it left in its group and reaps it (true), or
  // kills and reaps it (false).
  bool reap_by(std::chrono::steady_clock::time_point deadline, int* status);
  void kill_and_reap();

  std::string command_;
  double timeout_s_;
  pid_t pid_ = -1;
  int to_ = -1, from_ = -1;  // its stdin (we write), its stdout (we read)
  std::string pending_;      // bytes read past the last full line
  std::string answered_;     // the last case of the last request it answered
  std::vector<Described> impls_;
};

}  // namespace bx::suite::harness
