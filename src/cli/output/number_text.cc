#include "cli/output/number_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace allot::cli {

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  return buffer;
}

std::string seconds_text(double value) { return fixed(value, 1) + "s"; }

std::string percent_text(double ratio) { return fixed(ratio * 100.0, 1) + "%"; }

std::string grouped(double value, int decimals) {
  if (!std::isfinite(value)) {
    return "-";
  }
  const std::string plain = fixed(value, decimals);
  const size_t digits_from = plain.front() == '-' ? 1 : 0;
  const size_t point = std::min(plain.find('.'), plain.size());
  std::string out = plain.substr(0, digits_from);
  for (size_t i = digits_from; i < point; ++i) {
    if (i > digits_from && (point - i) % 3 == 0) {
      out += ',';
    }
    out += plain[i];
  }
  return out + plain.substr(point);
}

}  // namespace allot::cli
