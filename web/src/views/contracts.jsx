// Contracts: each connection contract (GET /api/v1/contracts,
// docs/governance.md) with its phase, owners, cluster, classification,
// approved kinds, monitoring signals (when it names any) and next review,
// its history, and the transitions its phase allows: shown only when an
// access review says the caller may (the server decides again; a refusal
// shows its reason). The requester is not offered the approval of its own
// contract (the server refuses it). Below the contracts, their phases over
// time (contracts_chart.jsx), then the policy exceptions the caller may
// read, with their decisions (exceptions.jsx).
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { useLive } from '../live.js';
import { formatTime } from '../format.js';
import { Empty, Loading } from './common.jsx';
import { Exceptions } from './exceptions.jsx';
import { ContractsChart } from './contracts_chart.jsx';
import { ReasonedActions, TransitionHistory } from './reasoned_actions.jsx';

// The transitions from each phase (src/governance/contract_lifecycle.cc).
export const TRANSITIONS = {
  Draft: ['approve', 'revoke'],
  Approved: ['activate', 'revoke'],
  Active: ['review', 'revoke'],
  UnderReview: ['renew', 'revoke'],
  Revoked: [],
};
const VERBS = ['approve', 'activate', 'review', 'renew', 'revoke'];
const LABELS = { approve: 'Approve', activate: 'Activate', review: 'Start review', renew: 'Renew', revoke: 'Revoke' };

function contractPath(name) {
  return `/api/v1/contracts/${encodeURIComponent(name)}`;
}

// The transition verbs the caller may use on `name` (one access review each).
function useContractVerbs(name) {
  const [allowed, setAllowed] = useState({});
  useEffect(() => {
    const ask = (verb) =>
      api
        .post('/api/v1/accessreviews', { verb, resource: 'contracts', namespace: '', name })
        .then((answer) => answer.allowed)
        .catch(() => false);
    Promise.all(VERBS.map(ask)).then((answers) => setAllowed(Object.fromEntries(VERBS.map((v, i) => [v, answers[i]]))));
  }, [name]);
  return allowed;
}

function Owners({ spec }) {
  const owners = spec.owners || {};
  return (
    <>
      business {owners.business || '—'}, operations {owners.operations || '—'}, cost {owners.cost || '—'}; scheduling
      policy {spec.schedulingPolicyOwner || '—'}, exceptions {spec.exceptionOwner || '—'}
    </>
  );
}

function Actions({ contract, me, onDone }) {
  const name = contract.metadata.name;
  const status = contract.status || {};
  const allowed = useContractVerbs(name);
  const own = status.requestedBy && me && status.requestedBy === me.subject;
  const verbs = (TRANSITIONS[status.phase] || []).filter((v) => allowed[v] && !(v === 'approve' && own));
  const ownHint = own && (TRANSITIONS[status.phase] || []).includes('approve') && allowed.approve;
  // The outcome shows once the card has the new status (no button of the old phase left).
  return (
    <ReasonedActions
      path={contractPath(name)}
      verbs={verbs}
      labels={LABELS}
      formLabel={`Transitions of ${name}`}
      hint={ownHint ? 'You requested this contract: another approver approves it.' : null}
      onDone={onDone}
    />
  );
}

function ContractCard({ contract, me, onDone }) {
  const { spec } = contract;
  const name = contract.metadata.name;
  const status = contract.status || {};
  const cluster = spec.cluster || {};
  return (
    <section class="card" aria-labelledby={`contract-${name}`} data-contract={name}>
      <h2 id={`contract-${name}`}>
        {name} <span class={`phase contract-${(status.phase || '').toLowerCase()}`}>{status.phase || '—'}</span>
      </h2>
      <dl class="facts">
        <dt>Project</dt>
        <dd>
          {spec.project}
          {(spec.namespaces || []).length ? ` (namespaces ${spec.namespaces.join(', ')})` : ''}
        </dd>
        <dt>Owners</dt>
        <dd>
          <Owners spec={spec} />
        </dd>
        <dt>Cluster</dt>
        <dd>{[cluster.name, cluster.region, cluster.account].filter(Boolean).join(', ') || '—'}</dd>
        <dt>Classification</dt>
        <dd>{spec.dataClassification}</dd>
        <dt>Approved kinds</dt>
        <dd>{(spec.approvedWorkloadKinds || []).join(', ') || '—'}</dd>
        {(spec.monitoringSignals || []).length ? (
          <>
            <dt>Monitoring signals</dt>
            <dd data-testid="monitoring-signals">{spec.monitoringSignals.join(', ')}</dd>
          </>
        ) : null}
        <dt>Requested by</dt>
        <dd>
          {status.requestedBy || '—'}
          {status.approvedBy ? `; approved by ${status.approvedBy}` : ''}
        </dd>
        <dt>Next review</dt>
        <dd data-testid="review-due">
          {status.reviewDue
            ? `${formatTime(status.reviewDue)} (grace until ${formatTime(status.reviewGraceEnds)})`
            : `not scheduled (starts at activation; every ${spec.reviewInterval || '90d'})`}
        </dd>
      </dl>
      <TransitionHistory items={status.history} />
      <Actions contract={contract} me={me} onDone={onDone} />
    </section>
  );
}

export function Contracts({ me }) {
  const state = useLive(() => api.get('/api/v1/contracts'), []);
  const items = (state.data && state.data.items) || [];
  return (
    <>
      <h1>Contracts</h1>
      <Loading state={state} />
      {state.data && !items.length ? (
        <Empty>No contracts yet. Apply an Organization and a Contract (docs/governance.md) to connect a project.</Empty>
      ) : null}
      {items.map((c) => (
        <ContractCard contract={c} me={me} onDone={state.refresh} />
      ))}
      {items.length ? <ContractsChart contracts={items} /> : null}
      <Exceptions me={me} />
    </>
  );
}
