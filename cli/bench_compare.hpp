// `bitexact bench compare BASE NEW [--threshold PCT]`: is NEW slower than BASE? Two bench documents (--json)
// are paired by family, implementation, place and workload. For each pair, the ratio of medians and an
// interval: every NEW round against every BASE round (the smallest and largest of those ratios). A pair is a
// regression only when even the most favourable pairing of rounds is slower than 1 - threshold, so an A/A
// run of the same build passes and noise alone does not fail a merge; an improvement likewise needs the whole
// interval above 1 + threshold.
// Refused (exit 2, one line): a document that is not a bench document, different cards or CPU models for the
// same place, failed parity in either (a rate of wrong answers means nothing), different units, nothing in
// common. Exit 1: a regression, or an implementation of BASE missing from NEW (it would go unmeasured).
#pragma once
#include <string>

namespace bx {

int run_bench_compare(const std::string& base, const std::string& fresh, double threshold_pct);

}  // namespace bx
