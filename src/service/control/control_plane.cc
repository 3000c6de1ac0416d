#include "service/control/control_plane.h"

#include "service/control/recovery.h"

namespace allot {

ControlPlane::ControlPlane(Store& store, Executor& executor, NodeHealthChecker* health,
                           const Clock& clock, Logger& logger, const ControlPlaneOptions& options)
    : clock_(clock),
      logger_(logger),
      run_loop_thread_(options.run_loop_thread),
      backend_(options.backend),
      scim_(store, clock, scim_ids_),
      local_login_(scim_, clock),
      access_(store, clock, options.id_tokens),
      changes_(access_),
      actions_(executor, signal_),
      cluster_(store, logger, access_, actions_),
      health_(cluster_, health, clock, logger, options.health_interval),
      checkpoints_(cluster_, executor, clock, options.checkpoint_scan_interval),
      policies_(cluster_, signal_, clock),
      contracts_(cluster_, policies_, signal_, clock),
      // A policy-exception service, not a C++ exception: nothing to throw.
      // NOLINTNEXTLINE(bugprone-throw-keyword-missing)
      exceptions_(cluster_, policies_, signal_, clock),
      workloads_(cluster_, signal_, actions_, clock),
      nodes_(cluster_, signal_, clock),
      reports_(cluster_, executor, clock),
      team_stats_(cluster_, clock),
      hardware_stats_(cluster_, clock),
      activity_stats_(cluster_, clock),
      evidence_(cluster_, reports_, clock),
      metrics_(cluster_, reports_, activity_, clock),
      budgets_(cluster_, reports_, clock, logger),
      webhooks_(options.webhook_sender, clock, logger),
      signals_(cluster_, metrics_, webhooks_, clock, logger, options.signal_sample_interval),
      service_accounts_(cluster_, access_, clock),
      loop_(cluster_, signal_, actions_, health_, clock, options.idle_cycle,
            options.after_planning) {
  access_.attach_directory(&scim_.directory_view(), &local_login_);
  policies_.set_namespace_contents(&service_accounts_);
  policies_.set_backend(&backend_);
  policies_.set_directory(&scim_.directory_view());
  nodes_.set_inventory(options.backend.inventory);
  loop_.watch_checkpoints(&checkpoints_);
  cluster_.set_audit(options.audit);
  cluster_.set_feed(&changes_);
  cluster_.set_metering(options.metering);
  cluster_.set_scheduler_options(options.scheduler);
  loop_.record_into(&activity_);
  metrics_.read_gpus_from(&executor);
  loop_.watch_budgets(&budgets_);
  loop_.watch_signals(&signals_);
}

ControlPlane::~ControlPlane() { shutdown(); }

Status ControlPlane::start() {
  std::vector<ObjectRecord> access_objects;
  ALLOT_RETURN_IF_ERROR(load_state(cluster_, access_objects));
  ALLOT_RETURN_IF_ERROR(access_.load(access_objects));
  ALLOT_RETURN_IF_ERROR(service_accounts_.load(access_objects));
  ALLOT_RETURN_IF_ERROR(scim_.load(access_objects));
  ALLOT_RETURN_IF_ERROR(requeue_interrupted(cluster_, clock_.now()));
  if (const Status carried = policies_.carry_stored_policy(); !carried.ok()) {
    logger_.warn("the stored policy could not be carried into the backend",
                 {{"reason", carried.to_string()}});
  }
  health_.start(clock_.now());
  checkpoints_.start(clock_.now());
  signals_.resume_deliveries();
  ready_ = true;
  if (run_loop_thread_) {
    webhooks_.start();
    loop_.start();
  }
  return {};
}

void ControlPlane::shutdown() {
  loop_.stop();
  webhooks_.stop();
  ready_ = false;
}

}  // namespace allot
