// GPU-hours over time from the usage report (GET /api/v1/reports/usage,
// docs/cost.md), own and borrowed, with a range picker (1 h, 24 h, 7 d,
// 30 d); stacked bars (charts/stacked_bars.jsx, the chart module the
// report of `allot simulate --report` draws with too), which Costs, Teams
// (GPUs held, borrowed and lent over time) and Hardware (GPUs allocated,
// free, unhealthy) draw with too; periods without data marked.
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { TIME_BOUND_MS, useLive } from '../live.js';
import { hours } from '../format.js';
import { Loading, Empty } from './common.jsx';
import { StackedBars } from '../charts/stacked_bars.jsx';

export const RANGES = [
  { id: '1h', label: '1 h', ms: 3600e3 },
  { id: '24h', label: '24 h', ms: 86400e3 },
  { id: '7d', label: '7 d', ms: 7 * 86400e3 },
  { id: '30d', label: '30 d', ms: 30 * 86400e3 },
];

export function RangePicker({ value, onChange }) {
  return (
    <div class="range" role="group" aria-label="Time range">
      {RANGES.map((r) => (
        <button type="button" aria-pressed={value === r.id} onClick={() => onChange(r.id)}>
          {r.label}
        </button>
      ))}
    </div>
  );
}

// The fraction (0..1) of [start, start + seconds) in the API's missing-data
// periods (`missingData`: allotd was down, nothing is known).
export function missingIn(start, seconds, missingData) {
  const from = new Date(start).getTime();
  const to = from + seconds * 1000;
  let ms = 0;
  for (const gap of missingData || []) {
    ms += Math.max(0, Math.min(to, new Date(gap.to).getTime()) - Math.max(from, new Date(gap.from).getTime()));
  }
  return Math.min(1, ms / (seconds * 1000));
}

// Says that the grey bands are periods without data, when there are any.
export function MissingNote({ missingData }) {
  const n = (missingData || []).length;
  if (!n) return null;
  return (
    <p class="hint missing-note">
      <span class="swatch missing" /> {n === 1 ? 'one period' : `${n} periods`} without data in this range (allotd was down): the
      grey bands.
    </p>
  );
}

const OWN_BORROWED = [
  { key: 'own', cls: 'bar-own', name: 'own' },
  { key: 'borrowed', cls: 'bar-borrowed', name: 'borrowed' },
];

// Stacked bars of own and borrowed per point; with `lent` on the points, a
// line of what was lent besides.
export function Bars({ points, label = 'GPU-hours per period, own and borrowed', every = 1, format = hours }) {
  const lines = points.some((p) => p.lent !== undefined) ? [{ key: 'lent', cls: 'line-lent', name: 'lent' }] : [];
  return <StackedBars points={points} stacks={OWN_BORROWED} lines={lines} label={label} every={every} format={format} />;
}

export function pointsOf(report, byDay) {
  const groups = new Map();
  for (const row of report.rows || []) {
    const label = byDay ? row.day : row.team;
    const point = groups.get(label) || { label, own: 0, borrowed: 0 };
    point.own += row.ownGpuHours || 0;
    point.borrowed += row.borrowedGpuHours || 0;
    groups.set(label, point);
  }
  const points = [...groups.values()].sort((a, b) => String(a.label).localeCompare(String(b.label)));
  // Days are UTC days (the report's); one allotd was down for is marked.
  if (byDay) for (const p of points) p.missing = missingIn(`${p.label}T00:00:00Z`, 86400, report.missingData);
  return points;
}

export function UsageChart() {
  const [range, setRange] = useState('24h');
  const span = RANGES.find((r) => r.id === range).ms;
  const byDay = span > 86400e3;
  const state = useLive(() => {
    const to = new Date();
    const from = new Date(to.getTime() - span);
    return api.get(
      `/api/v1/reports/usage${query({ from: from.toISOString(), to: to.toISOString(), by: byDay ? 'day' : 'team' })}`,
    );
  }, [range], TIME_BOUND_MS);
  const points = state.data ? pointsOf(state.data, byDay) : [];
  return (
    <section aria-labelledby="usage-title">
      <h2 id="usage-title">GPU-hours {byDay ? 'per day' : 'per team'}</h2>
      <RangePicker value={range} onChange={setRange} />
      <Loading state={state} />
      {state.data && points.length === 0 ? <Empty>No GPU time was used in this range. Pick a longer range, or submit a workload from Tasks.</Empty> : null}
      {points.length ? <Bars points={points} /> : null}
      {state.data ? (
        <p class="legend">
          <span class="swatch own" /> own <span class="swatch borrowed" /> borrowed · total{' '}
          {hours(state.data.totals ? state.data.totals.gpuHours : 0)}
        </p>
      ) : null}
    </section>
  );
}
