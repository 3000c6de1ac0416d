// Hardware over time (GET /api/v1/top/hardware): the cluster's mean GPUs
// allocated, free and unhealthy per minute, hour, 6 hours or day of the
// chosen range (1 h, 24 h, 7 d, 30 d), stacked; the utilisation measured on
// them in a second chart when any was measured; periods without data (allotd
// was down) as grey bands. Aggregates of every team: no team is named. Live:
// fetched again on each change notice and every 15 s.
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { TIME_BOUND_MS, useLive } from '../live.js';
import { gpus, percent } from '../format.js';
import { Loading } from './common.jsx';
import { MissingNote, RangePicker } from './usage_chart.jsx';
import { StackedBars } from '../charts/stacked_bars.jsx';
import { bucketLabel, seconds } from './teams.jsx';

const GPU_STACKS = [
  { key: 'allocated', cls: 'bar-allocated', name: 'allocated' },
  { key: 'free', cls: 'bar-free', name: 'free' },
  { key: 'unhealthy', cls: 'bar-unhealthy', name: 'unhealthy' },
];
const UTILIZATION = [{ key: 'utilization', cls: 'bar-utilization', name: '' }];

function utilization(value) {
  return value === null || value === undefined ? 'not measured' : `${percent(value)} utilised`;
}

export function hardwarePoints(stats) {
  return stats.buckets.map((b) => ({ ...b, label: bucketLabel(b.start, stats.bucketSeconds) }));
}

export function HardwareChart() {
  const [range, setRange] = useState('24h');
  const state = useLive(() => api.get(`/api/v1/top/hardware${query({ range })}`), [range], TIME_BOUND_MS);
  const stats = state.data;
  const points = stats ? hardwarePoints(stats) : [];
  const every = Math.ceil(points.length / 6);
  const per = stats ? seconds(stats.bucketSeconds) : 'period';
  return (
    <section aria-labelledby="hardware-over-time">
      <h2 id="hardware-over-time">GPUs over time</h2>
      <RangePicker value={range} onChange={setRange} />
      <Loading state={state} />
      {stats ? (
        <>
          <p class="legend">
            <span class="swatch allocated" /> allocated <span class="swatch free" /> free <span class="swatch unhealthy" />{' '}
            unhealthy · mean GPUs per {per}, every team together; {gpus(stats.gpus)} now
          </p>
          <MissingNote missingData={stats.missingData} />
          <figure data-chart="hardware">
            <StackedBars points={points} stacks={GPU_STACKS} label={`GPUs allocated, free and unhealthy per ${per}`} every={every} format={gpus} />
          </figure>
          {points.some((p) => p.utilization !== null) ? (
            <figure data-chart="utilization">
              <figcaption>GPU utilisation measured, mean per {per}</figcaption>
              <StackedBars points={points} stacks={UTILIZATION} label={`GPU utilisation measured per ${per}`} every={every} format={utilization} top={1} />
            </figure>
          ) : (
            <p class="hint">No GPU utilisation measured in this range (allotd measures it where NVML is available).</p>
          )}
        </>
      ) : null}
    </section>
  );
}
