// Fuzz target: the Kueue import (api/kubernetes/kueue_import.h), outside
// input by design (a site's Kueue objects). Any text imports or fails with a
// Status, never an exception or a crash, and what imports renders.
// Seeds: tests/fuzz/corpus/kueue_import, yaml.dict.
#include <cstddef>
#include <cstdint>
#include <string>

#include "api/kubernetes/kubernetes_render.h"
#include "api/kubernetes/kueue_import.h"
#include "fuzz_expect.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  const std::string text(reinterpret_cast<const char*>(data), size);       // NOLINT
  allot::Result<allot::Policy> policy =
      allot::import_kueue(text, "fuzz.yaml", allot::KubernetesNaming::kPlain);
  if (!policy.ok()) return 0;
  // What imports renders (a pure function of a valid policy, never a crash).
  const allot::KubernetesRendering rendering = allot::render_kubernetes(*policy, {}, {});
  allot::fuzz::fuzz_expect(!rendering.objects.empty() || policy->flavors.empty(),
                           "an imported policy with flavors renders objects");
  return 0;
}
