#include "api/workload_submission.h"

#include <utility>

#include "api/manifest_parser.h"

namespace allot {

Result<Workload> decode_workload_submission(std::string_view body, const std::string& ns,
                                            WorkloadId id) {
  ALLOT_ASSIGN_OR_RETURN(
      ParsedManifests parsed,
      parse_manifests_with_documents(body, {ns, "wl-" + std::to_string(id.value())}));
  if (parsed.documents.size() != 1 || parsed.bundle.workloads.size() != 1) {
    return invalid_argument("expected exactly one Workload document, got " +
                            std::to_string(parsed.documents.size()) + " documents");
  }
  Workload& workload = parsed.bundle.workloads.front();
  if (workload.meta.namespace_name != ns) {
    return invalid_argument("metadata.namespace '" + workload.meta.namespace_name +
                                "' differs from the namespace of the URL '" + ns + "'",
                            "document 1 (Workload/" + workload.meta.name + "): metadata.namespace");
  }
  return std::move(workload);
}

}  // namespace allot
