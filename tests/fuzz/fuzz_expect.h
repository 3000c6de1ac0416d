// fuzz_expect() and fuzz_fail(): properties of a fuzz target that must hold
// for every input.
//
// Contract: a property that fails prints `what` and `detail` to stderr and
// aborts, which libFuzzer reports as a crash, saving the input. For
// properties (a value read back as it was written), not for the parsers' own
// invariants, which ALLOT_CHECK guards.
#pragma once

#include <string_view>

namespace allot::fuzz {

[[noreturn]] void fuzz_fail(std::string_view what, std::string_view detail);

inline void fuzz_expect(bool holds, std::string_view what, std::string_view detail = {}) {
  if (!holds) fuzz_fail(what, detail);
}

}  // namespace allot::fuzz
