#include "service/control/action_runner.h"

#include <utility>

namespace allot {

ActionRunner::ActionRunner(Executor& executor, LoopSignal& signal)
    : executor_(executor), signal_(signal) {
  for (int i = 0; i < kTurnoverThreads; ++i)
    threads_.emplace_back([this] { hand_over_turnovers(); });
}

ActionRunner::~ActionRunner() {
  {
    MutexLock lock(mu_);
    stopping_ = true;
  }
  turnover_queued_.notify_all();
  for (std::thread& thread : threads_) thread.join();
}

void ActionRunner::hand_over_turnovers() {
  for (;;) {
    HandoverAction next;
    {
      MutexLock lock(mu_);
      while (!stopping_ && turnovers_.empty()) turnover_queued_.wait(mu_);
      if (stopping_) return;
      next = std::move(turnovers_.front());
      turnovers_.pop_front();
    }
    run(next);
    done(next.launch.workload);
  }
}

Actions ActionRunner::sequence(Actions actions) {
  Actions now;
  MutexLock lock(mu_);
  for (WithdrawAction& withdraw : actions.withdrawals) {
    auto [it, idle] = busy_.try_emplace(withdraw.workload);
    if (idle) {
      now.withdrawals.push_back(withdraw);
    } else {
      it->second.emplace_back(withdraw);
    }
  }
  for (HandoverAction& handover : actions.handovers) {
    auto [it, idle] = busy_.try_emplace(handover.launch.workload);
    if (idle) {
      now.handovers.push_back(std::move(handover));
    } else {
      it->second.emplace_back(std::move(handover));
    }
  }
  for (StopAction& stop : actions.stops) {
    auto [it, idle] = busy_.try_emplace(stop.workload);
    if (idle) {
      now.stops.push_back(stop);
    } else {
      it->second.emplace_back(stop);  // after the earlier action on its workload
    }
  }
  for (WorkloadLaunch& launch : actions.launches) {
    auto [it, idle] = busy_.try_emplace(launch.workload);
    if (idle) {
      now.launches.push_back(std::move(launch));
    } else {
      it->second.emplace_back(std::move(launch));
    }
  }
  return now;
}

void ActionRunner::carry_out(Actions actions) {
  for (const WithdrawAction& withdraw : actions.withdrawals) {
    run(withdraw);
    done(withdraw.workload);
  }
  // A reclaim's before the stops of its victims: the job waits for theirs while they still run.
  // A turnover's on the runner's thread: nothing here waits for its submission.
  bool queued = false;
  for (HandoverAction& handover : actions.handovers) {
    if (handover.kind == HandoverKind::kTurnover) {
      MutexLock lock(mu_);
      turnovers_.push_back(std::move(handover));
      queued = true;
      continue;
    }
    run(handover);
    done(handover.launch.workload);
  }
  if (queued) turnover_queued_.notify_all();  // one thread per queued handover, up to all
  for (const StopAction& stop : actions.stops) {
    run(stop);
    done(stop.workload);
  }
  for (const WorkloadLaunch& launch : actions.launches) {
    run(launch);
    done(launch.workload);
  }
}

void ActionRunner::run(const Action& action) {
  if (const auto* stop = std::get_if<StopAction>(&action)) {
    executor_.stop(stop->workload, stop->grace);
  } else if (const auto* handover = std::get_if<HandoverAction>(&action)) {
    (void)executor_.hand_over(handover->launch, handover->after);
  } else if (const auto* withdraw = std::get_if<WithdrawAction>(&action)) {
    executor_.withdraw(withdraw->workload);
  } else {
    executor_.launch(std::get<WorkloadLaunch>(action));
  }
}

void ActionRunner::done(WorkloadId workload) {
  for (;;) {
    Action next;
    {
      MutexLock lock(mu_);
      const auto it = busy_.find(workload);
      if (it == busy_.end()) return;
      if (it->second.empty()) {
        busy_.erase(it);
        return;
      }
      next = std::move(it->second.front());
      it->second.pop_front();
    }
    run(next);
  }
}

void ActionRunner::on_pod_event(const PodEvent& event) {
  {
    MutexLock lock(mu_);
    if (event.phase == PodPhase::kRunning) {
      reports_.started.push_back(event.pod);
    } else {
      reports_.exits.push_back(event);
    }
  }
  signal_.wake();
}

void ActionRunner::on_backend_job(WorkloadId workload) {
  {
    MutexLock lock(mu_);
    reports_.backend_jobs.push_back(workload);
  }
  signal_.wake();
}

PodReports ActionRunner::take_reports() {
  MutexLock lock(mu_);
  PodReports taken;
  std::swap(taken, reports_);
  return taken;
}

}  // namespace allot
