// GPU-hours over time from the usage report (GET /api/v1/reports/usage,
// docs/cost.md), own and borrowed, with a range picker (1 h, 24 h, 7 d,
// 30 d); one SVG bar chart, drawn here without a chart library, which Costs,
// Teams (GPUs held, borrowed and lent over time) and Hardware (GPUs
// allocated, free, unhealthy) draw with too; periods without data marked.
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { TIME_BOUND_MS, useLive } from '../live.js';
import { hours } from '../format.js';
import { Loading, Empty } from './common.jsx';

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

// A stacked bar per point, bottom up as `stacks` ({ key, cls, name }), and a
// line per `lines` ({ key, cls, name }); a point with `missing` > 0 has a
// band behind its bar (class bar-missing: allotd was down for that part).
// `every`: an axis label every so many points; `top`: the value at the top
// (the largest total when not given), written in the top right corner.
export function StackedBars({ points, stacks, lines = [], label, every = 1, format, top }) {
  const width = 600;
  const height = 160;
  const pad = 16; // room for the scale above the bars
  const value = (p, key) => Number(p[key]) || 0;
  const most = top || Math.max(1e-9, ...points.map((p) => Math.max(stacks.reduce((sum, s) => sum + value(p, s.key), 0), ...lines.map((l) => value(p, l.key)))));
  const step = width / Math.max(1, points.length);
  const y = (v) => pad + height - (v / most) * height;
  return (
    <svg viewBox={`0 0 ${width} ${pad + height + 20}`} class="chart" role="img" aria-label={label}>
      {points.map((p, i) => {
        const x = i * step + step * 0.1;
        const w = step * 0.8;
        const parts = [...stacks, ...lines].map((s) => (s.name ? `${format(p[s.key])} ${s.name}` : format(p[s.key])));
        if (p.missing > 0) parts.push(`no data for ${Math.round(p.missing * 100)} % of it (allotd was down)`);
        let below = 0;
        return (
          <g data-missing={p.missing > 0 ? 'true' : undefined}>
            <title>{`${p.label}: ${parts.join(', ')}`}</title>
            {p.missing > 0 ? <rect class="bar-missing" x={i * step} y={pad} width={step} height={height} /> : null}
            {stacks.map((s) => {
              const h = (value(p, s.key) / most) * height;
              below += h;
              return <rect class={s.cls} x={x} y={pad + height - below} width={w} height={h} />;
            })}
            {i % every === 0 ? (
              <text x={i ? x + w / 2 : x} y={pad + height + 14} text-anchor={i ? 'middle' : 'start'} class="axis">
                {p.label}
              </text>
            ) : null}
          </g>
        );
      })}
      <text x={width} y={10} text-anchor="end" class="axis scale">
        {format(most)} at the top
      </text>
      {lines.map((l) => (
        <polyline class={l.cls} points={points.map((p, i) => `${i * step + step / 2},${y(value(p, l.key))}`).join(' ')} />
      ))}
    </svg>
  );
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
      {state.data && points.length === 0 ? <Empty>No GPU time was used in this range.</Empty> : null}
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
