#include "cli/verbs/submit_command.h"

#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <yaml-cpp/yaml.h>

#include "api/yaml_shape.h"
#include "cli/client/api_paths.h"
#include "cli/client/json_fields.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/input_files.h"
#include "cli/verbs/server_verb.h"

namespace allot::cli {
namespace {

struct WorkloadToSubmit {
  std::string namespace_name;
  std::string yaml;
};

std::string scalar_under(const YAML::Node& node, const char* key) {
  if (!node.IsMap()) return {};
  const YAML::Node value = node[key];
  return value && value.IsScalar() ? value.Scalar() : std::string();
}

// metadata.<key>; yaml-cpp throws on subscripts of scalars, hence the checks.
std::string metadata_field(const YAML::Node& document, const char* key) {
  if (!document.IsMap()) return {};
  return scalar_under(document["metadata"], key);
}

// "document 2 (Team/research)", the way allotd names documents.
std::string document_name(size_t index, const YAML::Node& document) {
  const std::string name = metadata_field(document, "name");
  return "document " + std::to_string(index) + " (" + scalar_under(document, "kind") + "/" +
         (name.empty() ? "<unnamed>" : name) + ")";
}

Result<WorkloadToSubmit> to_submit(size_t index, const YAML::Node& document,
                                   const std::string& namespace_flag) {
  const std::string where = document_name(index, document);
  if (!document.IsMap() || scalar_under(document, "kind") != "Workload") {
    return invalid_argument(
        "submit takes Workload documents only; apply policy with 'allot apply -f'", where);
  }
  std::string namespace_name = metadata_field(document, "namespace");
  if (!namespace_flag.empty() && !namespace_name.empty() && namespace_flag != namespace_name) {
    return invalid_argument(
        "metadata.namespace '" + namespace_name + "' differs from -n '" + namespace_flag + "'",
        where);
  }
  if (namespace_name.empty()) namespace_name = namespace_flag;
  if (namespace_name.empty()) {
    return invalid_argument("no namespace: set metadata.namespace or give -n NAMESPACE", where);
  }
  return WorkloadToSubmit{namespace_name, YAML::Dump(document) + "\n"};
}

Result<std::vector<WorkloadToSubmit>> workloads_in(const std::string& text, const std::string& path,
                                                   const std::string& namespace_flag) {
  // yaml-cpp's loader may never return on some text (api/yaml_shape.h).
  ALLOT_RETURN_IF_ERROR(check_yaml_shape(text, path));
  std::vector<YAML::Node> documents;
  try {
    documents = YAML::LoadAll(text);
  } catch (const YAML::Exception& error) {
    return invalid_argument("malformed YAML: " + error.msg,
                            path + ":" + std::to_string(error.mark.line + 1));
  }
  std::vector<WorkloadToSubmit> out;
  for (size_t i = 0; i < documents.size(); ++i) {
    if (documents[i].IsNull()) continue;
    ALLOT_ASSIGN_OR_RETURN(WorkloadToSubmit workload,
                           to_submit(i + 1, documents[i], namespace_flag));
    out.push_back(std::move(workload));
  }
  if (out.empty()) return invalid_argument("no Workload documents to submit", path);
  return out;
}

class SubmitCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("-f,--filename", file_, "YAML file of Workload documents (- for stdin)")
        ->required();
    subcommand.add_option("-n,--namespace", namespace_,
                          "Namespace (team) for documents without metadata.namespace");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    const Status submitted = submit(io);
    return submitted.ok() ? kExitOk : report_error(io, submitted);
  }

 private:
  Status submit(CliIo& io) {
    ALLOT_ASSIGN_OR_RETURN(const std::string text, read_input_file(file_, io));
    ALLOT_ASSIGN_OR_RETURN(const std::vector<WorkloadToSubmit> workloads,
                           workloads_in(text, file_, namespace_));
    ALLOT_ASSIGN_OR_RETURN(ApiClient client, open_api_client(server_));
    for (const WorkloadToSubmit& workload : workloads) {
      ALLOT_ASSIGN_OR_RETURN(
          ApiResponse response,
          client.post(workloads_path(workload.namespace_name), workload.yaml, kYamlContentType));
      ALLOT_ASSIGN_OR_RETURN(const nlohmann::json created, response.json());
      io.out << "workload/" << text_at(created, {"metadata", "name"}) << " created (uid "
             << text_at(created, {"metadata", "uid"}) << ")\n";
    }
    return {};
  }

  std::string file_;
  std::string namespace_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_submit_command() { return std::make_unique<SubmitCommand>(); }

}  // namespace allot::cli
