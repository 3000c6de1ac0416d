#include "cli/verbs/export_command.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "api/kubernetes/kubernetes_render.h"
#include "api/kubernetes/workload_render.h"
#include "api/prometheus_rules.h"
#include "cli/output/json_yaml.h"
#include "cli/verbs/exit_codes.h"
#include "cli/verbs/kubernetes_policy_source.h"

namespace allot::cli {
namespace {

std::string file_name(size_t index, const KubernetesObject& object) {
  char number[24];  // "%03zu" of a size_t: up to 20 digits and the terminator
  std::snprintf(number, sizeof(number), "%03zu", index + 1);
  std::string kind = object.kind;
  std::transform(kind.begin(), kind.end(), kind.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  std::string name = std::string(number) + "-" + kind;
  if (!object.namespace_name.empty()) name += "-" + object.namespace_name;
  return name + "-" + object.name + ".yaml";
}

Status write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return Status(ErrorCode::kInternal, "cannot write " + path.string());
  return Status();
}

class ExportCommand final : public Command {
 public:
  void configure(CLI::App& subcommand) override {
    subcommand.add_option("what", what_, "kubernetes [workload NAME] | prometheus-rules")
        ->required()
        ->expected(1, 3);
    subcommand.add_option("-f,--filename", files_, "Policy manifests (repeatable; - for stdin)");
    subcommand.add_option("--out", out_dir_, "Write one file per object into DIR");
    subcommand.add_option("--kueue-api", kueue_api_, "Kueue API version: v1beta1 or v1beta2")
        ->check(CLI::IsMember({"v1beta1", "v1beta2"}));
    subcommand.add_option("--flavor", flavor_, "Names: plain or hyperpod (task governance)")
        ->check(CLI::IsMember({"plain", "hyperpod"}));
    subcommand.add_option("-n,--namespace", namespace_, "The workload's namespace");
    subcommand.add_option("--image", image_, "Container image of a rendered workload");
    add_server_flags(subcommand, server_);
  }

  int run(CliIo& io) override {
    if (what_[0] == "prometheus-rules" && what_.size() == 1) return export_rules(io);
    const bool workload = what_.size() == 3 && what_[1] == "workload";
    if (what_[0] != "kubernetes" || (what_.size() != 1 && !workload)) {
      return fail(io, invalid_argument(
                          "usage: allot export kubernetes [workload NAME] | prometheus-rules"));
    }
    Result<ManifestBundle> bundle =
        files_.empty() ? fetch_policy(server_) : read_policy_files(files_, io);
    if (!bundle.ok()) return fail(io, bundle.status());
    KubernetesRenderOptions options;
    options.kueue_api =
        kueue_api_ == "v1beta1" ? KueueApiVersion::kV1beta1 : KueueApiVersion::kV1beta2;
    options.naming = flavor_ == "hyperpod" ? KubernetesNaming::kHyperPod : KubernetesNaming::kPlain;
    if (workload) return export_workload(io, *bundle, what_[2], options);
    const KubernetesRendering rendering = render_kubernetes(bundle->policy, bundle->rbac, options);
    if (out_dir_.empty()) {
      io.out << format_mapping_report(rendering.notes, "# ");
      for (const KubernetesObject& object : rendering.objects) {
        io.out << "---\n" << json_to_yaml(object.manifest);
      }
      return kExitOk;
    }
    const Status written = write_files(rendering);
    if (!written.ok()) return fail(io, written);
    io.out << rendering.objects.size() << " objects and MAPPING.md written to " << out_dir_ << "\n";
    return kExitOk;
  }

 private:
  // The Signals (of the -f files, or allotd's) as Prometheus alerting rules.
  int export_rules(CliIo& io) {
    Result<std::vector<Signal>> signals = std::vector<Signal>{};
    if (files_.empty()) {
      signals = fetch_signals(server_);
    } else {
      Result<ManifestBundle> bundle = read_policy_files(files_, io);
      if (!bundle.ok()) return fail(io, bundle.status());
      signals = std::move(bundle->policy.signals);
    }
    if (!signals.ok()) return fail(io, signals.status());
    io.out << "# allot export prometheus-rules: " << signals->size()
           << " signals (docs/metrics.md, Signals)\n"
           << render_prometheus_rules(*signals);
    return kExitOk;
  }

  int export_workload(CliIo& io, const ManifestBundle& bundle, const std::string& name,
                      const KubernetesRenderOptions& options) {
    if (image_.empty()) return fail(io, invalid_argument("--image is required for a workload"));
    const Workload* found = nullptr;
    for (const Workload& w : bundle.workloads) {
      if (w.meta.name == name && (namespace_.empty() || w.meta.namespace_name == namespace_)) {
        found = &w;
        break;
      }
    }
    if (found == nullptr) return fail(io, not_found("no Workload " + name + " in the -f files"));
    Result<KubernetesObject> object = render_workload(*found, bundle.policy, image_, options);
    if (!object.ok()) {
      return fail(io, object.status().with_context("Workload/" + found->meta.namespace_name + "/" +
                                                   found->meta.name));
    }
    io.out << json_to_yaml(object->manifest);
    return kExitOk;
  }

  Status write_files(const KubernetesRendering& rendering) const {
    std::error_code error;
    std::filesystem::create_directories(out_dir_, error);
    if (error)
      return Status(ErrorCode::kInternal, "cannot create " + out_dir_ + ": " + error.message());
    for (size_t i = 0; i < rendering.objects.size(); ++i) {
      const KubernetesObject& object = rendering.objects[i];
      ALLOT_RETURN_IF_ERROR(write_file(std::filesystem::path(out_dir_) / file_name(i, object),
                                       json_to_yaml(object.manifest)));
    }
    return write_file(std::filesystem::path(out_dir_) / "MAPPING.md",
                      format_mapping_report(rendering.notes, ""));
  }

  static int fail(CliIo& io, const Status& status) { return report_error(io, status); }

  std::vector<std::string> what_;
  std::vector<std::string> files_;
  std::string out_dir_;
  std::string kueue_api_ = "v1beta2";
  std::string flavor_ = "plain";
  std::string namespace_;
  std::string image_;
  ServerFlags server_;
};

}  // namespace

std::unique_ptr<Command> make_export_command() { return std::make_unique<ExportCommand>(); }

}  // namespace allot::cli
