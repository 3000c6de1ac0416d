// The governance objects' actions and history, shared by Contracts and the
// policy exceptions below them: a form with a reason field and one button
// per verb the caller is offered (POST `${path}/${verb}` with {reason}; the
// answer's new phase, or the server's refusal with its reason, shown once
// the card is fetched again through onDone), a hint for a party who may not
// act, and the object's recorded transitions, oldest first.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { formatTime } from '../format.js';

export function ReasonedActions({ path, verbs, labels, formLabel, hint, onDone }) {
  const [reason, setReason] = useState('');
  const [outcome, setOutcome] = useState(null);
  const act = async (verb) => {
    setOutcome(null);
    let shown;
    try {
      const answer = await api.post(`${path}/${verb}`, { reason });
      shown = { ok: true, text: `${labels[verb]}: now ${answer.status.phase}.` };
      setReason('');
    } catch (failure) {
      shown = { ok: false, text: failure.message };
    }
    await onDone();
    setOutcome(shown);
  };
  if (!verbs.length && !outcome && !hint) return null;
  return (
    <div class="contract-actions">
      {verbs.length ? (
        <form class="actions" onSubmit={(e) => e.preventDefault()} aria-label={formLabel}>
          <label>
            Reason
            <input value={reason} onInput={(e) => setReason(e.target.value)} placeholder="why (recorded)" />
          </label>
          {verbs.map((verb) => (
            <button type="button" onClick={() => act(verb)}>
              {labels[verb]}
            </button>
          ))}
        </form>
      ) : null}
      {hint ? <p class="hint">{hint}</p> : null}
      {outcome ? (
        <p class={outcome.ok ? 'ok' : 'problem'} role="status">
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}

// A transition's line: "from → to" where the phase changed, else the phase.
export function TransitionHistory({ items }) {
  if (!items || !items.length) return null;
  return (
    <details>
      <summary>History ({items.length})</summary>
      <ol class="events">
        {items.map((h) => (
          <li>
            <time dateTime={h.at}>{formatTime(h.at)}</time> <strong>{h.action}</strong>{' '}
            {h.from && h.from !== h.to ? `${h.from} → ` : ''}
            {h.to} by {h.by}: {h.reason}
          </li>
        ))}
      </ol>
    </details>
  );
}
