// Workload redaction (issue 11, item 5): what a caller reads in place of the
// name of a workload it may not see. Other teams' work appears to it only as
// "another team's workload": in a preempted workload's `preemptedBy`, in the
// messages of its events, and in a node's list of workloads.
//
// Contract: pure. A workload is named by its key "namespace/name"; it is
// shown when the caller may list workloads in its namespace
// (VisibleNamespaces, caller_rights.h), replaced otherwise. A text that is no
// key (e.g. "another workload") is kept. Messages name workloads only
// through preempted_by_phrase(), so redact_message() finds every name in
// them: the one phrase that names a workload in an event is made here.
#pragma once

#include <string>
#include <string_view>

#include "service/control/caller_rights.h"

namespace allot {

inline constexpr std::string_view kOtherTeamsWorkload = "another team's workload";

// "preempted by <key>": the phrase of the events and status that name a
// preemptor.
std::string preempted_by_phrase(std::string_view preemptor_key);

// The key itself when the caller may see its namespace, else kOtherTeamsWorkload.
std::string redact_workload_key(std::string_view key, const VisibleNamespaces& visible);

// `message` with every preemptor the caller may not see replaced.
std::string redact_message(std::string_view message, const VisibleNamespaces& visible);

}  // namespace allot
