// Policy exceptions, on the Contracts view: each PolicyException the caller
// may read (GET /api/v1/policyexceptions: a team's roles read that team's,
// docs/governance.md) with its team, what it relaxes, phase, owner,
// approver, expiry, reason, requester and decider, and its history (one
// past its expiry reads "Expired", as the server serves it: out of force). Approve
// and Reject (with a reason) are offered on a Requested exception only to
// one who may decide it: its named approver (by name or group) or a caller
// an access review lets `approve`/`reject` policyexceptions; never to its
// owner or requester. The server decides again: a refusal shows its reason.
// A caller who may read none sees no section. Fetched again on the change
// stream's notices and every TIME_BOUND_MS (a request turns Expired with
// time alone).
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { TIME_BOUND_MS, useLive } from '../live.js';
import { formatTime } from '../format.js';
import { ReasonedActions, TransitionHistory } from './reasoned_actions.jsx';

const DECISIONS = ['approve', 'reject'];
const DECISION_LABELS = { approve: 'Approve', reject: 'Reject' };

function exceptionPath(name) {
  return `/api/v1/policyexceptions/${encodeURIComponent(name)}`;
}

// "quota gpu +gpu=2", "priorityClass urgent", ...: what spec.relaxes names.
export function relaxesText(relaxes) {
  if (!relaxes || typeof relaxes !== 'object') return '—';
  const [key, value] = Object.entries(relaxes)[0] || [];
  if (!key) return '—';
  if (key === 'quota' && value && typeof value === 'object') {
    const amounts = Object.entries(value.resources || {}).map(([r, n]) => `${r}=${n}`);
    return `quota ${value.flavor || ''} +${amounts.join(', ')}`;
  }
  return `${key} ${typeof value === 'object' ? JSON.stringify(value) : value}`;
}

function isParty(me, who) {
  return Boolean(me && who && (me.subject === who || (me.groups || []).includes(who)));
}

// Whether an access review lets the caller approve and reject `name`.
function useExceptionDecisions(name) {
  const [allowed, setAllowed] = useState({});
  useEffect(() => {
    const ask = (verb) =>
      api
        .post('/api/v1/accessreviews', { verb, resource: 'policyexceptions', namespace: '', name })
        .then((answer) => answer.allowed)
        .catch(() => false);
    Promise.all(DECISIONS.map(ask)).then((answers) =>
      setAllowed(Object.fromEntries(DECISIONS.map((v, i) => [v, answers[i]]))),
    );
  }, [name]);
  return allowed;
}

function Decisions({ exception, me, onDone }) {
  const name = exception.metadata.name;
  const { spec } = exception;
  const status = exception.status || {};
  const allowed = useExceptionDecisions(name);
  const own = isParty(me, spec.owner) || Boolean(me && status.requestedBy === me.subject);
  const decider = isParty(me, spec.approver);
  const verbs = status.phase === 'Requested' && !own ? DECISIONS.filter((v) => decider || allowed[v]) : [];
  const hint =
    status.phase === 'Requested' && own ? 'You own or requested this exception: its approver decides it.' : null;
  return (
    <ReasonedActions
      path={exceptionPath(name)}
      verbs={verbs}
      labels={DECISION_LABELS}
      formLabel={`Decision on ${name}`}
      hint={hint}
      onDone={onDone}
    />
  );
}

function ExceptionCard({ exception, me, onDone }) {
  const { spec } = exception;
  const name = exception.metadata.name;
  const status = exception.status || {};
  const phase = status.phase || 'Approved';
  // The server serves an exception past its expiry as Expired (requested or
  // approved); one that expires while the page is open reads so too.
  const lapsed = phase === 'Approved' && Date.parse(spec.expires) <= Date.now();
  const shown = lapsed ? 'Expired' : phase;
  return (
    <section class="card" aria-labelledby={`exception-${name}`} data-exception={name}>
      <h3 id={`exception-${name}`}>
        {name}{' '}
        <span class={`phase exception-${shown.toLowerCase()}`}>{shown}</span>
      </h3>
      <dl class="facts">
        <dt>Team</dt>
        <dd>{spec.team}</dd>
        <dt>Relaxes</dt>
        <dd>{relaxesText(spec.relaxes)}</dd>
        <dt>Owner</dt>
        <dd data-testid="exception-owner">{spec.owner || '—'}</dd>
        <dt>Approver</dt>
        <dd data-testid="exception-approver">{spec.approver || '—'}</dd>
        <dt>Expires</dt>
        <dd data-testid="exception-expires">
          <time dateTime={spec.expires}>{formatTime(spec.expires)}</time>
        </dd>
        <dt>Reason</dt>
        <dd data-testid="exception-reason">{spec.reason || '—'}</dd>
        <dt>Requested by</dt>
        <dd>
          {status.requestedBy || '—'}
          {status.decidedBy ? `; decided by ${status.decidedBy}` : ''}
        </dd>
      </dl>
      <TransitionHistory items={status.history} />
      <Decisions exception={exception} me={me} onDone={onDone} />
    </section>
  );
}

export function Exceptions({ me }) {
  // A request turns Expired with time alone (no stored change): asked again besides.
  const state = useLive(() => api.optional('/api/v1/policyexceptions'), [], TIME_BOUND_MS);
  const items = (state.data && state.data.items) || [];
  if (!items.length) return null;
  return (
    <section aria-labelledby="exceptions-heading" class="exceptions">
      <h2 id="exceptions-heading">Policy exceptions</h2>
      {items.map((e) => (
        <ExceptionCard exception={e} me={me} onDone={state.refresh} />
      ))}
    </section>
  );
}
