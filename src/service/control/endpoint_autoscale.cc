#include "service/control/endpoint_autoscale.h"

#include <cstdio>
#include <string>
#include <utility>

#include "service/control/endpoint_control.h"
#include "service/control/workload_transitions.h"

namespace allot {
namespace {

bool scales_on_cpu(const LiveWorkload& endpoint) {
  const auto& spec = endpoint.doc.workload.spec.endpoint;
  return spec && spec->scale_on == ScaleSignal::kCpu && !is_final(endpoint.phase()) &&
         !endpoint.doc.status.deleting && endpoint.doc.status.replicas.has_value();
}

int64_t requested_cpu_millis(const Workload& workload) {
  int64_t total = 0;
  for (const PodSet& set : workload.spec.pod_sets) total += set.count * set.resources.cpu_millis();
  return total;
}

// A replica's CPU use between two readings, in percent of its request.
double use_percent(const CpuReading& before, const CpuReading& now) {
  const double wall_micros = static_cast<double>((now.at - before.at).ms()) * 1000.0;
  const double cores = static_cast<double>(now.replica.requested_cpu_millis) / 1000.0;
  const double used = static_cast<double>(now.cpu_micros - before.cpu_micros);
  return used <= 0 ? 0.0 : 100.0 * used / (wall_micros * cores);
}

struct EndpointCpuSignal {
  double total_percent = 0;
  int32_t replicas = 0;
};

std::string percent_text(double percent) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.0f%%", percent);
  return text;
}

}  // namespace

std::vector<CpuReplica> CpuAutoscaler::cpu_replicas(const ServerState& state) {
  std::vector<CpuReplica> out;
  for (const auto& [id, pointer] : state.workloads.active()) {
    const LiveWorkload& replica = *pointer;
    if (!replica_index(replica.doc.workload) || replica.phase() != WorkloadPhase::kRunning ||
        replica.run.stopping()) {
      continue;
    }
    const ObjectMeta& meta = replica.doc.workload.meta;
    const LiveWorkload* endpoint =
        state.workloads.find(meta.namespace_name, meta.labels.at(kReplicaOfLabel));
    if (endpoint == nullptr || !scales_on_cpu(*endpoint)) continue;
    const int64_t requested = requested_cpu_millis(replica.doc.workload);
    if (requested > 0) out.push_back({id, endpoint->id(), requested});
  }
  return out;
}

std::vector<CpuReading> CpuAutoscaler::read(const std::vector<CpuReplica>& replicas,
                                            Executor& executor, Timestamp now) {
  read_once_ = true;
  last_ = now;
  std::vector<CpuReading> out;
  for (const CpuReplica& replica : replicas) {
    if (const auto sample = executor.activity(replica.replica)) {
      out.push_back({replica, sample->cpu_micros, now});
    }
  }
  return out;
}

bool CpuAutoscaler::apply(const std::vector<CpuReading>& readings, ServerState& state,
                          Timestamp now, WriteBatch& batch) {
  bool changed = false;
  std::map<WorkloadId, EndpointCpuSignal> signals;  // by endpoint
  std::map<WorkloadId, CpuReading> seen;
  for (const CpuReading& reading : readings) {
    const auto before = previous_.find(reading.replica.replica);
    if (before != previous_.end() && reading.at > before->second.at &&
        reading.cpu_micros >= before->second.cpu_micros) {
      EndpointCpuSignal& signal = signals[reading.replica.endpoint];
      signal.total_percent += use_percent(before->second, reading);
      ++signal.replicas;
    }
    seen.emplace(reading.replica.replica, reading);
  }
  previous_ = std::move(seen);
  for (const auto& [endpoint_id, signal] : signals) {
    LiveWorkload* endpoint = state.workloads.find(endpoint_id);
    if (endpoint == nullptr || !scales_on_cpu(*endpoint)) continue;
    const EndpointSpec& spec = *endpoint->doc.workload.spec.endpoint;
    ReplicaScaler& scaler = state.endpoint_scalers.try_emplace(endpoint_id, spec).first->second;
    const double mean = signal.total_percent / signal.replicas;
    const int32_t desired = scaler.update(mean, signal.replicas, now);
    ReplicaCounts& replicas = *endpoint->doc.status.replicas;
    if (desired == replicas.desired) continue;
    const std::string message = "desired replicas " + std::to_string(replicas.desired) + " -> " +
                                std::to_string(desired) + " (CPU use " + percent_text(mean) +
                                " of the request, " + std::to_string(signal.replicas) +
                                " replicas read)";
    replicas.desired = desired;
    note(*endpoint, "Normal", "Scaled", message, now, batch);
    changed = true;
  }
  return changed;
}

}  // namespace allot
