// number_text(): the shortest text that reads back as the same double
// ("2.5", "0.04", not "0.040000000000000001"): exact, as JSON writes it,
// for people's tables, CSV cells and error messages.
//
// Contract: pure; std::to_chars's shortest round-trip form.
#pragma once

#include <array>
#include <charconv>
#include <string>
#include <system_error>

namespace allot {

inline std::string number_text(double value) {
  std::array<char, 32> text{};
  const auto [end, error] = std::to_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() ? std::string(text.data(), end) : std::to_string(value);
}

}  // namespace allot
