// The resources and verbs allot authorizes, as RBAC rules name them.
//
// Contract: constant tables; pure. allot's own resources are in the API
// group "allot" (the group of apiVersion allot/v1); the RBAC objects are in
// "rbac.authorization.k8s.io", so that Kubernetes RBAC files mean the same
// here. Subresources are rows of their own ("workloads/logs"). Verbs are
// Kubernetes' plus `cancel` (stop a workload and keep its record); `bind`
// and `escalate` only matter on roles (escalation.h). A rule may name
// resources and verbs outside these tables: they match literally.
#pragma once

#include <span>
#include <string_view>

namespace allot {

inline constexpr std::string_view kAllotApiGroup = "allot";
inline constexpr std::string_view kRbacApiGroup = "rbac.authorization.k8s.io";

struct ResourceInfo {
  std::string_view name;  // "workloads", "workloads/logs"
  std::string_view api_group;
  bool namespaced = false;
};

std::span<const ResourceInfo> allot_resources();

// The API group of a resource: kRbacApiGroup for roles, clusterroles,
// rolebindings and clusterrolebindings (and their subresources),
// kAllotApiGroup for everything else.
std::string_view api_group_of(std::string_view resource);

// get, list, watch, create, update, patch, delete, deletecollection, cancel,
// bind, escalate.
std::span<const std::string_view> allot_verbs();

}  // namespace allot
