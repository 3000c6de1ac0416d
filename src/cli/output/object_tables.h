// ObjectTables: `allot get`'s tables, one row per object, for people.
//
// Contract: kubectl-style tables (every column aligned left, "<none>" for
// empty lists) with a header per kind; `wide` adds columns:
//   workloads        NAME NAMESPACE TEAM PHASE GPUS AGE
//                    (+ PRIORITY FLAVOR NODES RESTARTS REASON)
//   teams            NAME NAMESPACE COHORT QUOTA (+ WEIGHT PRIORITYCLASSES)
//   nodes            NAME POOL FLAVOR STATUS GPUS WORKLOADS (+ RACK BLOCK CPU MEMORY REASON)
//   cohorts          NAME PARENT WEIGHT (+ QUOTA)
//   priorityclasses  NAME VALUE PREEMPTION (+ MINRUNTIME GRACE)
//   resourceflavors  NAME LABELS (+ PRICE)
//   nodepools        NAME CLUSTER FLAVOR COUNT GPU CPU MEMORY (+ TOPOLOGY)
//   clusters         NAME BACKEND REGION (+ ACCOUNT FAIRSHARING CYCLE)
//   roles            NAME NAMESPACE RULES (+ RESOURCES)
//   clusterroles     NAME RULES BUILTIN (+ RESOURCES)
//   rolebindings     NAME NAMESPACE ROLE SUBJECTS
//   clusterrolebindings NAME ROLE SUBJECTS
// (ROLE is "ClusterRole/team-member"; SUBJECTS "Group/ml, User/ana,
// ServiceAccount/ns/ci"; RULES the number of rules.)
// Items are the JSON objects of docs/api.md; AGE is measured at `now`. Pure.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/resource_kinds.h"
#include "base/time.h"

namespace allot::cli {

std::string objects_table(ResourceKind kind, const std::vector<nlohmann::json>& items, bool wide,
                          Timestamp now);

// A quota list (spec.quota of a Team or Cohort) in one cell:
// "h100: gpu=8 cpu=64; a100: gpu=4" (the nominal amounts).
std::string quota_summary(const nlohmann::json& quota);

}  // namespace allot::cli
