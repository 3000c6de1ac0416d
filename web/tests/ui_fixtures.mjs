// The fixtures of the dashboard's browser test (ui_test.mjs): the policy
// (a priced flavor, two teams in a cohort, a signal), budgets over a period
// around the test, the governance of the Contracts checks (an Organization,
// two contracts, a second cluster admin), role bindings and workloads.
export const SECRET = 'beta-secret-job';
export const PASSWORD = 'allot-web-test-pw-1';

export const POLICY = `apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: gpu}
spec: {price: {currency: USD, gpuHour: 2.40}}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: local}
spec: {backend: local, scheduling: {cycle: 1s}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: node}
spec: {cluster: local, flavor: gpu, count: 2, resources: {gpu: 4, cpu: 16, memory: 16Gi}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: org}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10, preemptionPolicy: PreemptLowerPriority, preemptionGracePeriod: 1s}
---
apiVersion: allot/v1
kind: Team
metadata: {name: alpha}
spec: {cohort: org, quota: [{flavor: gpu, resources: {gpu: {nominal: 4}}}]}
---
apiVersion: allot/v1
kind: Team
metadata: {name: beta}
spec: {cohort: org, quota: [{flavor: gpu, resources: {gpu: {nominal: 4, borrowingLimit: 2}}}]}
---
apiVersion: allot/v1
kind: Signal
metadata: {name: alpha-busy}
spec:
  expression: 'allot_team_usage{team="alpha",resource="gpu"} > 0'
  owner: platform-oncall
  response: {text: Alpha holds GPUs; check its jobs., runbook: 'https://runbooks.example.com/alpha-busy'}
`;
export const BETA_BUDGET = 'beta-budget-hidden';

// Budgets over a fixed period around the test (a forecast within it).
export function budgets() {
  const at = (ms) => new Date(Date.now() + ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const budget = (name, team) => `---
apiVersion: allot/v1
kind: Budget
metadata: {name: ${name}}
spec: {team: ${team}, period: {from: '${at(-60e3)}', to: '${at(86400e3)}'}, amount: 5, currency: USD, thresholds: [0.5, 1.0]}
`;
  return budget('alpha-budget', 'alpha') + budget(BETA_BUDGET, 'beta');
}

// The governance of the Contracts check: an Organization, two contracts the
// administrator requests (alpha-research for carla to approve, alpha-extra
// to stay Draft, watched by the Signal alpha-busy) and carla, a second
// cluster admin.
export function contract(name, extra = '') {
  return `---
apiVersion: allot/v1
kind: Contract
metadata: {name: ${name}}
spec:
  project: alpha
  owners: {business: ana, operations: bob, cost: vic}
  cluster: {name: local}
  approvedWorkloadKinds: [Job]
  dataClassification: public
  namespaces: [alpha]
  schedulingPolicyOwner: ana
  exceptionOwner: bob
  reviewInterval: 30d
${extra}`;
}
export const GOVERNANCE = `---
apiVersion: allot/v1
kind: Organization
metadata: {name: acme}
spec: {dataClassifications: [public, internal]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: carla-admin}
subjects: [{kind: User, name: carla}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: cluster-admin}
${contract('alpha-research')}${contract('alpha-extra', '  monitoringSignals: [alpha-busy]\n')}`;

export function binding(ns, name, user, role) {
  return `---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: ${name}, namespace: ${ns}}
subjects: [{kind: User, name: ${user}}]
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: ${role}}
`;
}

export function workload(name, gpus, script, count = 1) {
  return {
    apiVersion: 'allot/v1',
    kind: 'Workload',
    metadata: { name },
    spec: { priorityClass: 'low', podSets: [{ count, resources: { gpu: gpus } }], command: ['/bin/sh', '-c', script] },
  };
}
