// Pieces every view uses: the state of a fetch, stat tiles, empty states.
export function Problem({ error }) {
  if (!error) return null;
  const denied = error.status === 403;
  return (
    <p class="problem" role="alert">
      {denied ? 'Not visible to you: ' : 'The server said: '}
      {error.message}
    </p>
  );
}

export function Loading({ state }) {
  if (state.loading && !state.data) return <p aria-busy="true">Loading…</p>;
  return <Problem error={state.error} />;
}

export function Stat({ label, value, hint }) {
  return (
    <div class="stat">
      <div class="stat-value">{value}</div>
      <div class="stat-label">{label}</div>
      {hint ? <div class="stat-hint">{hint}</div> : null}
    </div>
  );
}

export function Empty({ children }) {
  return <p class="empty">{children}</p>;
}

export function Phase({ phase }) {
  return <span class={`phase phase-${(phase || '').toLowerCase()}`}>{phase || '—'}</span>;
}

// A share of a whole as a bar (a budget's use, a quota's); `over` past 1.
export function Fraction({ value, label }) {
  const shown = Math.max(0, Math.min(1, Number(value) || 0));
  return (
    <span class="meter" role="img" aria-label={label}>
      <span class={`meter-used${value >= 1 ? ' over' : ''}`} style={{ width: `${shown * 100}%` }} />
    </span>
  );
}

