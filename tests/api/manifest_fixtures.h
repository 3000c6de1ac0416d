// Shared expectations of the api tests: parse a manifest text and get either
// the bundle (failing the test on an error) or the error (failing it on success).
#pragma once

#include <string>
#include <string_view>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"

namespace allot {

inline ManifestBundle parse_ok(std::string_view text, std::string_view source = {}) {
  Result<ManifestBundle> bundle = parse_manifests(text, source);
  if (!bundle.ok()) {
    ADD_FAILURE() << "unexpected error: " << bundle.status().to_string();
    return {};
  }
  return std::move(bundle).value();
}

inline Status parse_error(std::string_view text, std::string_view source = {}) {
  Result<ManifestBundle> bundle = parse_manifests(text, source);
  if (bundle.ok()) {
    ADD_FAILURE() << "expected an error, but the text parsed";
    return {};
  }
  return bundle.status();
}

// Succeeds when `text` fails to parse with `code`, exactly `details` and a
// message that contains `message_part`.
inline ::testing::AssertionResult fails_with(std::string_view text, std::string_view details,
                                             std::string_view message_part,
                                             ErrorCode code = ErrorCode::kInvalidArgument) {
  Result<ManifestBundle> bundle = parse_manifests(text);
  if (bundle.ok()) return ::testing::AssertionFailure() << "the text parsed";
  const Status status = bundle.status();
  if (status.code() != code || status.details() != details ||
      status.message().find(message_part) == std::string::npos) {
    return ::testing::AssertionFailure()
           << "got " << status.to_string() << "\nwanted code " << error_code_name(code)
           << ", details '" << details << "' and a message with '" << message_part << "'";
  }
  return ::testing::AssertionSuccess();
}

// One document of `kind` named `name` whose spec is `spec` (YAML flow or block text).
inline std::string document(std::string_view kind, std::string_view name, std::string_view spec,
                            std::string_view ns = {}) {
  std::string text = "apiVersion: allot/v1\nkind: " + std::string(kind) +
                     "\nmetadata: {name: " + std::string(name);
  if (!ns.empty()) text += ", namespace: " + std::string(ns);
  return text + "}\nspec: " + std::string(spec) + "\n";
}

}  // namespace allot
