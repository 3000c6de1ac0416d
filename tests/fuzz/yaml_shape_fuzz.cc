// Fuzz target: the YAML shape check (api/yaml_shape.h) and the loader it
// guards: YAML that passes it (no aliases, nesting within kMaxYamlDepth) must
// load or fail with a YAML::Exception, never exhaust the stack.
// Seeds: tests/fuzz/corpus/yaml_shape, yaml.dict.
#include <cstddef>
#include <cstdint>
#include <string>

#include <yaml-cpp/yaml.h>

#include "api/yaml_shape.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  const std::string text(reinterpret_cast<const char*>(data), size);       // NOLINT
  if (!allot::check_yaml_shape(text, "fuzz.yaml").ok()) return 0;
  try {
    (void)YAML::LoadAll(text);
  } catch (const YAML::Exception&) {  // what manifest_parser.cc reports as invalid YAML
  }
  return 0;
}
