// Where a manifest document is, for the details of its errors:
// "f.yaml: document 3 (Team/research)". Shared by every decoder of
// multi-document manifests (manifest_parser, rbac_manifests).
//
// Contract: pure; never fails. scalar_at() is the scalar under `key`, or ""
// when absent or not a scalar. located() prefixes a Status's field path
// (its details) with the label.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "api/doc_node.h"
#include "base/status.h"

namespace allot {

std::string scalar_at(const DocNode& node, std::string_view key);
std::string document_label(const DocNode& document, size_t number, std::string_view source);
Status located(const Status& status, const std::string& label);

}  // namespace allot
