// A workload's page: its status, placement, events, logs and, while it
// waits, the scheduler's explanation; cancel and resume only when an access
// review says the caller may (the server decides again, and a refusal shows
// its reason).
import { useEffect, useState } from 'preact/hooks';
import { api, workloadPath } from '../api.js';
import { useLive } from '../live.js';
import { formatIn, formatTime } from '../format.js';
import { Empty, Loading, Phase } from './common.jsx';
import { Logs } from './logs.jsx';

const ENDED = ['Succeeded', 'Failed', 'Cancelled'];

// Asked once the workload is known to be visible (`visible`): a review of a
// name the caller cannot see would only echo it.
function useAllowed(ns, name, visible) {
  const [allowed, setAllowed] = useState({ cancel: false, resume: false });
  useEffect(() => {
    if (!visible) return;
    const ask = (verb, resource) =>
      api
        .post('/api/v1/accessreviews', { verb, resource, namespace: ns, name })
        .then((answer) => answer.allowed)
        .catch(() => false);
    Promise.all([ask('cancel', 'workloads'), ask('update', 'workloads/resume')]).then(([cancel, resume]) =>
      setAllowed({ cancel, resume }),
    );
  }, [ns, name, visible]);
  return allowed;
}

function Explanation({ explanation }) {
  if (!explanation) return null;
  return (
    <section aria-labelledby="why-title" class="explanation">
      <h2 id="why-title">Why it waits</h2>
      <p data-testid="explanation">{explanation.message}</p>
      <p class="hint">
        {explanation.queuePosition !== null && explanation.queuePosition !== undefined
          ? `Position ${explanation.queuePosition} in its queue. `
          : ''}
        {explanation.estimatedStart
          ? `Estimated start: ${formatTime(explanation.estimatedStart)} (${formatIn(explanation.estimatedStart)}).`
          : 'No estimated start yet: nothing running says when it ends.'}
      </p>
    </section>
  );
}

function Placement({ status }) {
  const pods = (status.podSets || []).flatMap((set) => (set.pods || []).map((p) => ({ set: set.name, ...p })));
  if (!pods.length) return <Empty>Not placed on any node.</Empty>;
  return (
    <ul>
      {pods.map((p) => (
        <li>
          {p.set}: node {p.node}, GPUs {(p.gpus || []).join(', ') || 'none'}
        </li>
      ))}
    </ul>
  );
}

function Events({ ns, name }) {
  const state = useLive(() => api.get(`${workloadPath(ns, name)}/events`), [ns, name]);
  const items = (state.data && state.data.items) || [];
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      <Loading state={state} />
      {state.data && !items.length ? <Empty>No events yet.</Empty> : null}
      <ol class="events">
        {items.map((e) => (
          <li>
            <time dateTime={e.time}>{formatTime(e.time)}</time> <strong>{e.type}</strong> {e.reason}: {e.message}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function Workload({ ns, name }) {
  const state = useLive(() => api.get(workloadPath(ns, name)), [ns, name]);
  const shown = state.data && state.data.metadata.namespace === ns && state.data.metadata.name === name;
  const allowed = useAllowed(ns, name, Boolean(shown));
  const [outcome, setOutcome] = useState(null);
  const act = async (action) => {
    setOutcome(null);
    try {
      await api.post(`${workloadPath(ns, name)}/${action}`);
      setOutcome({ ok: true, text: `${action === 'cancel' ? 'Cancel' : 'Resume'} accepted.` });
    } catch (failure) {
      setOutcome({ ok: false, text: failure.message });
    }
    state.refresh();
  };
  const w = shown ? state.data : null;
  return (
    <>
      <p>
        <a href="#/tasks">← Tasks</a>
      </p>
      <h1>
        {ns}/{name}
      </h1>
      <Loading state={state} />
      {w ? (
        <>
          <p>
            <Phase phase={w.status.phase} /> {w.status.stopping ? `stopping (${w.status.stopReason})` : ''}{' '}
            {w.status.reason}: {w.status.message}
          </p>
          <div class="actions">
            {allowed.cancel && !ENDED.includes(w.status.phase) ? (
              <button type="button" onClick={() => act('cancel')}>
                Cancel workload
              </button>
            ) : null}
            {allowed.resume && w.status.phase === 'Suspended' ? (
              <button type="button" onClick={() => act('resume')}>
                Resume
              </button>
            ) : null}
          </div>
          {outcome ? (
            <p class={outcome.ok ? 'ok' : 'problem'} role="status">
              {outcome.text}
            </p>
          ) : null}
          <Explanation explanation={w.status.explanation} />
          <dl class="facts">
            <dt>Submitted by</dt>
            <dd>{w.status.submittedBy || '—'}</dd>
            <dt>Priority</dt>
            <dd>{w.spec.priorityClass || '—'}</dd>
            <dt>Created</dt>
            <dd>{formatTime(w.status.createdAt)}</dd>
            <dt>Started</dt>
            <dd>{formatTime(w.status.startedAt)}</dd>
            <dt>Flavor</dt>
            <dd>{w.status.flavor || '—'}</dd>
          </dl>
          <section aria-labelledby="placement-title">
            <h2 id="placement-title">Placement</h2>
            <Placement status={w.status} />
          </section>
          <Events ns={ns} name={name} />
          <Logs ns={ns} name={name} pod={0} />
        </>
      ) : null}
    </>
  );
}
