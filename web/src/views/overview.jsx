// Overview: GPUs total, allocated, idle and unhealthy (nodes, when the
// caller may list them), pending and running workloads and borrowing per
// team (top), GPU-hours over time.
import { api } from '../api.js';
import { useLive } from '../live.js';
import { count, gpus, quantity } from '../format.js';
import { Loading, Problem, Stat } from './common.jsx';
import { UsageChart } from './usage_chart.jsx';

async function loadOverview() {
  const [top, nodes] = await Promise.allSettled([
    api.get('/api/v1/top'),
    api.get('/api/v1/nodes?limit=10000'),
  ]);
  if (top.status === 'rejected') throw top.reason;
  return {
    top: top.value,
    nodes: nodes.status === 'fulfilled' ? nodes.value : null,
    nodesError: nodes.status === 'rejected' ? nodes.reason : null,
  };
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
  const state = useLive(loadOverview, []);
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
        </section>
      ) : null}
      {state.data && state.data.nodesError && state.data.nodesError.status !== 403 ? (
        <Problem error={state.data.nodesError} />
      ) : null}
      <UsageChart />
    </>
  );
}
