// Fuzz target: the body of `POST /api/v1/namespaces/NS/workloads`
// (api/workload_submission.h), YAML or JSON. A body that decodes is one
// Workload in the URL's namespace, and its stored JSON reads back the same.
// Seeds: tests/fuzz/corpus/workload_submission, manifest.dict.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "api/json_unique_keys.h"
#include "api/workload_json.h"
#include "api/workload_submission.h"
#include "fuzz_expect.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  using allot::fuzz::fuzz_expect;
  const std::string_view body(reinterpret_cast<const char*>(data), size);  // NOLINT
  const allot::Result<allot::Workload> workload =
      allot::decode_workload_submission(body, "team-a", allot::WorkloadId(42));
  if (!workload.ok()) return 0;
  fuzz_expect(workload->meta.namespace_name == "team-a", "a submission is in the URL's namespace");
  fuzz_expect(!workload->meta.name.empty(), "a submission has a name");
  allot::WorkloadDocument document;
  document.uid = allot::WorkloadId(42);
  document.workload = *workload;
  const std::string stored = allot::encode_workload(document);
  const allot::Result<allot::WorkloadDocument> decoded =
      allot::workload_from_json(allot::parse_json_unique_keys(stored).value);
  if (!decoded.ok()) {
    allot::fuzz::fuzz_fail("a submission's stored form decodes", stored);
  }
  fuzz_expect(*decoded == document, "a submission's stored form reads back the same", stored);
  return 0;
}
