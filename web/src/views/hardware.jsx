// Hardware: the nodes by pool, rack and block, each GPU's state (free,
// allocated to which team, unhealthy), cordons; the workloads on each node as the API
// names them (another team's read "another team's workload"); each node
// links to its page (node.jsx); above them the GPUs allocated, free and
// unhealthy over time (hardware_chart.jsx).
import { api } from '../api.js';
import { useLive } from '../live.js';
import { quantity } from '../format.js';
import { Empty, Loading } from './common.jsx';
import { HardwareChart } from './hardware_chart.jsx';

// Who holds each GPU: "NODE#INDEX" -> the workload ("ns/name"), from the
// placements of the admitted and running workloads the caller may list.
export function gpuHolders(workloads) {
  const holders = new Map();
  for (const w of (workloads && workloads.items) || []) {
    for (const set of w.status.podSets || []) {
      for (const pod of set.pods || []) {
        for (const gpu of pod.gpus || []) holders.set(`${pod.node}#${gpu}`, `${w.metadata.namespace}/${w.metadata.name}`);
      }
    }
  }
  return holders;
}

// A GPU's words: free, unhealthy, or allocated to the team (namespace) whose
// workload holds it; with `holders` known, one held by a workload the caller
// may not list is "another team's".
function gpuTitle(i, state, holder, holders) {
  if (state !== 'allocated') return `GPU ${i}: ${state}`;
  if (holder) return `GPU ${i}: allocated to ${holder.split('/')[0]} (${holder})`;
  return holders ? `GPU ${i}: allocated to another team` : `GPU ${i}: allocated`;
}

export function Gpus({ node, holders }) {
  const total = quantity(node.capacity && node.capacity.gpu);
  const used = quantity(node.allocated && node.allocated.gpu);
  const held = (i) => holders && holders.get(`${node.name}#${i}`);
  // GPUs whose holder is not known (not listed, or a backend that does not
  // say which GPU) are the first ones without one, up to the count allocated.
  let unknown = Math.max(0, used - [...Array(total).keys()].filter(held).length);
  const cells = [];
  for (let i = 0; i < total; i++) {
    const holder = held(i);
    const allocated = holder || (unknown > 0 && unknown--);
    const state = !node.healthy ? 'unhealthy' : allocated ? 'allocated' : 'free';
    cells.push(<span class={`gpu gpu-${state}`} data-holder={holder} title={gpuTitle(i, state, holder, holders)} />);
  }
  return (
    <span class="gpus" role="img" aria-label={`${used} of ${total} GPUs allocated${node.healthy ? '' : ', unhealthy'}`}>
      {cells}
    </span>
  );
}

function groupBy(items, key) {
  const groups = new Map();
  for (const item of items) {
    const k = key(item) || '—';
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(item);
  }
  return [...groups.entries()];
}

async function loadHardware() {
  const [nodes, active] = await Promise.all([
    api.get('/api/v1/nodes?limit=10000'),
    api.optional('/api/v1/workloads?phase=Admitted,Running&limit=10000').catch(() => null),
  ]);
  return { ...nodes, holders: gpuHolders(active) };
}

export function Hardware() {
  const state = useLive(loadHardware, []);
  const nodes = (state.data && state.data.items) || [];
  return (
    <>
      <h1>Hardware</h1>
      <Loading state={state} />
      {state.data && nodes.length === 0 ? (
        <Empty>No nodes yet. Apply a NodePool (allot apply -f pool.yaml) to add some.</Empty>
      ) : null}
      {nodes.length ? <HardwareChart /> : null}
      {groupBy(nodes, (n) => n.pool).map(([pool, inPool]) => (
        <section aria-label={`Pool ${pool}`}>
          <h2>Pool {pool}</h2>
          <table class="nodes">
            <caption class="sr-only">Nodes of pool {pool}</caption>
            <thead>
              <tr>
                <th scope="col">Node</th>
                <th scope="col">Rack / block</th>
                <th scope="col">Flavor</th>
                <th scope="col">GPUs</th>
                <th scope="col">State</th>
                <th scope="col">Workloads</th>
              </tr>
            </thead>
            <tbody>
              {inPool.map((n) => (
                <tr>
                  <td>
                    <a href={`#/hardware/${encodeURIComponent(n.name)}`}>{n.name}</a>
                  </td>
                  <td>
                    {n.rack || '—'} / {n.block || '—'}
                  </td>
                  <td>{n.flavor}</td>
                  <td>
                    <Gpus node={n} holders={state.data.holders} /> {quantity(n.allocated && n.allocated.gpu)}/{quantity(n.capacity && n.capacity.gpu)}
                  </td>
                  <td>{!n.healthy ? `unhealthy${n.reason ? `: ${n.reason}` : ''}` : n.cordoned ? 'cordoned' : 'ready'}</td>
                  <td>{(n.workloads || []).join(', ') || '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </>
  );
}
