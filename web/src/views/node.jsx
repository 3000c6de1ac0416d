// A node's page (#/hardware/NAME): pool, flavor, rack and block, each GPU's
// state (and which team holds it), health and cordon, its health history (the node's `healthHistory`),
// and the workloads on it (a link to each one the
// caller may see; another team's reads "another team's workload"); cordon,
// drain and uncordon only when an access review says the caller may update
// nodes (the server decides again; a refusal shows its reason).
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useLive } from '../live.js';
import { formatTime, quantity } from '../format.js';
import { Empty, Loading } from './common.jsx';
import { Gpus, gpuHolders } from './hardware.jsx';

// The node's health changes as the health checks saw them, newest first
// (the API keeps the last 20).
function HealthHistory({ changes }) {
  return (
    <section aria-labelledby="node-health-history">
      <h2 id="node-health-history">Health history</h2>
      {changes.length ? (
        <ul class="health-history">
          {changes.map((c) => (
            <li data-healthy={String(c.healthy)}>
              <time dateTime={c.at}>{formatTime(c.at)}</time>{' '}
              {c.healthy ? 'healthy again' : `unhealthy${c.reason ? `: ${c.reason}` : ''}`}
            </li>
          ))}
        </ul>
      ) : (
        <Empty>No health change since allotd first saw this node: the health checks have always found it healthy.</Empty>
      )}
    </section>
  );
}

function nodePath(name) {
  return `/api/v1/nodes/${encodeURIComponent(name)}`;
}

function useMayUpdateNode(name, visible) {
  const [allowed, setAllowed] = useState(false);
  useEffect(() => {
    if (!visible) return;
    api
      .post('/api/v1/accessreviews', { verb: 'update', resource: 'nodes', namespace: '', name })
      .then((answer) => setAllowed(Boolean(answer.allowed)))
      .catch(() => setAllowed(false));
  }, [name, visible]);
  return allowed;
}

function WorkloadLink({ id }) {
  const slash = id.indexOf('/');
  if (slash < 0) return <>{id}</>;
  const ns = id.slice(0, slash);
  const name = id.slice(slash + 1);
  return <a href={`#/tasks/${encodeURIComponent(ns)}/${encodeURIComponent(name)}`}>{id}</a>;
}

export function Node({ name }) {
  const state = useLive(() => api.get(nodePath(name)), [name]);
  const node = state.data && state.data.name === name ? state.data : null;
  // Who holds each GPU: the placements of the workloads the caller may list.
  const active = useLive(() => api.optional('/api/v1/workloads?phase=Admitted,Running&limit=10000').catch(() => null), []);
  const mayUpdate = useMayUpdateNode(name, Boolean(node));
  const [outcome, setOutcome] = useState(null);
  // The outcome shows once the page has the node's new state.
  const act = async (action) => {
    setOutcome(null);
    let shown;
    try {
      await api.post(`${nodePath(name)}/${action}`);
      shown = { ok: true, text: `${action[0].toUpperCase()}${action.slice(1)} accepted.` };
    } catch (failure) {
      shown = { ok: false, text: failure.message };
    }
    await state.refresh();
    setOutcome(shown);
  };
  const workloads = (node && node.workloads) || [];
  return (
    <>
      <p>
        <a href="#/hardware">← Hardware</a>
      </p>
      <h1>Node {name}</h1>
      <Loading state={state} />
      {node ? (
        <>
          <dl class="facts">
            <dt>Pool</dt>
            <dd>{node.pool || '—'}</dd>
            <dt>Flavor</dt>
            <dd>{node.flavor || '—'}</dd>
            <dt>Rack / block</dt>
            <dd>
              {node.rack || '—'} / {node.block || '—'}
            </dd>
            <dt>GPUs</dt>
            <dd>
              <Gpus node={node} holders={active.data ? gpuHolders(active.data) : undefined} /> {quantity(node.allocated && node.allocated.gpu)} of{' '}
              {quantity(node.capacity && node.capacity.gpu)} allocated
            </dd>
            <dt>CPU, memory</dt>
            <dd>
              {(node.allocated && node.allocated.cpu) || 0} of {(node.capacity && node.capacity.cpu) || 0} CPUs,{' '}
              {(node.allocated && node.allocated.memory) || 0} of {(node.capacity && node.capacity.memory) || 0} memory
            </dd>
            <dt>State</dt>
            <dd data-testid="node-state">
              {!node.healthy ? `unhealthy${node.reason ? `: ${node.reason}` : ''}` : node.cordoned ? 'cordoned' : 'ready'}
            </dd>
          </dl>
          {mayUpdate ? (
            <div class="actions">
              {node.cordoned ? (
                <button type="button" onClick={() => act('uncordon')}>
                  Uncordon
                </button>
              ) : (
                <button type="button" onClick={() => act('cordon')}>
                  Cordon
                </button>
              )}
              <button type="button" onClick={() => act('drain')}>
                Drain
              </button>
            </div>
          ) : null}
          {outcome ? (
            <p class={outcome.ok ? 'ok' : 'problem'} role="status">
              {outcome.text}
            </p>
          ) : null}
          <section aria-labelledby="node-workloads">
            <h2 id="node-workloads">Workloads</h2>
            {workloads.length ? (
              <ul>
                {workloads.map((id) => (
                  <li>
                    <WorkloadLink id={id} />
                  </li>
                ))}
              </ul>
            ) : (
              <Empty>No workload runs here. Admitted workloads are placed on it (submit one from Tasks); a cordoned or drained node takes none.</Empty>
            )}
          </section>
          <HealthHistory changes={node.healthHistory || []} />
        </>
      ) : null}
    </>
  );
}
