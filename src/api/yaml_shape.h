// check_yaml_shape(): refuses YAML that a manifest never needs and that makes
// a small body expensive: aliases (`*name`, which a loader expands without
// bound: a 17 KB body once became a 19 MB workload), nesting deeper than
// kMaxYamlDepth (a parser's stack grows with it), and text on which yaml-cpp
// 0.7's loader never returns (a ',' where a document's node should start:
// empty documents without end, jbeder/yaml-cpp#1040).
//
// Contract: runs over the text's parse events only (nothing is built). The
// Status of a refusal says what and where (line and column, 1-based); other
// YAML that does not parse passes here and is reported by the loader. Anchors
// without aliases are harmless and pass. The loader must run only on text
// that passed here.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "base/status.h"

namespace allot {

inline constexpr size_t kMaxYamlDepth = 64;

Status check_yaml_shape(const std::string& text, std::string_view source);

}  // namespace allot
