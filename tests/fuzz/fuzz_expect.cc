#include "fuzz_expect.h"

#include <cstdio>
#include <cstdlib>

namespace allot::fuzz {

void fuzz_fail(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "fuzz property failed: %.*s\n%.*s\n", static_cast<int>(what.size()),
               what.data(), static_cast<int>(detail.size()), detail.data());
  std::abort();
}

}  // namespace allot::fuzz
