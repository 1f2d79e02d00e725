// Calling code we do not trust (a plugin's operation) so that its crash, hang or stray write is a
// failure we can name, never a crash or hang of bitexact: the call runs in a forked child on buffers in a
// shared anonymous mapping, each surrounded by guard bytes; the parent waits with a timeout, then checks
// the guards and that no input changed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bx::suite::isolate {

// The bytes of a guard zone, and those an output holds before the call: not 0, so an output the
// implementation never writes (a hit count, a digest, a limb) reads as garbage and fails, never as a
// plausible empty answer. One definition for host and device buffers.
constexpr uint8_t kGuardPattern = 0xa5;
constexpr uint8_t kUnwritten = 0x5b;

// Buffers shared with the child, each between two guard zones of kGuard bytes.
class Arena {
 public:
  static constexpr size_t kGuard = 64;
  Arena() = default;
  Arena(const Arena&) = delete;
  Arena& operator=(const Arena&) = delete;
  ~Arena();
  // An input (copied in; any change by the call is reported) or an output of n bytes (zero-filled).
  uint8_t* input(const uint8_t* data, size_t n, const std::string& name);
  uint8_t* output(size_t n, const std::string& name);
  // "" when every guard is intact and every input unchanged; else the first breach, e.g.
  // "wrote 8 bytes past the end of out" or "changed input a".
  std::string breach() const;

 private:
  struct Buf {
    uint8_t* base;  // mapping start: guard, data, guard
    size_t size, mapped;
    std::string name;
    std::vector<uint8_t> original;  // inputs only
  };
  std::vector<Buf> bufs_;
};

// Runs call() in a forked child and returns its value, or throws std::runtime_error naming what went
// wrong: "crashed (SIGSEGV)", "hung past 60 s (killed)", "exited with status 3". The child shares only the
// Arena's mappings with the parent. With BX_PLUGIN_IN_PROCESS=1 the call runs in this process instead (for
// a debugger; a crash then ends bitexact).
int call(const std::function<int()>& call, double timeout_s);

// call() with the default timeout on buffers of `arena`, for one operation of one plugin: throws
// std::runtime_error "<who> <what>: <reason>" on a crash, a hang, a non-zero return or a breach of the arena.
void checked_call(const std::string& who, const std::string& what, const Arena& arena, const std::function<int()>& fn);

double default_timeout_s();  // --plugin-timeout, 60 s unless set
void set_default_timeout_s(double s);

}  // namespace bx::suite::isolate
