// Contracts over time: how many contracts were Draft, Approved, Active and
// UnderReview at the end of each minute, hour, 6 hours or day of the chosen
// range (1 h, 24 h, 7 d, 30 d), stacked bars (the chart module's
// StackedBars). Counted in the browser from the contracts the view fetched
// (GET /api/v1/contracts): each contract's `status.history` starts with its
// creation (Draft) and holds every transition with its time, so a contract's
// phase at any time is the `to` of its last step by then; a contract did not
// exist before its first step, and a Revoked one counts no more. No request
// of its own: live with the list (the change stream's notices) and drawn
// again when the range changes. Only the contracts the caller may read.
import { useState } from 'preact/hooks';
import { StackedBars } from '../charts/stacked_bars.jsx';
import { RangePicker } from './usage_chart.jsx';
import { bucketLabel, seconds } from './teams.jsx';

export const CONTRACT_STACKS = [
  { key: 'Active', cls: 'bar-active', name: 'active' },
  { key: 'UnderReview', cls: 'bar-review', name: 'under review' },
  { key: 'Approved', cls: 'bar-approved', name: 'approved' },
  { key: 'Draft', cls: 'bar-draft', name: 'draft' },
];

// The buckets of each range, as the server's charts have them.
export const CONTRACT_BUCKETS = {
  '1h': { count: 60, seconds: 60 },
  '24h': { count: 24, seconds: 3600 },
  '7d': { count: 28, seconds: 21600 },
  '30d': { count: 30, seconds: 86400 },
};

// A contract's phase at `ms` (epoch ms): the last step's `to` by then; null
// before its creation.
export function phaseAt(history, ms) {
  let phase = null;
  for (const step of history || []) {
    const at = new Date(step.at).getTime();
    if (at <= ms && step.to) phase = step.to;
  }
  return phase;
}

// The buckets of `range` ending with the one that holds `now` (UTC-aligned),
// each { start, Draft, Approved, Active, UnderReview } at its end (now for
// the last one).
export function contractBuckets(contracts, range, now = Date.now()) {
  const { count, seconds: length } = CONTRACT_BUCKETS[range];
  const ms = length * 1000;
  const end = Math.floor(now / ms) * ms + ms;
  const buckets = [];
  for (let i = count; i > 0; i--) {
    const start = end - i * ms;
    const at = Math.min(now, start + ms);
    const bucket = { start: new Date(start).toISOString() };
    for (const s of CONTRACT_STACKS) bucket[s.key] = 0;
    for (const c of contracts) {
      const phase = phaseAt(c.status && c.status.history, at);
      if (phase && bucket[phase] !== undefined) bucket[phase]++;
    }
    buckets.push(bucket);
  }
  return buckets;
}

const whole = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const format = (value) => whole.format(Number(value) || 0);

export function ContractsChart({ contracts }) {
  const [range, setRange] = useState('24h');
  const length = CONTRACT_BUCKETS[range].seconds;
  const points = contractBuckets(contracts, range).map((b) => ({ ...b, label: bucketLabel(b.start, length) }));
  const per = seconds(length);
  return (
    <section aria-labelledby="contracts-over-time-title">
      <h2 id="contracts-over-time-title">Contracts over time</h2>
      <RangePicker value={range} onChange={setRange} />
      <p class="legend">
        {CONTRACT_STACKS.map((s) => (
          <>
            <span class={`swatch ${s.cls}`} /> {s.name}{' '}
          </>
        ))}
        · contracts in each phase at the end of each {per} (revoked ones not counted)
      </p>
      <figure data-chart="contracts-over-time">
        <StackedBars
          points={points}
          stacks={CONTRACT_STACKS}
          label={`Contracts over time: contracts in each phase at the end of each ${per}`}
          every={Math.ceil(points.length / 6)}
          format={format}
        />
      </figure>
    </section>
  );
}
