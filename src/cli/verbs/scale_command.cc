#include "cli/verbs/scale_command.h"

#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/client/api_client.h"
#include "cli/client/api_paths.h"
#include "cli/client/workload_ref.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

class ScaleCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("name", name_, "The endpoint: NAME (with -n) or NS/NAME")->required();
    subcommand.add_option("-n,--namespace", namespace_, "Namespace of the endpoint");
    auto* replicas =
        subcommand.add_option("--replicas", replicas_, "Desired replicas (scaleOn: external)");
    auto* signal = subcommand.add_option("--signal", signal_,
                                         "A reading of the endpoint's signal (queueDepth, cpu)");
    replicas->excludes(signal);
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    if (!replicas_ && !signal_) {
      return report_error(io, invalid_argument("give --replicas or --signal", "--replicas"));
    }
    const Result<int64_t> desired = scale();
    if (!desired.ok()) return report_error(io, desired.status());
    io.out << "workload/" << name_of_ref_ << " scaled to " << *desired << " replicas\n";
    return kExitOk;
  }

 private:
  // The desired count allotd answers.
  Result<int64_t> scale() {
    ALLOT_ASSIGN_OR_RETURN(WorkloadRef ref, parse_workload_ref(name_, namespace_));
    name_of_ref_ = ref.name;
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    nlohmann::json body = nlohmann::json::object();
    if (replicas_) body["replicas"] = *replicas_;
    if (signal_) body["signal"] = *signal_;
    ALLOT_ASSIGN_OR_RETURN(const ApiResponse answer,
                           client.post(workload_path(ref.namespace_name, ref.name, "scale"),
                                       body.dump(), kJsonContentType));
    ALLOT_ASSIGN_OR_RETURN(const nlohmann::json json, answer.json());
    const nlohmann::json::json_pointer where("/status/replicas/desired");
    if (!json.contains(where) || !json.at(where).is_number_integer()) {
      return Status(ErrorCode::kInternal, "allotd's answer has no status.replicas.desired");
    }
    return json.at(where).get<int64_t>();
  }

  std::string name_;
  std::string namespace_;
  std::optional<int32_t> replicas_;
  std::optional<double> signal_;
  std::string name_of_ref_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_scale_command() { return std::make_unique<ScaleCommand>(); }

}  // namespace allot::cli
