// One check's result for one implementation: its passes out of its total, and the operations it needed
// that the implementation does not provide. Total 0 is a failure (nothing was checked) unless the check
// was not provided at all; a check that is not provided is never a pass (it is listed as such).
#pragma once
#include <cstddef>
#include <string>

namespace bx {

struct Tally {
  std::string name;
  size_t pass = 0, total = 0;
  std::string not_provided = {};  // "pow22523, x25519": what the check needed and the implementation lacks
  bool ok() const { return total > 0 && pass == total; }
  bool wholly_not_provided() const { return total == 0 && !not_provided.empty(); }
  void lacks(const std::string& what) {
    if (not_provided.find(what) == std::string::npos) not_provided += (not_provided.empty() ? "" : ", ") + what;
  }
};

}  // namespace bx
