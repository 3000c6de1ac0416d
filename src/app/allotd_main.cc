// allotd: the allot server. The only place where allotd's implementations are
// chosen (DESIGN.md section 10): the SQLite, PostgreSQL or in-memory store,
// the local executor and health checker or Slurm's (--backend slurm:
// app/slurm_backend.h), the system clock, spdlog's Logger
// (on stderr), the OIDC issuer's verifier (app/oidc_login.h).
#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>
#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include "app/data_dir_lock.h"
#include "app/exit_relay.h"
#include "app/host_accounts.h"
#include "app/leadership.h"
#include "app/oidc_login.h"
#include "app/signal_stop.h"
#include "app/slurm_backend.h"
#include "app/spdlog_logger.h"
#include "app/ui_files.h"
#include "app/usage_reconciler.h"
#include "backends/local/atomic_file.h"
#include "backends/local/data_layout.h"
#include "backends/local/health_checker.h"
#include "backends/local/local_executor.h"
#include "base/clock.h"
#include "base/logger.h"
#include "base/time.h"
#include "server/api_server.h"
#include "server/safe_mode_server.h"
#include "server/ui_routes.h"
#include "service/audit/audit_key.h"
#include "service/audit/audit_log.h"
#include "service/audit/outbox_store.h"
#include "service/control/control_plane.h"
#include "service/control/http_webhook_sender.h"
#include "store/memory_store.h"
#include "store/postgres/postgres_store.h"
#include "store/sqlite/sqlite_store.h"

namespace {

struct Flags {
  std::string listen = "127.0.0.1:7800";
  std::string data_dir;
  std::string health_command;
  std::string health_interval = "10s";
  std::string health_timeout = "10s";
  bool no_cgroups = false;
  bool remount_proc_hidepid = false;
  int64_t max_pids_per_pod = 16384;
  std::string nvml_library = allot::local::kNvmlLibrary;
  std::string gpu_sample_interval = "10s";
  bool memory_store = false;
  bool remove_host_accounts = false;
  std::string store = "sqlite";
  std::string leader_name;
  size_t threads = 64;
  std::string tls_cert;
  std::string tls_key;
  std::string ui_dir;        // empty: the ui folder beside the binary, when there is one
  std::string external_url;  // empty: the request's Host (docs/web.md)
  double rate_limit = 0;
  double rate_burst = 0;
  std::string log_level = "info";
  allot::app::OidcFlags oidc;
  std::string scim_token_file;
  std::string audit = "on";
  std::string metering = "on";
  std::string audit_dir;
  std::string audit_checkpoint_dir;
  std::string audit_key_file;
  uint64_t audit_max_file_bytes = 64ull << 20;
  uint64_t audit_checkpoint_records = 1000;
  std::string audit_checkpoint_interval = "10s";
  std::string backend = "local";
  allot::app::SlurmFlags slurm;
};

// The audit log (docs/governance.md), or null with --audit off. Its key is
// made at first start; the public key is logged, the secret never.
allot::Result<std::unique_ptr<allot::audit::AuditLog>> open_audit(const Flags& flags,
                                                                  const std::string& data_dir,
                                                                  const allot::Clock& clock,
                                                                  allot::Logger& logger) {
  if (flags.audit == "off") {
    logger.warn("the audit log is off (--audit off): nothing is recorded");
    return std::unique_ptr<allot::audit::AuditLog>();
  }
  if (flags.audit != "on") return allot::invalid_argument("--audit is on or off");
  ALLOT_ASSIGN_OR_RETURN(const allot::Duration interval,
                         allot::parse_duration(flags.audit_checkpoint_interval));
  allot::audit::AuditLogOptions options;
  options.dir = flags.audit_dir.empty() ? data_dir + "/audit" : flags.audit_dir;
  options.checkpoint_dir = flags.audit_checkpoint_dir.empty() ? data_dir + "/audit-checkpoints"
                                                              : flags.audit_checkpoint_dir;
  options.max_file_bytes = flags.audit_max_file_bytes;
  options.checkpoint_records = flags.audit_checkpoint_records;
  options.checkpoint_interval = interval;
  const std::string key_file =
      flags.audit_key_file.empty() ? data_dir + "/audit-key" : flags.audit_key_file;
  ALLOT_ASSIGN_OR_RETURN(allot::identity::SigningKey key,
                         allot::audit::load_or_create_audit_key(key_file));
  ALLOT_ASSIGN_OR_RETURN(auto log,
                         allot::audit::AuditLog::open(options, std::move(key), clock, logger));
  logger.info("audit log", {{"dir", options.dir},
                            {"checkpoints", options.checkpoint_dir},
                            {"public_key", log->public_key_hex()},
                            {"public_key_file", key_file + ".pub"}});
  log->start_timer();
  // Requests' records (durable in the store's outbox rows) are written to the
  // files 5 ms at a time: one write() for the answers of those 5 ms.
  log->start_writer(allot::Duration::millis(5));
  return log;
}

int fail(const std::string& what) {
  std::cerr << "allotd: " << what << "\n";
  return 1;
}

allot::Result<std::pair<std::string, int>> parse_listen(const std::string& listen) {
  const size_t colon = listen.rfind(':');
  if (colon == std::string::npos) {
    return allot::invalid_argument("--listen wants HOST:PORT, got '" + listen + "'", "--listen");
  }
  try {
    const int port = std::stoi(listen.substr(colon + 1));
    if (port < 0 || port > 65535) throw std::out_of_range("port");
    return std::make_pair(listen.substr(0, colon), port);
  } catch (const std::exception&) {
    return allot::invalid_argument("--listen port must be 0..65535, got '" + listen + "'",
                                   "--listen");
  }
}

bool is_postgres(const std::string& store) {
  return store.rfind("postgres://", 0) == 0 || store.rfind("postgresql://", 0) == 0 ||
         store.find('=') != std::string::npos;
}

// `leader_term` is the PostgreSQL store's fencing term (0 for the others).
allot::Result<std::unique_ptr<allot::Store>> open_store(const Flags& flags,
                                                        const std::string& data_dir,
                                                        int64_t leader_term) {
  if (flags.memory_store || flags.store == "memory") {
    return std::unique_ptr<allot::Store>(new allot::MemoryStore());
  }
  if (is_postgres(flags.store)) {
    ALLOT_ASSIGN_OR_RETURN(auto store, allot::PostgresStore::open(flags.store, leader_term));
    return std::unique_ptr<allot::Store>(std::move(store));
  }
  if (flags.store != "sqlite") {
    return allot::invalid_argument(
        "--store wants sqlite, memory or a PostgreSQL URI (postgres://...), got '" + flags.store +
            "'",
        "--store");
  }
  ALLOT_ASSIGN_OR_RETURN(auto store, allot::SqliteStore::open(data_dir + "/allot.db"));
  return std::unique_ptr<allot::Store>(std::move(store));
}

std::string default_leader_name(const std::string& listen) {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return std::string(host) + "/" + listen + "/pid " + std::to_string(::getpid());
}

// The first line of stdout, which tools/allotd_child.h waits for: not a log entry.
void announce(const std::string& host, int port, bool tls = false) {
  std::cout << "allotd listening on " << (tls ? "https://" : "http://") << host << ":" << port
            << std::endl;
}

// Idle connections cost allotd no thread, only a descriptor each: take the
// hard limit of open files (systemd and most hosts allow far more than the
// soft 1,024), so that thousands of connected clients are served.
void raise_open_file_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max) return;
  limit.rlim_cur = limit.rlim_max;
  setrlimit(RLIMIT_NOFILE, &limit);
}

// SCIM on, with the token of --scim-token-file (its whole content, without
// the line end): the plane keeps only its hash, and the text read is wiped.
allot::Status enable_scim(const std::string& path, allot::ScimService& scim) {
  std::ifstream file(path, std::ios::binary);
  if (!file) return allot::invalid_argument("cannot read " + path, "--scim-token-file");
  std::string token((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r')) token.pop_back();
  return scim.enable(std::move(token));
}

// The web dashboard's files: --ui-dir, else the build's folder beside the
// binary when it is there; without either, /ui says it is not installed.
allot::Result<std::shared_ptr<const allot::server::UiAssets>> ui_of(const Flags& flags,
                                                                    allot::Logger& logger) {
  std::filesystem::path dir = flags.ui_dir;
  if (dir.empty()) {
    dir = allot::app::default_ui_dir();
    if (dir.empty() || !std::filesystem::exists(dir / "index.html")) {
      logger.info("no web UI beside the binary: /ui is off", {{"dir", dir.string()}});
      return std::shared_ptr<const allot::server::UiAssets>();
    }
  }
  return allot::app::load_ui_files(dir);
}

int serve(const Flags& flags, allot::Logger& logger) {
  auto listen = parse_listen(flags.listen);
  if (!listen.ok()) return fail(listen.status().to_string());
  const auto interval = allot::parse_duration(flags.health_interval);
  const auto timeout = allot::parse_duration(flags.health_timeout);
  if (!interval.ok() || !timeout.ok()) return fail("bad --health-interval or --health-timeout");
  const auto gpu_sample_interval = allot::parse_duration(flags.gpu_sample_interval);
  if (!gpu_sample_interval.ok()) return fail("bad --gpu-sample-interval");
  allot::app::SignalStop signals;
  // With a shared PostgreSQL store, only the leader serves: until this one
  // leads, it answers as a standby and touches neither the store nor the data folder.
  std::optional<allot::app::Leadership> leadership;
  bool announced = false;
  if (is_postgres(flags.store) && !flags.memory_store) {
    const allot::app::StandbyConfig standby{
        flags.store,
        flags.leader_name.empty() ? default_leader_name(flags.listen) : flags.leader_name,
        listen->first, listen->second};
    auto led = allot::app::stand_by_until_leader(standby, signals, logger);
    if (!led.ok()) {
      if (signals.stopping()) return 0;
      return fail(led.status().to_string());
    }
    leadership.emplace(std::move(led).value());
    listen->second = leadership->port;
    announced = true;
  }
  // The data folder is made (or repaired) before the store opens in it, with
  // explicit modes whatever the umask (backends/local/data_layout.h).
  const allot::local::DataLayout layout(flags.data_dir, ::geteuid() == 0);
  if (const allot::Status made = layout.prepare_root(); !made.ok()) {
    return fail("cannot prepare --data-dir " + flags.data_dir + ": " + made.to_string());
  }
  const std::string& data_dir = layout.root();
  // One allotd per folder, but a PostgreSQL leader's standbys (app/data_dir_lock.h).
  std::optional<allot::app::DataDirLock> folder_lock;
  if (!leadership) {
    auto locked = allot::app::DataDirLock::acquire(data_dir);
    if (!locked.ok()) return fail(locked.status().message());
    folder_lock.emplace(std::move(locked).value());
  }

  auto store = open_store(flags, data_dir, leadership ? leadership->lock.term() : 0);
  if (!store.ok()) return fail(store.status().to_string());
  std::optional<allot::app::LeadershipWatch> watch;
  if (leadership) watch.emplace(std::move(leadership->lock), std::chrono::seconds(1), logger);
  allot::app::ExitRelay relay;
  allot::SystemClock clock;
  allot::ControlPlaneOptions options;
  options.health_interval = *interval;
  if (flags.metering != "on" && flags.metering != "off") return fail("--metering is on or off");
  options.metering = flags.metering == "on";
  if (!options.metering) logger.warn("metering is off (--metering off): no usage is recorded");
  // The Signals' webhooks (docs/metrics.md, Signals) over HTTP.
  allot::HttpWebhookSender webhook_sender;
  options.webhook_sender = &webhook_sender;
  // The local backend (the default) or Slurm's (docs/slurm.md).
  std::unique_ptr<allot::local::LocalExecutor> local_executor;
  std::unique_ptr<allot::local::LocalHealthChecker> local_health;
  std::unique_ptr<allot::app::SlurmBackend> slurm;
  allot::Executor* executor = nullptr;
  allot::NodeHealthChecker* health = nullptr;
  if (flags.backend == "slurm") {
    auto made = allot::app::SlurmBackend::make(flags.slurm, data_dir, relay, clock, logger);
    if (!made.ok()) return fail("--backend slurm: " + made.status().to_string());
    slurm = std::move(made).value();
    executor = &slurm->executor();
    health = &slurm->health();
    options.backend = slurm->ports();
    options.scheduler.turnover_handovers = flags.slurm.turnover_handovers == "on";
    logger.info("Slurm backend", {{"slurm_conf", flags.slurm.conf}, {"poll", flags.slurm.poll}});
  } else {
    allot::local::LocalExecutorOptions executor_options;
    executor_options.data_dir = data_dir;
    executor_options.sink = &relay;
    executor_options.use_cgroups = !flags.no_cgroups;
    executor_options.remount_proc_hidepid = flags.remount_proc_hidepid;
    executor_options.max_pids_per_pod = flags.max_pids_per_pod;
    executor_options.nvml_library = flags.nvml_library;
    executor_options.gpu_sample_interval = *gpu_sample_interval;
    executor_options.logger = &logger;
    local_executor = std::make_unique<allot::local::LocalExecutor>(executor_options);
    local_health = std::make_unique<allot::local::LocalHealthChecker>(
        allot::local::LocalHealthCheckerOptions{flags.health_command, *timeout});
    executor = local_executor.get();
    health = local_health.get();
  }
  std::unique_ptr<allot::app::OidcLogin> oidc;
  if (!flags.oidc.issuer.empty() || !flags.oidc.client_id.empty()) {
    auto made = allot::app::OidcLogin::make(flags.oidc);
    if (!made.ok()) return fail(made.status().to_string());
    oidc = std::move(made).value();
    options.id_tokens = &oidc->authenticator();
    logger.info("OIDC login", {{"issuer", flags.oidc.issuer}, {"client_id", flags.oidc.client_id}});
  }
  auto audit = open_audit(flags, data_dir, clock, logger);
  if (!audit.ok()) return fail("audit log: " + audit.status().to_string());
  if (*audit) {
    options.audit = [log = audit->get(), &logger](allot::governance::AuditEvent event) {
      if (const allot::Status recorded = log->record_async(std::move(event)); !recorded.ok()) {
        logger.error("audit log: a control-plane record failed", {{"error", recorded.message()}});
      }
    };
  }
  // With the audit log on a durable store, a write's record rides in the
  // write's own commit (service/audit/audit_outbox.h): one sync, not two.
  std::unique_ptr<allot::audit::AuditOutbox> audit_outbox;
  std::unique_ptr<allot::audit::OutboxStore> outbox_store;
  allot::Store* plane_store = store->get();
  if (*audit && !flags.memory_store && flags.store != "memory") {
    audit_outbox = std::make_unique<allot::audit::AuditOutbox>(**audit, logger);
    outbox_store = std::make_unique<allot::audit::OutboxStore>(**store, *audit_outbox);
    plane_store = outbox_store.get();
  }
  allot::ControlPlane plane(*plane_store, *executor, health, clock, logger, options);
  relay.set_target(&plane);
  const allot::app::RelayDetach detach{relay};
  if (const allot::Status started = plane.start(); !started.ok()) {
    // Never a crash loop: stay up and say why (server/safe_mode_server.h).
    logger.error("the stored state cannot be loaded: serving in safe mode",
                 {{"reason", started.to_string()}, {"data_dir", data_dir}});
    allot::server::SafeModeServer safe(started.to_string(), 4);
    const auto port = safe.bind(listen->first, listen->second);
    if (!port.ok()) return fail(port.status().to_string());
    signals.on_stop([&safe] { safe.stop(); });
    if (!announced) announce(listen->first, *port);
    safe.serve();
    return 0;
  }
  // Deny by default, with a first administrator (kubeadm's admin.conf):
  // on first start its token is written, once, for the operator to use.
  const allot::Result<std::optional<std::string>> admin_token = plane.access().bootstrap_admin();
  if (!admin_token.ok())
    return fail("cannot make the first administrator: " + admin_token.status().to_string());
  if (*admin_token) {
    const std::string path = data_dir + "/admin-token";
    if (const allot::Status written =
            allot::local::write_file_atomically(path, **admin_token + "\n", 0600);
        !written.ok()) {
      return fail("cannot write " + path + ": " + written.to_string());
    }
    logger.info("first start: the administrator's API token is in the data folder",
                {{"file", path}, {"user", "admin"}});
  }
  if (!flags.scim_token_file.empty()) {
    if (const allot::Status enabled = enable_scim(flags.scim_token_file, plane.scim());
        !enabled.ok()) {
      return fail("--scim-token-file " + flags.scim_token_file + ": " + enabled.to_string());
    }
    logger.info("SCIM is served at /scim/v2", {{"token_file", flags.scim_token_file}});
  }
  // Metering reconciled with Slurm's own accounting (docs/cost.md).
  std::unique_ptr<allot::app::UsageReconciler> reconciler;
  if (slurm) {
    const allot::Result<allot::Duration> every = allot::parse_duration(flags.slurm.reconcile);
    if (!every.ok() || *every <= allot::Duration()) {
      return fail("--slurm-reconcile must be a positive duration");
    }
    reconciler = std::make_unique<allot::app::UsageReconciler>(plane, *every, logger);
  }
  allot::server::ApiServerOptions server_options;
  server_options.http.worker_threads = flags.threads;
  server_options.http.tls_cert_file = flags.tls_cert;
  server_options.http.tls_key_file = flags.tls_key;
  server_options.rate_per_second = flags.rate_limit;
  server_options.rate_burst = flags.rate_burst > 0 ? flags.rate_burst : flags.rate_limit;
  allot::Result<std::shared_ptr<const allot::server::UiAssets>> ui = ui_of(flags, logger);
  if (!ui.ok()) return fail(ui.status().to_string());
  server_options.ui = std::move(ui).value();
  if (!flags.external_url.empty()) {
    allot::Result<std::string> external =
        allot::server::normalized_external_url(flags.external_url);
    if (!external.ok()) return fail(external.status().message());
    server_options.external_url = std::move(external).value();
  }
  server_options.audit = audit->get();
  server_options.audit_outbox = audit_outbox.get();
  allot::server::ApiServer server(plane, server_options);
  const auto port = server.bind(listen->first, listen->second);
  if (!port.ok()) return fail(port.status().to_string());
  signals.on_stop([&server] { server.stop(); });
  if (!announced) announce(listen->first, *port, !flags.tls_cert.empty());
  logger.info("allotd started", {{"data_dir", data_dir}, {"logs", data_dir + "/logs"}});
  server.serve();
  logger.info("allotd stopping");
  reconciler.reset();
  plane.shutdown();
  if (*audit) {
    if (const allot::Status closed = (*audit)->close(); !closed.ok()) {
      logger.error("audit log: the last checkpoint failed", {{"error", closed.message()}});
    }
  }
  logger.info("allotd stopped");
  return 0;
}

void add_oidc_flags(CLI::App& app, allot::app::OidcFlags& oidc) {
  app.add_option("--oidc-issuer", oidc.issuer,
                 "OIDC issuer URL (exactly the tokens' iss): ID tokens log in (POST "
                 "/api/v1/sessions, allot login) and are accepted as bearer tokens (docs/oidc.md)");
  app.add_option("--oidc-client-id", oidc.client_id,
                 "the OIDC client (application) id: the tokens' audience, and the client of "
                 "allot login's device flow");
  app.add_option("--oidc-username-claim", oidc.username_claim, "the claim that names the user")
      ->capture_default_str();
  app.add_option("--oidc-groups-claim", oidc.groups_claim,
                 "the claim that lists the user's groups (absent: the SCIM directory's only)")
      ->capture_default_str();
  app.add_option("--oidc-scopes", oidc.scopes,
                 "scopes allot login asks for (add groups for Okta's groups claim)")
      ->capture_default_str();
  app.add_option("--oidc-ca-file", oidc.ca_file,
                 "PEM CA certificates for the issuer's TLS (default: the system's)");
  app.add_option("--oidc-jwks-min-refetch", oidc.jwks_min_refetch,
                 "least time between fetches of the issuer's keys caused by unknown key ids")
      ->capture_default_str();
}

void add_audit_flags(CLI::App& app, Flags& flags) {
  app.add_option("--metering", flags.metering,
                 "the metering ledger (docs/cost.md): on, or off (for A/B measurements of its "
                 "cost only: no usage is then recorded)")
      ->capture_default_str();
  app.add_option("--audit", flags.audit,
                 "the tamper-evident audit log (docs/governance.md): on, or off (for A/B "
                 "measurements only: nothing is then recorded)")
      ->capture_default_str();
  app.add_option("--audit-dir", flags.audit_dir, "the audit log's folder (default DATA/audit)");
  app.add_option("--audit-checkpoint-dir", flags.audit_checkpoint_dir,
                 "where signed checkpoints go (default DATA/audit-checkpoints)");
  app.add_option("--audit-key-file", flags.audit_key_file,
                 "the Ed25519 checkpoint key, made at first start, mode 0600 (default "
                 "DATA/audit-key; the public key is FILE.pub)");
  app.add_option("--audit-max-file-bytes", flags.audit_max_file_bytes,
                 "an audit file is rotated before it grows past this")
      ->capture_default_str();
  app.add_option("--audit-checkpoint-records", flags.audit_checkpoint_records,
                 "a checkpoint every N records (at most 1000)")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  app.add_option("--audit-checkpoint-interval", flags.audit_checkpoint_interval,
                 "a checkpoint at least this often while records are added (at most 10s)")
      ->capture_default_str();
}

}  // namespace

int main(int argc, char** argv) {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  raise_open_file_limit();

  Flags flags;
  CLI::App app("allotd: the allot server (REST API, admission loop, local executor)", "allotd");
  app.add_option("--listen", flags.listen, "HOST:PORT to serve on; port 0 picks a free port")
      ->capture_default_str();
  app.add_option("--data-dir", flags.data_dir, "where the database, logs and team folders live")
      ->required();
  app.add_option("--store", flags.store,
                 "where state is kept: sqlite (DATA/allot.db), memory (tests; nothing survives "
                 "a restart) or a PostgreSQL URI (postgres://USER@HOST/DB), which several "
                 "allotd may share: one leads, the others stand by and take over")
      ->capture_default_str();
  app.add_option("--leader-name", flags.leader_name,
                 "this allotd's name in the PostgreSQL store's leader record (default: "
                 "HOST/LISTEN/pid PID)");
  app.add_flag("--memory-store", flags.memory_store, "the same as --store memory");
  app.add_flag("--remove-host-accounts", flags.remove_host_accounts,
               "remove the Unix users and groups the local backend made for --data-dir's teams "
               "and users, then exit (with allotd stopped; docs/local.md)");
  app.add_option("--health-check", flags.health_command,
                 "command run per node (env ALLOT_NODE); a non-zero exit marks it unhealthy");
  app.add_option("--health-interval", flags.health_interval, "time between health checks")
      ->capture_default_str();
  app.add_option("--health-timeout", flags.health_timeout, "limit of one health check")
      ->capture_default_str();
  app.add_flag("--no-cgroups", flags.no_cgroups,
               "run pods without cgroups (no limits; their processes are found through /proc)");
  app.add_option("--max-pids-per-pod", flags.max_pids_per_pod,
                 "pids.max of each pod, processes and threads (0: no limit)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app.add_option("--nvml-library", flags.nvml_library,
                 "the NVML library the local backend reads GPU utilisation through")
      ->capture_default_str();
  app.add_option("--gpu-sample-interval", flags.gpu_sample_interval,
                 "time between two NVML readings of the GPUs (0s: none)")
      ->capture_default_str();
  app.add_flag("--remount-proc-hidepid", flags.remount_proc_hidepid,
               "remount /proc with hidepid=invisible at start when it shows every process to "
               "every user (changes the host's /proc)");
  app.add_option("--threads", flags.threads, "HTTP worker threads")->capture_default_str();
  app.add_option("--tls-cert", flags.tls_cert,
                 "serve HTTPS: PEM file of the certificate chain (with --tls-key)");
  app.add_option("--tls-key", flags.tls_key, "PEM file of the certificate's private key");
  app.add_option("--ui-dir", flags.ui_dir,
                 "the web dashboard's built files, served at /ui (default: the folder ui beside "
                 "this binary, when it is there; docs/web.md)");
  app.add_option("--external-url", flags.external_url,
                 "the address browsers reach allotd at behind a proxy that terminates TLS, "
                 "https://HOST[:PORT]: the OIDC login's redirect URI, and Secure cookies "
                 "(docs/web.md)");
  app.add_option("--rate-limit", flags.rate_limit,
                 "requests a second per client address (0: no limit; /healthz and /readyz are "
                 "never limited)")
      ->check(CLI::Range(0.0, 1e9))
      ->capture_default_str();
  app.add_option("--rate-burst", flags.rate_burst,
                 "requests a client may send at once above --rate-limit (default: one second's)")
      ->check(CLI::Range(0.0, 1e9));
  app.add_option("--log-level", flags.log_level, "debug, info, warn or error (logs go to stderr)")
      ->capture_default_str();
  add_oidc_flags(app, flags.oidc);
  app.add_option("--backend", flags.backend,
                 "where pods run: local (processes on this machine) or slurm (one Slurm job per "
                 "workload; the Cluster must say backend: slurm; docs/slurm.md)")
      ->check(CLI::IsMember({"local", "slurm"}))
      ->capture_default_str();
  allot::app::add_slurm_flags(app, flags.slurm);
  app.add_option("--scim-token-file", flags.scim_token_file,
                 "serve SCIM 2.0 at /scim/v2 (Entra ID, Okta provisioning) to clients that bear "
                 "the token in FILE (its whole content, 16 bytes or more); without it /scim/v2 "
                 "answers 404");
  add_audit_flags(app, flags);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (flags.remove_host_accounts) return allot::app::remove_host_accounts(flags.data_dir);
  // Slurm's node states are polled (one scontrol call): sooner than a check command.
  if (flags.backend == "slurm" && app.count("--health-interval") == 0) flags.health_interval = "2s";
  const allot::Result<allot::LogLevel> level = allot::parse_log_level(flags.log_level);
  if (!level.ok()) return fail(level.status().to_string());
  const auto logger = allot::app::SpdlogLogger::to_stderr("allotd", *level);
  return serve(flags, *logger);
}
