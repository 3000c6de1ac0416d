// Fuzz target: scenario documents as `allot simulate --scenario` reads them
// (api/scenario_document.h through api/manifest_parser.h): parsed, the
// policy validated and compiled, the arrivals expanded (ArrivalStream) and
// each checked against the policy (make_pending_workload), which is all the
// simulator does before its loop.
// Seeds: tests/fuzz/corpus/scenario (examples/scenarios, the scheduler's
// scenario tests), manifest.dict.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "api/manifest_parser.h"
#include "model/node_inventory.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/workload_request.h"
#include "service/simulation/arrival_stream.h"

namespace {

// Generators may produce up to kMaxGeneratedArrivals each: real, but too slow
// for a fuzzer's iteration. Larger scenarios are parsed only.
constexpr int64_t kMaxFuzzArrivals = 2'000;

bool small_enough(const allot::Scenario& scenario) {
  int64_t total = 0;
  for (const allot::ScenarioGenerator& generator : scenario.generators) total += generator.count;
  return total <= kMaxFuzzArrivals;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {  // NOLINT
  const std::string_view text(reinterpret_cast<const char*>(data), size);  // NOLINT
  const allot::Result<allot::ManifestBundle> bundle = allot::parse_manifests(text, "scenario.yaml");
  if (!bundle.ok() || !bundle->scenario || !small_enough(*bundle->scenario)) return 0;
  const allot::Result<allot::ArrivalStream> arrivals =
      allot::ArrivalStream::from_scenario(*bundle->scenario);
  if (!arrivals.ok() || !allot::validate_policy(bundle->policy).ok()) return 0;
  const allot::Result<allot::CompiledPolicy> compiled =
      allot::CompiledPolicy::compile(bundle->policy, allot::expand_node_pools(bundle->policy));
  if (!compiled.ok()) return 0;
  for (size_t i = 0; i < arrivals->size(); ++i) {
    const allot::Arrival& arrival = arrivals->arrivals()[i];
    (void)allot::make_pending_workload(*compiled, arrival.workload, allot::WorkloadId(i),
                                       arrival.at);
  }
  return 0;
}
