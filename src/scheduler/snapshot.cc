#include "scheduler/snapshot.h"

namespace allot {

ResourceVector AdmittedWorkload::usage() const {
  ResourceVector total;
  for (size_t i = 0; i < pod_sets.size() && i < assignment.size(); ++i) {
    total += pod_sets[i].per_pod * assignment[i].count;
  }
  return total;
}

}  // namespace allot
