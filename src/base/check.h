// Invariant checks. ALLOT_CHECK aborts the process with the failed condition,
// file and line: it guards programmer errors only. User input must be
// validated and rejected with a Status long before any check could fire.
#pragma once

namespace allot::internal {
[[noreturn]] void check_failed(const char* condition, const char* file, int line);
}  // namespace allot::internal

#define ALLOT_CHECK(condition)                                         \
  do {                                                                 \
    if (!(condition)) [[unlikely]] {                                   \
      ::allot::internal::check_failed(#condition, __FILE__, __LINE__); \
    }                                                                  \
  } while (false)
