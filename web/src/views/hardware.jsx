// Hardware: the nodes by pool, rack and block, each GPU's state (free,
// allocated, unhealthy), cordons; the workloads on each node as the API
// names them (another team's read "another team's workload"); each node
// links to its page (node.jsx); above them the GPUs allocated, free and
// unhealthy over time (hardware_chart.jsx).
import { api } from '../api.js';
import { useLive } from '../live.js';
import { quantity } from '../format.js';
import { Empty, Loading } from './common.jsx';
import { HardwareChart } from './hardware_chart.jsx';

export function Gpus({ node }) {
  const total = quantity(node.capacity && node.capacity.gpu);
  const used = quantity(node.allocated && node.allocated.gpu);
  const cells = [];
  for (let i = 0; i < total; i++) {
    const state = !node.healthy ? 'unhealthy' : i < used ? 'allocated' : 'free';
    cells.push(<span class={`gpu gpu-${state}`} title={`GPU ${i}: ${state}`} />);
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

export function Hardware() {
  const state = useLive(() => api.get('/api/v1/nodes?limit=10000'), []);
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
                    <Gpus node={n} /> {quantity(n.allocated && n.allocated.gpu)}/{quantity(n.capacity && n.capacity.gpu)}
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
