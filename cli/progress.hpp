// Progress of a long run on stderr: redrawn in place with '\r' when stderr is a terminal (at most five
// times a second), otherwise one plain line every few seconds, so CI logs get lines, not frames.
// --quiet (enabled = false) prints nothing.
#pragma once
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace bx {

class Progress {
 public:
  Progress(std::string what, uint64_t total, bool enabled, double line_seconds = 5.0)
      : what_(std::move(what)), total_(total ? total : 1), on_(enabled), tty_(isatty(2) == 1), every_(line_seconds) {}
  ~Progress() { finish(); }
  void update(uint64_t done, const std::string& detail = "") {
    if (!on_ || finished_) return;
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_).count();
    if (done < total_ && since < (tty_ ? 0.2 : every_)) return;
    last_ = now;
    const double pct = 100.0 * double(done) / double(total_);
    if (tty_) {
      const int w = 30, fill = int(pct * w / 100);
      std::fprintf(stderr, "\r%s [%s%s] %5.1f%% %s   ", what_.c_str(), std::string(fill, '#').c_str(),
                   std::string(w - fill, '.').c_str(), pct, detail.c_str());
      drawn_ = true;
    } else {
      const double el = std::chrono::duration<double>(now - start_).count();
      std::fprintf(stderr, "%s: %5.1f%% after %.0f s %s\n", what_.c_str(), pct, el, detail.c_str());
    }
    if (done >= total_) finish();
  }
  void finish() {
    if (drawn_ && !finished_) std::fprintf(stderr, "\n");
    finished_ = true;
  }

 private:
  std::string what_;
  uint64_t total_;
  bool on_, tty_;
  double every_;
  bool drawn_ = false, finished_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

}  // namespace bx
