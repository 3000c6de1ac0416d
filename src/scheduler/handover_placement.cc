#include "scheduler/handover_placement.h"

#include <bit>

namespace allot {

std::optional<OnOneNode> on_one_node(const AdmittedWorkload& running) {
  std::optional<OnOneNode> out;
  for (size_t s = 0; s < running.assignment.size(); ++s) {
    for (const PodPlacement& pod : running.assignment[s].pods) {
      if (!out) out = OnOneNode{pod.node, {}, 0};
      if (out->node != pod.node) return std::nullopt;
      out->held += running.pod_sets[s].per_pod;
      out->gpus |= pod.gpu_mask;
    }
  }
  return out;
}

uint64_t lowest_gpus(uint64_t mask, int64_t count) {
  uint64_t out = 0;
  for (int64_t i = 0; i < count && mask != 0; ++i) {
    const uint64_t bit = mask & (~mask + 1);
    out |= bit;
    mask &= mask - 1;
  }
  return out;
}

std::optional<PodSetAssignment> promised_pod(const ResourceVector& need, const OnOneNode& place) {
  if (!need.fits_in(place.held) || std::popcount(place.gpus) < need.gpu()) return std::nullopt;
  return PodSetAssignment{1, {PodPlacement{place.node, lowest_gpus(place.gpus, need.gpu())}}};
}

}  // namespace allot
