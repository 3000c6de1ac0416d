#include "backends/sim/virtual_executor.h"

#include <algorithm>
#include <utility>

#include "base/check.h"
#include "model/checkpoint_progress.h"

namespace allot::sim {
namespace {

constexpr int kStopSignal = 15;  // SIGTERM: what a real stop sends first
constexpr int kCannotStart = 127;

SimWorkId work_of(WorkloadId workload) { return SimWorkId(workload.value()); }

// The work the next run needs once `ended` ended a run that began needing
// `remaining`. The start latency is paid again by the next run; a run's
// progress counts from the end of it, as far as its checkpoints keep it.
Duration remaining_after(const VirtualWork& model, Duration remaining, const SimEvent& ended,
                         bool suspended) {
  if (ended.kind == SimEventKind::kCompleted) return Duration();
  const Duration latency = std::max(model.start_latency, Duration());
  const Duration progress = std::min(ended.at - ended.started_at - latency, remaining);
  const CheckpointModel kept = suspended
                                   ? CheckpointModel{true, std::nullopt}
                                   : CheckpointModel{model.checkpointed, model.checkpoint_interval};
  return remaining - kept.kept(progress);
}

}  // namespace

VirtualExecutor::VirtualExecutor(PodEventSink& sink, VirtualWorkModel model)
    : sink_(sink), model_(std::move(model)) {
  ALLOT_CHECK(model_ != nullptr);
}

void VirtualExecutor::launch(const WorkloadLaunch& launch) {
  std::vector<PodEvent> events;
  {
    MutexLock lock(mu_);
    auto [it, first_launch] = work_.try_emplace(launch.workload.value());
    Work& work = it->second;
    if (first_launch) {
      work.model = model_(launch);
      work.remaining = work.model.runtime;
    }
    if (!work.pods.empty() || runs_.is_running(work_of(launch.workload))) return;  // runs already
    for (const PlacedPod& pod : launch.pods) {
      work.pod_slots = std::max(work.pod_slots, pod.index + 1);
      PodEvent event;
      event.pod = {launch.workload, pod.index};
      if (!work.model.launch_error.empty()) {
        event.phase = PodPhase::kExited;
        event.exit_code = kCannotStart;
        event.launch_error = work.model.launch_error;
      } else {
        work.pods.push_back(pod.index);
      }
      events.push_back(std::move(event));
    }
    if (!work.pods.empty()) {
      const Duration latency = std::max(work.model.start_latency, Duration());
      work.work_begins = now_ + latency;
      runs_.start(work_of(launch.workload), work.remaining + latency, work.model.checkpointed,
                  now_);
    }
  }
  report(events);
}

void VirtualExecutor::stop(WorkloadId workload, Duration grace) {
  MutexLock lock(mu_);
  if (!workload.valid() || !runs_.is_running(work_of(workload))) return;
  Duration stop_time = std::max(grace, Duration());
  if (const auto& latency = work_.at(workload.value()).model.stop_latency) {
    stop_time = std::min(stop_time, std::max(*latency, Duration()));
  }
  runs_.stop(work_of(workload), stop_time, now_);
}

void VirtualExecutor::suspend(WorkloadId workload, Duration grace) {
  {
    MutexLock lock(mu_);
    if (!workload.valid() || !runs_.is_running(work_of(workload))) return;
    work_.at(workload.value()).suspending = true;
  }
  stop(workload, grace);
}

Result<std::string> VirtualExecutor::read_log(PodId pod, int64_t /*offset*/,
                                              int64_t /*max_bytes*/) {
  MutexLock lock(mu_);
  auto it = work_.find(pod.workload.value());
  if (it == work_.end() || pod.index < 0 || pod.index >= it->second.pod_slots) {
    return not_found("pod " + std::to_string(pod.index) + " of workload " +
                     std::to_string(pod.workload.value()) + " never ran here");
  }
  return std::string();  // virtual pods write nothing
}

std::string VirtualExecutor::log_location(PodId /*pod*/) const { return {}; }

std::optional<ActivitySample> VirtualExecutor::activity(WorkloadId workload) {
  MutexLock lock(mu_);
  if (!workload.valid() || !runs_.is_running(work_of(workload))) return std::nullopt;
  const Work& work = work_.at(workload.value());
  ActivitySample sample;
  sample.heartbeat = now_;
  if (work.model.active_for) {
    sample.heartbeat = std::min(now_, work.work_begins + *work.model.active_for);
  }
  return sample;
}

Timestamp VirtualExecutor::now() const {
  MutexLock lock(mu_);
  return now_;
}

Timestamp VirtualExecutor::next_event_time() const {
  MutexLock lock(mu_);
  return runs_.next_event_time();
}

// One instant at a time, so that a sink which launches or stops work while an
// event is reported acts at that event's time.
void VirtualExecutor::advance_to(Timestamp time) {
  while (true) {
    std::vector<PodEvent> events;
    {
      MutexLock lock(mu_);
      ALLOT_CHECK(time >= now_);
      const Timestamp next = runs_.next_event_time();
      if (next > time) {
        now_ = time;
        return;
      }
      now_ = next;
      for (const SimEvent& ended : runs_.take_due(next)) {
        Work& work = work_.at(ended.work.value());
        const bool completed = ended.kind == SimEventKind::kCompleted;
        work.remaining = remaining_after(work.model, work.remaining, ended, work.suspending);
        work.suspending = false;
        for (int32_t index : work.pods) {
          PodEvent event;
          event.pod = {WorkloadId(ended.work.value()), index};
          event.phase = PodPhase::kExited;
          if (completed) {
            event.exit_code = work.model.exit_code;
          } else {
            event.signal = kStopSignal;
            event.stopped = true;
          }
          events.push_back(std::move(event));
        }
        work.pods.clear();
      }
    }
    report(events);
  }
}

void VirtualExecutor::report(const std::vector<PodEvent>& events) {
  for (const PodEvent& event : events) sink_.on_pod_event(event);
}

SteppedExecutorFactory virtual_executor_factory() {
  return [](PodEventSink& sink, VirtualWorkModel model) -> std::unique_ptr<SteppedExecutor> {
    return std::make_unique<VirtualExecutor>(sink, std::move(model));
  };
}

}  // namespace allot::sim
