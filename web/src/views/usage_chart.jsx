// GPU-hours over time from the usage report (GET /api/v1/reports/usage,
// docs/cost.md), own and borrowed, with a range picker (1 h, 24 h, 7 d,
// 30 d); one SVG bar chart, drawn here without a chart library, which Costs
// and Teams (GPUs held, borrowed and lent over time) draw with too.
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

// Stacked bars of own and borrowed per point; with `lent` on the points, a
// line of what was lent besides. `every`: an axis label every so many points.
export function Bars({ points, label = 'GPU-hours per period, own and borrowed', every = 1, format = hours }) {
  const width = 600;
  const height = 160;
  const most = Math.max(1e-9, ...points.map((p) => Math.max(p.own + p.borrowed, p.lent || 0)));
  const step = width / Math.max(1, points.length);
  const lent = points.some((p) => p.lent !== undefined)
    ? points.map((p, i) => `${i * step + step / 2},${height - ((p.lent || 0) / most) * height}`).join(' ')
    : null;
  return (
    <svg viewBox={`0 0 ${width} ${height + 20}`} class="chart" role="img" aria-label={label}>
      {points.map((p, i) => {
        const own = (p.own / most) * height;
        const borrowed = (p.borrowed / most) * height;
        const x = i * step + step * 0.1;
        const w = step * 0.8;
        const lentText = p.lent !== undefined ? `, ${format(p.lent)} lent` : '';
        return (
          <g>
            <title>{`${p.label}: ${format(p.own)} own, ${format(p.borrowed)} borrowed${lentText}`}</title>
            <rect class="bar-own" x={x} y={height - own} width={w} height={own} />
            <rect class="bar-borrowed" x={x} y={height - own - borrowed} width={w} height={borrowed} />
            {i % every === 0 ? (
              <text x={i ? x + w / 2 : x} y={height + 14} text-anchor={i ? 'middle' : 'start'} class="axis">
                {p.label}
              </text>
            ) : null}
          </g>
        );
      })}
      {lent ? <polyline class="line-lent" points={lent} /> : null}
    </svg>
  );
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
  return [...groups.values()].sort((a, b) => String(a.label).localeCompare(String(b.label)));
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
