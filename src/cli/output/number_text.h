// Numbers as the CLI's reports print them.
//
// Contract: pure. fixed(v, d) is printf's "%.*f" (d decimals; non-finite
// values as printf writes them); seconds_text(v) is fixed(v, 1) + "s";
// percent_text(ratio) is fixed(ratio * 100, 1) + "%".
#pragma once

#include <string>

namespace allot::cli {

std::string fixed(double value, int decimals);
std::string seconds_text(double value);
std::string percent_text(double ratio);

}  // namespace allot::cli
