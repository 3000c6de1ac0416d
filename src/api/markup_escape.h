// Text made safe to place in HTML or SVG (XML) content and in attribute
// values: the five characters with a meaning there (& < > " ') as their
// entity references, every other byte as it is.
//
// Contract: pure. Used by the evidence report's HTML page (api) and by the
// charts and reports the CLI writes (cli/output).
#pragma once

#include <string>

namespace allot {

std::string escape_markup(const std::string& text);

}  // namespace allot
