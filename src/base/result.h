// Result<T>: a value or the Status that explains why there is none.
//
// Contract: exactly one of value() and status() is meaningful; value() on an
// error aborts (a programming error, never reachable from user input when the
// caller checks ok()). Value type, thread-compatible.
#pragma once

#include <utility>
#include <variant>

#include "base/check.h"
#include "base/status.h"

namespace allot {

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::move(value)) {}        // NOLINT(google-explicit-constructor)
  Result(Status status) : state_(std::move(status)) {  // NOLINT(google-explicit-constructor)
    ALLOT_CHECK(!std::get<Status>(state_).ok());
  }

  [[nodiscard]] bool ok() const { return std::holds_alternative<T>(state_); }

  [[nodiscard]] const T& value() const& {
    ALLOT_CHECK(ok());
    return std::get<T>(state_);
  }
  [[nodiscard]] T& value() & {
    ALLOT_CHECK(ok());
    return std::get<T>(state_);
  }
  [[nodiscard]] T&& value() && {
    ALLOT_CHECK(ok());
    return std::get<T>(std::move(state_));
  }
  [[nodiscard]] Status status() const { return ok() ? Status() : std::get<Status>(state_); }

  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  std::variant<T, Status> state_;
};

}  // namespace allot

// Propagates an error Status from an expression returning Status.
#define ALLOT_RETURN_IF_ERROR(expr)         \
  do {                                      \
    ::allot::Status allot_status_ = (expr); \
    if (!allot_status_.ok()) {              \
      return allot_status_;                 \
    }                                       \
  } while (false)

#define ALLOT_CONCAT_INNER(a, b) a##b
#define ALLOT_CONCAT(a, b) ALLOT_CONCAT_INNER(a, b)

// Assigns the value of a Result expression to `lhs`, or returns its Status.
// `lhs` may be a declaration ("int x") and `tmp` is a name: neither can take parentheses.
// NOLINTBEGIN(bugprone-macro-parentheses)
#define ALLOT_ASSIGN_OR_RETURN(lhs, expr) \
  ALLOT_ASSIGN_OR_RETURN_IMPL(ALLOT_CONCAT(allot_result_, __LINE__), lhs, expr)
#define ALLOT_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                                \
  if (!tmp.ok()) {                                  \
    return tmp.status();                            \
  }                                                 \
  lhs = std::move(tmp).value()
// NOLINTEND(bugprone-macro-parentheses)
