// The well-formed UTF-8 sequences of RFC 3629.
//
// Contract: utf8_sequence_length() accepts exactly the well-formed UTF-8 of
// RFC 3629 (no overlong forms, no surrogates, nothing above U+10FFFF). Every
// JSON writer of allot (api/json_writer.h, the audit log's lines and outbox
// rows in governance/audit_event.h) replaces each byte that does not start a
// well-formed sequence with U+FFFD, so that what it writes is valid JSON
// whatever bytes a request brought (api/utf8.h checks manifests with it).
#pragma once

#include <cstddef>
#include <string_view>

namespace allot {

// U+FFFD REPLACEMENT CHARACTER, encoded.
inline constexpr std::string_view kUtf8Replacement = "\xEF\xBF\xBD";

// The length (1 to 4) of the well-formed sequence that starts at text[i], or
// 0 when the bytes there are not one. REQUIRES: i < text.size().
size_t utf8_sequence_length(std::string_view text, size_t i);

}  // namespace allot
