// Signals: each Signal (GET /api/v1/signals, docs/metrics.md) with its state
// (inactive, pending, firing) as allotd last evaluated it, since when, who
// owns it, what to do (the response and its runbook) and the series that
// fire. Firing ones first. Each row's History, once opened, lists its fired
// and resolved events (GET /api/v1/signals/{name}/history), newest first.
// Below the table, the signals firing over time (activity_chart.jsx, GET
// /api/v1/top/signals: from the same histories).
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { TIME_BOUND_MS, useLive } from '../live.js';
import { formatAge, formatTime } from '../format.js';
import { Empty, Loading } from './common.jsx';
import { ActivityChart, SIGNAL_STACKS } from './activity_chart.jsx';

const ORDER = { firing: 0, pending: 1, inactive: 2 };

// Only http(s) links (the server checks at apply; the page checks again).
export function safeLink(url) {
  return typeof url === 'string' && /^https?:\/\//i.test(url) ? url : '';
}

function State({ status }) {
  if (!status || !status.state) return <span class="signal-state state-unknown">not evaluated yet</span>;
  return <span class={`signal-state state-${status.state}`}>{status.state}</span>;
}

function Response({ response }) {
  const text = (response && response.text) || '—';
  const runbook = safeLink(response && response.runbook);
  return (
    <>
      {text}
      {runbook ? (
        <>
          {' '}
          <a href={runbook} rel="noopener noreferrer" target="_blank">
            runbook
          </a>
        </>
      ) : null}
    </>
  );
}

function seriesText(series) {
  return (series || [])
    .map((s) => Object.entries(s.labels || {}).map(([k, v]) => `${k}=${v}`).join(',') + ` ${s.value}`)
    .join('; ');
}

// Asked for only when opened (a closed one costs no request).
function History({ name }) {
  const [state, setState] = useState(null);
  const load = (event) => {
    if (!event.currentTarget.open) return;
    setState({ loading: true });
    api
      .get(`/api/v1/signals/${encodeURIComponent(name)}/history`)
      .then((data) => setState({ items: [...(data.items || [])].reverse() }))
      .catch((error) => setState({ error: error.message }));
  };
  return (
    <details class="signal-history" onToggle={load}>
      <summary>History</summary>
      {state && state.loading ? <p class="hint">Loading…</p> : null}
      {state && state.error ? <p role="alert">{state.error}</p> : null}
      {state && state.items && !state.items.length ? <p class="hint">Never fired.</p> : null}
      {state && state.items && state.items.length ? (
        <ul data-testid={`signal-history-${name}`}>
          {state.items.map((e) => (
            <li>
              <time dateTime={e.at}>{formatTime(e.at)}</time> {e.event}
              {e.series && e.series.length ? ` (${seriesText(e.series)})` : ''}
            </li>
          ))}
        </ul>
      ) : null}
    </details>
  );
}

function SignalRow({ signal }) {
  const { spec } = signal;
  const status = signal.status || {};
  return (
    <tr data-signal={signal.metadata.name}>
      <th scope="row">{signal.metadata.name}</th>
      <td>
        <State status={signal.status} />
      </td>
      <td>
        {status.since ? (
          <time dateTime={status.since} title={formatTime(status.since)}>
            {formatAge(status.since)} ago
          </time>
        ) : (
          '—'
        )}
      </td>
      <td>{spec.owner}</td>
      <td>
        <Response response={spec.response} />
      </td>
      <td>
        <code>{spec.expression}</code>
        {spec.for ? ` for ${spec.for}` : ''}
        {status.firingSeries ? <div class="hint">firing: {status.firingSeries}</div> : null}
        <History name={signal.metadata.name} />
      </td>
    </tr>
  );
}

export function Signals() {
  const state = useLive(() => api.get('/api/v1/signals'), [], TIME_BOUND_MS);
  const items = [...((state.data && state.data.items) || [])].sort(
    (a, b) =>
      (ORDER[a.status && a.status.state] ?? 3) - (ORDER[b.status && b.status.state] ?? 3) ||
      a.metadata.name.localeCompare(b.metadata.name),
  );
  const firing = items.filter((s) => s.status && s.status.state === 'firing').length;
  return (
    <>
      <h1>Signals</h1>
      <Loading state={state} />
      {state.data && !items.length ? (
        <Empty>No signals yet. Apply a Signal (docs/metrics.md, examples/org/signals.yaml) to watch a condition.</Empty>
      ) : null}
      {items.length ? (
        <>
          <p data-testid="signals-firing">
            {firing} of {items.length} firing.
          </p>
          <table class="signals">
            <caption class="sr-only">Signals: state, since, owner, response</caption>
            <thead>
              <tr>
                <th scope="col">Signal</th>
                <th scope="col">State</th>
                <th scope="col">Since</th>
                <th scope="col">Owner</th>
                <th scope="col">Response</th>
                <th scope="col">Condition</th>
              </tr>
            </thead>
            <tbody>
              {items.map((s) => (
                <SignalRow signal={s} />
              ))}
            </tbody>
          </table>
          <ActivityChart
            id="signals-over-time"
            path="/api/v1/top/signals"
            stacks={SIGNAL_STACKS}
            title="Signals firing over time"
            what="signals firing"
            empty="No signal fired in this range."
          />
        </>
      ) : null}
    </>
  );
}
