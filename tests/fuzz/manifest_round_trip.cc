#include "manifest_round_trip.h"

#include <string>

#include "api/json_unique_keys.h"
#include "api/manifest_parser.h"
#include "api/rbac_documents.h"
#include "api/workload_json.h"
#include "fuzz_expect.h"
#include "model/node_inventory.h"
#include "model/policy.h"
#include "scheduler/compiled_policy.h"

namespace allot::fuzz {
namespace {

bool is_policy_kind(std::string_view kind) {
  return kind == "Cluster" || kind == "ResourceFlavor" || kind == "NodePool" || kind == "Cohort" ||
         kind == "Team" || kind == "PriorityClass" || is_rbac_kind(kind);
}

// The policy's documents as PolicyState::from_documents() reloads them.
void check_stored_policy(const ParsedManifests& parsed) {
  std::string stored;
  for (const ManifestDocument& document : parsed.documents) {
    if (is_policy_kind(document.kind)) stored += "---\n" + document.json.dump() + "\n";
  }
  const Result<ManifestBundle> reloaded = parse_manifests(stored, "applied policy");
  if (!reloaded.ok()) {
    fuzz_fail("a valid policy's stored form parses", reloaded.status().to_string() + "\n" + stored);
  }
  fuzz_expect(reloaded->policy == parsed.bundle.policy, "the stored policy reads back the same",
              stored);
  fuzz_expect(reloaded->rbac == parsed.bundle.rbac, "the stored RBAC objects read back the same",
              stored);
}

void check_policy(const ParsedManifests& parsed) {
  const Policy& policy = parsed.bundle.policy;
  if (!validate_policy(policy).ok()) return;
  check_stored_policy(parsed);
  (void)CompiledPolicy::compile(policy, expand_node_pools(policy));
}

void check_stored_workload(const Workload& workload) {
  WorkloadDocument document;
  document.uid = WorkloadId(7);
  document.workload = workload;
  const std::string stored = encode_workload(document);
  const UniqueKeysJson json = parse_json_unique_keys(stored);
  fuzz_expect(!json.value.is_discarded() && json.repeated_key.empty(),
              "a stored workload is JSON with unique keys", stored);
  const Result<WorkloadDocument> decoded = workload_from_json(json.value);
  if (!decoded.ok()) {
    fuzz_fail("a stored workload decodes", decoded.status().to_string() + "\n" + stored);
  }
  fuzz_expect(*decoded == document, "a stored workload reads back the same", stored);
}

}  // namespace

void check_manifest_batch(std::string_view text) {
  const Result<ParsedManifests> parsed =
      parse_manifests_with_documents(text, {"team-a", "wl-1"}, "fuzz.yaml");
  if (!parsed.ok()) return;
  for (const ManifestDocument& document : parsed->documents) (void)document.json.dump();
  check_policy(*parsed);
  for (const Workload& workload : parsed->bundle.workloads) check_stored_workload(workload);
}

}  // namespace allot::fuzz
