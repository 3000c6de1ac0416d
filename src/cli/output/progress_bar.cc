#include "cli/output/progress_bar.h"

#include <algorithm>
#include <utility>

namespace allot::cli {

// Built back to front with push_back: GCC 12 at -O2 reports a false
// -Wrestrict inside std::string::insert and operator+ here.
std::string with_thousands(int64_t value) {
  const std::string digits = std::to_string(value < 0 ? -value : value);
  std::string reversed;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && i % 3 == 0) {
      reversed.push_back(',');
    }
    reversed.push_back(digits[digits.size() - 1 - i]);
  }
  if (value < 0) {
    reversed.push_back('-');
  }
  return {reversed.rbegin(), reversed.rend()};
}

std::string progress_line(const std::string& label, int64_t done, int64_t total) {
  constexpr int64_t kWidth = 10;
  total = std::max<int64_t>(total, 0);
  done = std::clamp<int64_t>(done, 0, total);
  const int64_t percent = total > 0 ? done * 100 / total : 100;
  const int64_t filled = total > 0 ? done * kWidth / total : kWidth;
  return label + ": [" + std::string(static_cast<size_t>(filled), '#') +
         std::string(static_cast<size_t>(kWidth - filled), '.') + "] " + std::to_string(percent) +
         "% (" + with_thousands(done) + "/" + with_thousands(total) + " jobs)";
}

ProgressBar::ProgressBar(std::ostream& out, Clock clock) : out_(out), clock_(std::move(clock)) {}

void ProgressBar::update(const std::string& label, int64_t done, int64_t total) {
  const auto now = clock_();
  if (done < total && last_draw_ && now - *last_draw_ < kRedrawInterval) {
    return;
  }
  last_draw_ = now;
  std::string line = progress_line(label, done, total);
  const size_t width = line.size();
  if (width < last_width_) {
    line += std::string(last_width_ - width, ' ');  // wipe a longer previous line
  }
  last_width_ = width;
  out_ << '\r' << line << std::flush;
  drawn_ = true;
}

void ProgressBar::finish() {
  if (drawn_) {
    out_ << '\n' << std::flush;
  }
  drawn_ = false;
  last_draw_.reset();
  last_width_ = 0;
}

}  // namespace allot::cli
