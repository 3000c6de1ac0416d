#include "cli/verbs/contract_command.h"

#include <string>
#include <utility>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "cli/client/api_client.h"
#include "cli/output/text_table.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/input_files.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

using json = nlohmann::json;

std::string contract_text(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string contract_table(const json& items) {
  TextTable table({"NAME", "PHASE", "PROJECT", "CLUSTER", "CLASSIFICATION", "REVIEW DUE"},
                  TextTable::Alignment::kLeft);
  for (const json& item : items) {
    const json spec = item.value("spec", json::object());
    const json status = item.value("status", json::object());
    table.add_row({item.value("metadata", json::object()).value("name", ""),
                   contract_text(status, "phase"), contract_text(spec, "project"),
                   spec.value("cluster", json::object()).value("name", ""),
                   contract_text(spec, "dataClassification"), contract_text(status, "reviewDue")});
  }
  return table.render();
}

void describe_contract(std::ostream& out, const json& contract) {
  const json spec = contract.value("spec", json::object());
  const json status = contract.value("status", json::object());
  out << "Name:            " << contract["metadata"].value("name", "") << "\n";
  out << "Phase:           " << contract_text(status, "phase") << "\n";
  out << "Requested by:    " << contract_text(status, "requestedBy") << "\n";
  out << "Approved by:     " << contract_text(status, "approvedBy") << "\n";
  out << "Review due:      " << contract_text(status, "reviewDue") << " (grace until "
      << contract_text(status, "reviewGraceEnds") << ")\n";
  out << "Spec:\n";
  for (const auto& [key, value] : spec.items()) {
    out << "  " << key << ": " << (value.is_string() ? value.get<std::string>() : value.dump())
        << "\n";
  }
  out << "History:\n";
  TextTable history({"AT", "ACTION", "FROM", "TO", "BY", "REASON"}, TextTable::Alignment::kLeft);
  for (const json& step : status.value("history", json::array())) {
    history.add_row({contract_text(step, "at"), contract_text(step, "action"),
                     contract_text(step, "from"), contract_text(step, "to"),
                     contract_text(step, "by"), contract_text(step, "reason")});
  }
  out << history.render();
}

class ContractCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand
        .add_option("action", action_,
                    "create, approve, activate, review, renew, revoke, "
                    "get or describe")
        ->required()
        ->check(CLI::IsMember(
            {"create", "approve", "activate", "review", "renew", "revoke", "get", "describe"}));
    subcommand.add_option("name", name_, "The contract");
    subcommand.add_option("-f,--filename", file_, "create: the Contract manifest ('-': stdin)");
    subcommand.add_option("--reason", reason_, "Transitions: why (recorded in the history)");
    subcommand.add_option("-o,--output", output_, "get: table or json")
        ->check(CLI::IsMember({"table", "json"}));
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Status done = dispatch(io);
    return done.ok() ? kExitOk : report_error(io, done);
  }

 private:
  Status dispatch(CliIo& io) {
    if (action_ == "create") return create(io);
    if (name_.empty() && action_ != "get") {
      return invalid_argument("allot contract " + action_ + " needs the contract's NAME", "name");
    }
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    if (action_ == "get" || action_ == "describe") {
      const std::string path = "/api/v1/contracts" + (name_.empty() ? "" : "/" + name_);
      ALLOT_ASSIGN_OR_RETURN(ApiResponse response, client.get(path));
      ALLOT_ASSIGN_OR_RETURN(const json body, response.json());
      if (action_ == "describe") {
        describe_contract(io.out, body);
      } else if (output_ == "json") {
        io.out << body.dump(2) << "\n";
      } else {
        io.out << contract_table(name_.empty() ? body.value("items", json::array())
                                               : json::array({body}));
      }
      return {};
    }
    if (reason_.empty()) return invalid_argument("a transition needs --reason", "--reason");
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response,
                           client.post("/api/v1/contracts/" + name_ + "/" + action_,
                                       json{{"reason", reason_}}.dump(), kJsonContentType));
    ALLOT_ASSIGN_OR_RETURN(const json body, response.json());
    io.out << "contract/" << name_ << " " << body.value("status", json::object()).value("phase", "")
           << "\n";
    return {};
  }

  Status create(CliIo& io) {
    if (file_.empty()) return invalid_argument("allot contract create needs -f FILE", "-f");
    ALLOT_ASSIGN_OR_RETURN(const std::string manifests, read_input_file(file_, io));
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    ALLOT_ASSIGN_OR_RETURN(ApiResponse response,
                           client.post("/api/v1/apply", manifests, kYamlContentType));
    ALLOT_ASSIGN_OR_RETURN(const json body, response.json());
    for (const json& change : body.value("changes", json::array())) {
      io.out << "contract/" << change.value("name", "") << " " << change.value("action", "")
             << "\n";
    }
    return {};
  }

  std::string action_;
  std::string name_;
  std::string file_;
  std::string reason_;
  std::string output_ = "table";
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_contract_command() { return std::make_unique<ContractCommand>(); }

}  // namespace allot::cli
