// Helpers of the Kubernetes rendering and import tests: the test data files.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "api/manifest_parser.h"

namespace allot::testing {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot read " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string source_path(const std::string& relative) {
  return std::string(ALLOT_SOURCE_DIR) + "/" + relative;
}

// The manifests of these files, parsed as one bundle.
inline ManifestBundle parse_files(std::initializer_list<std::string> files) {
  std::string text;
  for (const std::string& file : files) text += read_text(source_path(file)) + "\n---\n";
  Result<ManifestBundle> bundle = parse_manifests(text, "test");
  EXPECT_TRUE(bundle.ok()) << bundle.status().to_string();
  return bundle.ok() ? *bundle : ManifestBundle{};
}

}  // namespace allot::testing
