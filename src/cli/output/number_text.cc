#include "cli/output/number_text.h"

#include <cstdio>

namespace allot::cli {

std::string fixed(double value, int decimals) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*f", decimals, value);
  return buffer;
}

std::string seconds_text(double value) { return fixed(value, 1) + "s"; }

std::string percent_text(double ratio) { return fixed(ratio * 100.0, 1) + "%"; }

}  // namespace allot::cli
