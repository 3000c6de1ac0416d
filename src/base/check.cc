#include "base/check.h"

#include <cstdio>
#include <cstdlib>

namespace allot::internal {

void check_failed(const char* condition, const char* file, int line) {
  std::fprintf(stderr, "allot: invariant violated: %s at %s:%d\n", condition, file, line);
  std::abort();
}

}  // namespace allot::internal
