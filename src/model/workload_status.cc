#include "model/workload_status.h"

#include <array>

namespace allot {
namespace {

constexpr std::array<std::string_view, 8> kPhaseNames = {
    "Pending", "Admitted", "Running", "Succeeded", "Failed", "Preempted", "Cancelled", "Suspended"};

constexpr std::array<std::string_view, 7> kStopCauseNames = {
    "", "Preempted", "Evicted", "Cancelled", "PodFailed", "MaxRuntimeExceeded", "Idle"};

}  // namespace

std::string_view stop_cause_name(StopCause cause) {
  return kStopCauseNames[static_cast<size_t>(cause)];
}

std::optional<StopCause> parse_stop_cause(std::string_view name) {
  for (size_t i = 0; i < kStopCauseNames.size(); ++i) {
    if (kStopCauseNames[i] == name) return static_cast<StopCause>(i);
  }
  return std::nullopt;
}

std::string_view workload_phase_name(WorkloadPhase phase) {
  return kPhaseNames[static_cast<size_t>(phase)];
}

std::optional<WorkloadPhase> parse_workload_phase(std::string_view name) {
  for (size_t i = 0; i < kPhaseNames.size(); ++i) {
    if (kPhaseNames[i] == name) return static_cast<WorkloadPhase>(i);
  }
  return std::nullopt;
}

}  // namespace allot
