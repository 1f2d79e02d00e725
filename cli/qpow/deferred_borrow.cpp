// The deferred borrow's crafted jobs through one implementation, against the exact path: the check the
// selftest and the GPU test share (gpu/qpow/borrow_cases.hpp makes the jobs and the exact answers).
#include "gpu/qpow/borrow_cases.hpp"

#include "cli/qpow/qpow.hpp"

namespace bx::qpow {

DeferredBorrowResult deferred_borrow_check(const Impl& im, const Header& h, int count) {
  DeferredBorrowResult r;
  auto& bad = r.mismatches;
  with_variant(im.variant, [&]<class Code>() {
    if constexpr (requires { Code::kShortcuts; }) {
      std::vector<MinerJob> jobs = deferred_borrow_jobs<Code>(h.data(), count);
      const auto got = im.job_hashes(jobs);
      for (size_t k = 0; k < jobs.size(); ++k) {
        Hash8 want;
        exact_job_hash<Code>(jobs[k], want.data());
        const std::string what =
            im.label() + " crafted job " + std::to_string(k) + " (prestate lane " + std::to_string(k % 12) + " = 2^48)";
        r.checks += 4;  // takes the borrow, hash, two verdicts
        if (!takes_deferred_borrow<Code>(jobs[k])) bad.push_back(what + ": pi3 does not take the deferred borrow on the host");
        if (got[k] != want) bad.push_back(what + " hash\n  got  " + words_hex(got[k]) + "\n  want " + words_hex(want));
        for (const bool above : {true, false}) {
          const Hash8 t = to_words(from_words(want) + (above ? 1 : 0));
          std::copy(t.begin(), t.end(), jobs[k].target);
          const bool hit = !im.job_search(jobs[k], 1).empty();
          if (hit != above)
            bad.push_back(what + " search vs target " + words_hex(t) + ": " + (hit ? "accepted" : "rejected") +
                          ", exact " + (above ? "valid" : "invalid"));
        }
      }
    } else {
      r.checks = 1;
      bad.push_back(im.label() + ": not a miner ladder, it has no deferred borrow");
    }
    return 0;
  });
  return r;
}

}  // namespace bx::qpow
