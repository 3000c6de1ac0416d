// UTF-8 validation of manifest text.
//
// Contract: check_utf8() accepts exactly the well-formed UTF-8 of RFC 3629
// (no overlong forms, no surrogates, nothing above U+10FFFF) and otherwise
// returns invalid_argument naming the first bad byte, its offset and its
// line and column (both from 1; the column counts bytes). Everything allot
// stores is JSON, which must be UTF-8: text that is not would fail only when
// it is encoded, after parts of a request were already applied.
//
// Written here because none of the libraries allot uses exposes a check:
// nlohmann::json validates inside its lexer only, yaml-cpp not at all.
#pragma once

#include <cstddef>
#include <string_view>

#include "base/status.h"
#include "base/utf8.h"  // utf8_sequence_length

namespace allot {

Status check_utf8(std::string_view text);

}  // namespace allot
