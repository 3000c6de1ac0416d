// The routes of allotd's REST API (docs/api.md), one function per group.
//
// Contract: each registers its handlers on the server; handlers translate
// HTTP to ControlPlane calls and back, and never throw (errors are answered
// with send_error()).
#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "server/http/router.h"
#include "service/audit/audit_log.h"
#include "service/control/control_plane.h"

namespace allot::server {

void add_health_routes(Router& http, const ControlPlane& plane);
void add_policy_routes(Router& http, ControlPlane& plane);
void add_node_routes(Router& http, ControlPlane& plane);
// GET /api/v1/reports/usage: the metering ledger's usage report; GET
// /api/v1/reports/usage/backend: the same GPU time per team beside the
// backend's own accounting (Slurm's sreport), whole hours (docs/cost.md).
void add_report_routes(Router& http, ControlPlane& plane);
// GET /api/v1/top/stats: per team wait percentiles, fair share, usage over time (docs/api.md).
void add_team_stats_routes(Router& http, ControlPlane& plane);
// GET /api/v1/top/hardware: GPUs allocated, free, unhealthy over time (docs/api.md).
void add_hardware_stats_routes(Router& http, ControlPlane& plane);
void add_activity_stats_routes(Router& http, ControlPlane& plane);
// The missing-data periods as the API writes them: [{"from", "to"}].
nlohmann::json missing_data_json(const std::vector<Period>& missing);
// GET /metrics: Prometheus' text format of what the caller may see (docs/metrics.md).
void add_metrics_routes(Router& http, ControlPlane& plane);
void add_workload_routes(Router& http, ControlPlane& plane);
// POST /api/v1/contracts/{name}/{approve|activate|review|renew|revoke}.
void add_contract_routes(Router& http, ControlPlane& plane);
// Sessions (login), whoami, access reviews (can-i), API token rotation.
void add_access_routes(Router& http, ControlPlane& plane);
// Service accounts of the teams' namespaces and their API tokens.
void add_service_account_routes(Router& http, ControlPlane& plane);
// GET /api/v1/audit (the audit log's records, filtered; RBAC "list
// auditevents", cluster-admin by default) and GET /api/v1/audit/key (its
// public key, to any authenticated caller); 404 `audit_disabled` without one.
void add_audit_routes(Router& http, const AccessControl& access, audit::AuditLog* audit);
// GET /api/v1/evidence?project=P[&from&to]: a project's evidence report,
// signed with the audit log's key (docs/governance.md); 404 audit_disabled
// without an audit log.
void add_evidence_routes(Router& http, ControlPlane& plane, audit::AuditLog* audit);
// GET /api/v1/watch: what changes, as server-sent events (watch_routes.cc).
void add_watch_routes(Router& http, ChangeFeed& feed);
// GET /api/v1/authconfig: how to log in (no authentication).
void add_auth_config_routes(Router& http, const AccessControl& access);

}  // namespace allot::server
