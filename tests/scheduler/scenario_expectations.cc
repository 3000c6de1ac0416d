// check_expectations(): compares a Plan with a scenario's `expect` block.
#include <algorithm>
#include <set>

#include "scenario_file.h"
#include "scheduler/explanation_text.h"

namespace allot::testing {
namespace {

using Names = std::set<std::string>;

Names expected_names(const YAML::Node& list) {
  Names out;
  for (const auto& item : list) out.insert(item.as<std::string>());
  return out;
}

std::string join(const Names& names) {
  std::string out = "[";
  for (const auto& n : names) out += (out.size() > 1 ? ", " : "") + n;
  return out + "]";
}

class Checker {
 public:
  Checker(const LoadedScenario& s, const Plan& plan) : s_(s), plan_(plan) {}

  std::vector<std::string> run() {
    const YAML::Node& e = s_.expect;
    if (!e) return {"the scenario has no expect block"};
    Names admitted;
    Names borrowing;
    for (const auto& a : plan_.admissions) {
      admitted.insert(name(a.workload));
      if (a.borrowing) borrowing.insert(name(a.workload));
    }
    Names preempted;
    for (const auto& p : plan_.preemptions) preempted.insert(name(p.victim));
    Names evicted;
    for (const auto& ev : plan_.evictions) evicted.insert(name(ev.workload));
    compare_set(e["admitted"], admitted, "admitted");
    compare_set(e["preempted"], preempted, "preempted");
    compare_set(e["evicted"], evicted, "evicted");
    compare_set(e["borrowing"], borrowing, "borrowing");
    check_pending(e);
    check_preemption_reasons(e["preemptionReasons"]);
    check_placement(e["placement"]);
    check_partial(e["partial"]);
    check_reserved(e["reserved"]);
    check_not_reserved(e["notReserved"]);
    check_handovers(e["handovers"]);
    Names withdrawn;
    for (const WorkloadId w : plan_.withdrawn_handovers) withdrawn.insert(name(w));
    compare_set(e["withdrawn"], withdrawn, "withdrawn handovers");
    return std::move(errors_);
  }

 private:
  std::string name(WorkloadId id) const {
    auto it = s_.names.find(id.value());
    return it == s_.names.end() ? "#" + std::to_string(id.value()) : it->second;
  }

  void compare_set(const YAML::Node& expected, const Names& actual, const std::string& what) {
    if (!expected) return;
    const Names want = expected_names(expected);
    if (want != actual)
      errors_.push_back(what + ": expected " + join(want) + ", got " + join(actual));
  }

  const PendingExplanation* explanation(const std::string& who) {
    for (const auto& x : plan_.explanations) {
      if (name(x.workload) == who) return &x;
    }
    errors_.push_back(who + ": expected to stay pending with an explanation, but has none");
    return nullptr;
  }

  void check_pending(const YAML::Node& e) {
    for (const auto& item : e["pending"]) {
      if (const auto* x = explanation(item.first.as<std::string>())) {
        const std::string got(pending_reason_name(x->reason));
        if (got != item.second.as<std::string>()) {
          errors_.push_back(item.first.as<std::string>() + ": reason " + got + ", expected " +
                            item.second.as<std::string>() + " — " +
                            describe_pending(*s_.policy, *x, s_.snapshot.now));
        }
      }
    }
    for (const auto& item : e["verdicts"]) {
      if (const auto* x = explanation(item.first.as<std::string>())) {
        const std::string got(preemption_verdict_name(x->preemption));
        if (got != item.second.as<std::string>()) {
          errors_.push_back(item.first.as<std::string>() + ": preemption verdict " + got +
                            ", expected " + item.second.as<std::string>());
        }
      }
    }
    for (const auto& item : e["explanation"]) {
      if (const auto* x = explanation(item.first.as<std::string>())) {
        const std::string text = describe_pending(*s_.policy, *x, s_.snapshot.now);
        if (text.find(item.second.as<std::string>()) == std::string::npos) {
          errors_.push_back(item.first.as<std::string>() + ": explanation '" + text + "' lacks '" +
                            item.second.as<std::string>() + "'");
        }
      }
    }
    for (const auto& item : e["estimatedStart"]) {
      if (const auto* x = explanation(item.first.as<std::string>())) {
        const Timestamp want =
            Timestamp::epoch() + parse_duration(item.second.as<std::string>()).value();
        if (x->estimated_start != want) {
          errors_.push_back(item.first.as<std::string>() + ": estimated start " +
                            std::to_string(x->estimated_start.ms()) + "ms, expected " +
                            std::to_string(want.ms()) + "ms");
        }
      }
    }
  }

  void check_preemption_reasons(const YAML::Node& reasons) {
    for (const auto& item : reasons) {
      bool found = false;
      for (const auto& p : plan_.preemptions) {
        if (name(p.victim) != item.first.as<std::string>()) continue;
        found = true;
        const std::string got(preemption_reason_name(p.reason));
        if (got != item.second.as<std::string>()) {
          errors_.push_back(name(p.victim) + ": preemption reason " + got + ", expected " +
                            item.second.as<std::string>());
        }
      }
      if (!found) errors_.push_back(item.first.as<std::string>() + ": was not preempted");
    }
  }

  const Admission* admission(const std::string& who) {
    for (const auto& a : plan_.admissions) {
      if (name(a.workload) == who) return &a;
    }
    errors_.push_back(who + ": expected to be admitted");
    return nullptr;
  }

  void check_placement(const YAML::Node& placement) {
    for (const auto& item : placement) {
      const Admission* a = admission(item.first.as<std::string>());
      if (a == nullptr) continue;
      const std::string who = item.first.as<std::string>();
      if (item.second["flavor"] &&
          s_.policy->flavor_name(a->flavor) != item.second["flavor"].as<std::string>()) {
        errors_.push_back(who + ": flavor " + s_.policy->flavor_name(a->flavor));
      }
      std::set<int32_t> racks;
      Names nodes;
      for (const auto& set : a->assignment) {
        for (const auto& pod : set.pods) {
          racks.insert(s_.policy->node(pod.node).rack);
          nodes.insert(s_.policy->node(pod.node).node.name);
        }
      }
      if (item.second["racks"] &&
          static_cast<int>(racks.size()) != item.second["racks"].as<int>()) {
        errors_.push_back(who + ": spans " + std::to_string(racks.size()) + " racks, expected " +
                          item.second["racks"].as<std::string>());
      }
      if (item.second["nodes"]) compare_set(item.second["nodes"], nodes, who + " nodes");
      if (item.second["gpus"]) compare_gpus(item.second["gpus"], a->assignment, who);
    }
  }

  // The GPU indices of every pod, as one set.
  void compare_gpus(const YAML::Node& expected, const std::vector<PodSetAssignment>& assignment,
                    const std::string& who) {
    Names want;
    for (const auto& gpu : expected) want.insert(gpu.as<std::string>());
    Names got;
    for (const auto& set : assignment) {
      for (const auto& pod : set.pods) {
        for (int bit = 0; bit < 64; ++bit) {
          if ((pod.gpu_mask >> bit) & 1U) got.insert(std::to_string(bit));
        }
      }
    }
    if (want != got) errors_.push_back(who + ": GPUs " + join(got) + ", expected " + join(want));
  }

  // `handovers: {ns/name: {after: [...], node: n, gpus: [...]}}`: exactly these.
  void check_handovers(const YAML::Node& expected) {
    if (!expected) return;
    Names want;
    Names got;
    for (const auto& item : expected) want.insert(item.first.as<std::string>());
    for (const Handover& h : plan_.handovers) got.insert(name(h.workload));
    if (want != got) errors_.push_back("handovers: expected " + join(want) + ", got " + join(got));
    for (const auto& item : expected) {
      const std::string who = item.first.as<std::string>();
      for (const Handover& h : plan_.handovers) {
        if (name(h.workload) != who) continue;
        Names after;
        for (const WorkloadId v : h.after) after.insert(name(v));
        if (item.second["after"]) compare_set(item.second["after"], after, who + " after");
        Names nodes;
        for (const auto& set : h.assignment) {
          for (const auto& pod : set.pods) nodes.insert(s_.policy->node(pod.node).node.name);
        }
        if (item.second["node"] && nodes != Names{item.second["node"].as<std::string>()}) {
          errors_.push_back(who + ": handover on " + join(nodes));
        }
        if (item.second["gpus"]) compare_gpus(item.second["gpus"], h.assignment, who + " handover");
        const std::string kind = h.kind == HandoverKind::kTurnover ? "turnover" : "reclaim";
        if (item.second["kind"] && item.second["kind"].as<std::string>() != kind) {
          errors_.push_back(who + ": a " + kind + " handover");
        }
      }
    }
  }

  void check_partial(const YAML::Node& partial) {
    for (const auto& item : partial) {
      const Admission* a = admission(item.first.as<std::string>());
      if (a == nullptr) continue;
      for (size_t i = 0; i < item.second.size() && i < a->assignment.size(); ++i) {
        if (a->assignment[i].count != item.second[i].as<int>()) {
          errors_.push_back(item.first.as<std::string>() + ": pod set " + std::to_string(i) +
                            " got " + std::to_string(a->assignment[i].count) + " pods");
        }
      }
    }
  }

  void check_reserved(const YAML::Node& reserved) {
    for (const auto& item : reserved) {
      const std::string who = item.first.as<std::string>();
      auto it = std::find_if(plan_.reservations.begin(), plan_.reservations.end(),
                             [&](const Reservation& r) { return name(r.workload) == who; });
      if (it == plan_.reservations.end()) {
        errors_.push_back(who + ": expected a reservation");
        continue;
      }
      if (item.second["startsAt"]) {
        const std::string starts = item.second["startsAt"].as<std::string>();
        const bool consolidation = starts == "consolidation";
        const Timestamp want = starts == "drain" || consolidation
                                   ? Timestamp::infinite_future()
                                   : Timestamp::epoch() + parse_duration(starts).value();
        if (it->consolidation != consolidation) {
          errors_.push_back(who + (consolidation ? ": expected a consolidation's hold"
                                                 : ": a consolidation's hold, not expected"));
        }
        if (it->starts_at != want) {
          errors_.push_back(who + ": reservation starts at " + std::to_string(it->starts_at.ms()) +
                            "ms, expected " + std::to_string(want.ms()) + "ms");
        }
      }
      if (item.second["nodes"]) {
        // A workload may hold several one-node reservations (a consolidation's nodes).
        Names want = expected_names(item.second["nodes"]);
        Names got;
        for (const Reservation& r : plan_.reservations) {
          if (name(r.workload) != who) continue;
          for (NodeIndex n : r.nodes) got.insert(s_.policy->node(n).node.name);
        }
        if (want != got) {
          errors_.push_back(who + ": reserved nodes " + join(got) + ", expected " + join(want));
        }
      }
    }
  }

  void check_not_reserved(const YAML::Node& names) {
    for (const auto& item : names) {
      const std::string who = item.as<std::string>();
      for (const Reservation& r : plan_.reservations) {
        if (name(r.workload) == who) errors_.push_back(who + ": expected no reservation");
      }
    }
  }

  const LoadedScenario& s_;
  const Plan& plan_;
  std::vector<std::string> errors_;
};

}  // namespace

std::vector<std::string> check_expectations(const LoadedScenario& scenario, const Plan& plan) {
  return Checker(scenario, plan).run();
}

}  // namespace allot::testing
