// Numbers as the CLI's reports print them.
//
// Contract: pure. fixed(v, d) is printf's "%.*f" (d decimals; non-finite
// values as printf writes them); seconds_text(v) is fixed(v, 1) + "s";
// percent_text(ratio) is fixed(ratio * 100, 1) + "%"; grouped(v, d) is
// fixed(v, d) with a comma between each group of three integer digits
// ("41,868.3"), and "-" for a non-finite value.
#pragma once

#include <string>

namespace allot::cli {

std::string fixed(double value, int decimals);
std::string seconds_text(double value);
std::string percent_text(double ratio);
std::string grouped(double value, int decimals);

}  // namespace allot::cli
