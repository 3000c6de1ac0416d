// Overview: GPUs total, allocated, idle and unhealthy (nodes, when the
// caller may list them), pending and running workloads and borrowing per
// team (top), signals firing and spend against budgets (where the caller
// may read them), GPU-hours over time.
import { api } from '../api.js';
import { TIME_BOUND_MS, useLive } from '../live.js';
import { count, gpus, money, percent, quantity } from '../format.js';
import { Empty, Loading, Problem, Stat } from './common.jsx';
import { UsageChart } from './usage_chart.jsx';

async function loadOverview() {
  const [top, nodes, signals, budgets] = await Promise.allSettled([
    api.get('/api/v1/top'),
    api.optional('/api/v1/nodes?limit=10000'),
    api.optional('/api/v1/signals'),
    api.optional('/api/v1/budgets'),
  ]);
  if (top.status === 'rejected') throw top.reason;
  const value = (settled) => (settled.status === 'fulfilled' ? settled.value : null);
  return {
    top: top.value,
    nodes: value(nodes),
    nodesError: nodes.status === 'rejected' ? nodes.reason : null,
    signals: value(signals),
    budgets: value(budgets),
  };
}

// Spend this period against the budgets the caller may read, per currency.
export function budgetTotals(budgets) {
  const totals = new Map();
  for (const b of budgets.items || []) {
    const currency = b.spec.currency || '';
    const t = totals.get(currency) || { currency, spent: 0, amount: 0 };
    t.spent += Number(b.status && b.status.spent) || 0;
    t.amount += Number(b.spec.amount) || 0;
    totals.set(currency, t);
  }
  return [...totals.values()];
}

function Governance({ data }) {
  const signals = data.signals ? data.signals.items || [] : null;
  const firing = signals ? signals.filter((s) => s.status && s.status.state === 'firing').length : 0;
  return (
    <>
      {signals ? (
        <Stat label="signals firing" value={count(firing)} hint={<a href="#/signals">{signals.length} signals</a>} />
      ) : null}
      {data.budgets
        ? budgetTotals(data.budgets).map((t) => (
            <Stat
              label="spent this period"
              value={money(t.spent, t.currency)}
              hint={<a href="#/costs">{`of ${money(t.amount, t.currency)} budgeted (${percent(t.amount ? t.spent / t.amount : 0)})`}</a>}
            />
          ))
        : null}
    </>
  );
}

export function gpuTotals(nodes) {
  const totals = { total: 0, allocated: 0, unhealthy: 0 };
  for (const node of nodes.items || []) {
    const capacity = quantity(node.capacity && node.capacity.gpu);
    totals.total += capacity;
    totals.allocated += quantity(node.allocated && node.allocated.gpu);
    if (!node.healthy) totals.unhealthy += capacity;
  }
  totals.idle = Math.max(0, totals.total - totals.allocated - totals.unhealthy);
  return totals;
}

export function Overview() {
  const state = useLive(loadOverview, [], TIME_BOUND_MS);
  const rows = (state.data && state.data.top.teams) || [];
  const gpuRows = rows.filter((r) => r.resource === 'gpu');
  const sum = (key, list = gpuRows) => list.reduce((n, r) => n + (Number(r[key]) || 0), 0);
  const teams = new Map();
  for (const r of rows) teams.set(r.team, r);
  const pending = [...teams.values()].reduce((n, r) => n + (r.pending || 0), 0);
  const admitted = [...teams.values()].reduce((n, r) => n + (r.admitted || 0), 0);
  const totals = state.data && state.data.nodes ? gpuTotals(state.data.nodes) : null;
  return (
    <>
      <h1>Overview</h1>
      <Loading state={state} />
      {state.data ? (
        <section class="stats" aria-label="Cluster figures">
          {totals ? (
            <>
              <Stat label="GPUs total" value={gpus(totals.total)} />
              <Stat label="allocated" value={gpus(totals.allocated)} />
              <Stat label="idle" value={gpus(totals.idle)} />
              <Stat label="unhealthy" value={gpus(totals.unhealthy)} />
            </>
          ) : (
            <Stat label="GPU quota (visible teams)" value={gpus(sum('nominal'))} hint="nodes are not visible to you" />
          )}
          <Stat label="pending workloads" value={count(pending)} />
          <Stat label="admitted or running" value={count(admitted)} />
          <Stat label="borrowed across the cohort" value={gpus(sum('borrowed'))} />
          <Stat label="lent" value={gpus(sum('lent'))} />
          <Governance data={state.data} />
        </section>
      ) : null}
      {state.data && !rows.length && !(totals && totals.total) ? (
        <Empty>
          Nothing to govern yet: no node and no team you may see. Apply a policy with node pools and teams (allot apply -f
          policy.yaml; docs/policy.md), or ask an admin for a binding to your team.
        </Empty>
      ) : null}
      {state.data && state.data.nodesError && state.data.nodesError.status !== 403 ? (
        <Problem error={state.data.nodesError} />
      ) : null}
      <UsageChart />
    </>
  );
}
