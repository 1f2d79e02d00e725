// The one shape of every oracle reply: {"ref": the reference's answer, "impl": {name: that implementation's
// full answer}, "agree": bool} (plus what a family adds beside them). An answer is compared with ref: equal,
// or for an object answer, each of its fields equal to ref's field of that name. What is only shown
// (a characterised implementation's answer, "not provided", a refusal) is recorded, never compared.
// agree needs at least one compared answer: a reply nobody answered does not agree.
#pragma once
#include <exception>
#include <string>

#include "cli/family.hpp"

namespace bx {

struct OracleReply {
  json ref;
  json impl = json::object();
  bool agree = true;
  size_t answered = 0;
  void answer(const std::string& name, json got) {
    bool same = got == ref;
    if (!same && got.is_object() && !got.empty() && ref.is_object()) {
      same = true;
      for (auto it = got.begin(); same && it != got.end(); ++it) same = ref.contains(it.key()) && ref[it.key()] == it.value();
    }
    agree = agree && same;
    ++answered;
    impl[name] = std::move(got);
  }
  // Shown as `shown` (e.g. a lazy value and its canonical form), compared through `compared`.
  void answer_shown(const std::string& name, json shown, const json& compared) {
    answer(name, compared);
    impl[name] = std::move(shown);
  }
  void record(const std::string& name, json got) { impl[name] = std::move(got); }
  void refusal(const std::string& name, const std::string& why) { record(name, {{"refused", why}}); }
  void not_provided(const std::string& name) { record(name, "not provided"); }
  // answer(name, run()), where an exception (a plugin call that failed, a CUDA error, a recoding that does not
  // reconstruct its scalar) is the answer {"failed": what}: it disagrees, and the oracle goes on.
  template <class Run>
  void attempt(const std::string& name, Run&& run) {
    json got;
    try {
      got = run();
    } catch (const std::exception& e) {
      got = {{"failed", e.what()}};
    }
    answer(name, std::move(got));
  }
  json to_json() const { return {{"ref", ref}, {"impl", impl}, {"agree", agree && answered > 0}}; }
};

}  // namespace bx
