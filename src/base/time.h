// Time values: Duration and Timestamp with millisecond resolution.
//
// Contract: plain values, no clock is read here (see clock.h). Timestamps are
// milliseconds since an epoch chosen by the caller (the Unix epoch in the
// server, zero in simulations). Parsing accepts Kubernetes-style durations
// ("250ms", "30s", "5m", "2h", "1d", "1h30m"; a bare number means seconds).
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/result.h"

namespace allot {

class Duration {
 public:
  constexpr Duration() = default;
  static constexpr Duration millis(int64_t ms) { return Duration(ms); }
  static constexpr Duration seconds(int64_t s) { return Duration(s * 1000); }
  static constexpr Duration minutes(int64_t m) { return Duration(m * 60'000); }
  static constexpr Duration hours(int64_t h) { return Duration(h * 3'600'000); }
  static constexpr Duration max() { return Duration(INT64_MAX / 4); }

  [[nodiscard]] constexpr int64_t ms() const { return ms_; }
  [[nodiscard]] constexpr double secs() const { return static_cast<double>(ms_) / 1000.0; }

  constexpr Duration operator+(Duration other) const { return Duration(ms_ + other.ms_); }
  constexpr Duration operator-(Duration other) const { return Duration(ms_ - other.ms_); }
  constexpr Duration operator*(int64_t factor) const { return Duration(ms_ * factor); }
  constexpr Duration& operator+=(Duration other) {
    ms_ += other.ms_;
    return *this;
  }
  // clang-tidy before 18 sees the 0 of the synthesized `(a <=> b) < 0` as a null
  // pointer (llvm/llvm-project#53961).
  constexpr auto operator<=>(const Duration&) const = default;  // NOLINT(modernize-use-nullptr)

  // "1h30m", "250ms", "0s".
  [[nodiscard]] std::string to_string() const;

 private:
  constexpr explicit Duration(int64_t ms) : ms_(ms) {}
  int64_t ms_ = 0;
};

class Timestamp {
 public:
  constexpr Timestamp() = default;
  static constexpr Timestamp from_millis(int64_t ms) { return Timestamp(ms); }
  static constexpr Timestamp epoch() { return Timestamp(0); }
  static constexpr Timestamp infinite_future() { return Timestamp(INT64_MAX / 4); }

  [[nodiscard]] constexpr int64_t ms() const { return ms_; }
  [[nodiscard]] constexpr double secs() const { return static_cast<double>(ms_) / 1000.0; }

  constexpr Timestamp operator+(Duration d) const { return Timestamp(ms_ + d.ms()); }
  constexpr Timestamp operator-(Duration d) const { return Timestamp(ms_ - d.ms()); }
  constexpr Duration operator-(Timestamp other) const { return Duration::millis(ms_ - other.ms_); }
  // clang-tidy before 18 sees the 0 of the synthesized `(a <=> b) < 0` as a null
  // pointer (llvm/llvm-project#53961).
  constexpr auto operator<=>(const Timestamp&) const = default;  // NOLINT(modernize-use-nullptr)

 private:
  constexpr explicit Timestamp(int64_t ms) : ms_(ms) {}
  int64_t ms_ = 0;
};

// Parses "30s", "100ms", "1h30m", "2d" or a bare number of seconds ("15", "0.5").
Result<Duration> parse_duration(std::string_view text);

}  // namespace allot
