// ProgressBar: a one-line progress bar on a terminal, redrawn in place with
// '\r', for long trace replays:
//   policy borrow: [#####.....] 52% (43,000/82,247 jobs)
//
// Contract: the CLI owns real time (the service only reports counts through
// SimulationOptions::on_progress). update() redraws at most once per
// kRedrawInterval of the injected clock, and always when done == total;
// finish() ends the line. Not thread-safe. The stream must outlive the bar.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace allot::cli {

// "43,000": thousands separated by commas.
std::string with_thousands(int64_t value);

// The bar's text, without '\r'. REQUIRES: 0 <= done <= total (clamped otherwise).
std::string progress_line(const std::string& label, int64_t done, int64_t total);

class ProgressBar {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;
  static constexpr std::chrono::milliseconds kRedrawInterval{100};

  explicit ProgressBar(std::ostream& out, Clock clock = &std::chrono::steady_clock::now);

  void update(const std::string& label, int64_t done, int64_t total);
  void finish();

 private:
  std::ostream& out_;
  Clock clock_;
  std::optional<std::chrono::steady_clock::time_point> last_draw_;
  size_t last_width_ = 0;
  bool drawn_ = false;
};

}  // namespace allot::cli
