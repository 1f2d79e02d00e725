// RC_ASSERT with a message built by <<: the failing case's variant, shape and first difference (RapidCheck's
// RC_ASSERT takes no message; RC_FAIL takes a string).
#pragma once
#include <rapidcheck.h>

#include <sstream>

#define Q8_RC_REQUIRE(cond, what) \
  do {                            \
    if (!(cond)) {                \
      std::ostringstream m_;      \
      m_ << what;                 \
      RC_FAIL(m_.str());          \
    }                             \
  } while (0)
