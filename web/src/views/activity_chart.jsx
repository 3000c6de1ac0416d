// Counts over time: the Tasks view's workloads pending and running (GET
// /api/v1/top/workloads) and the Signals view's signals firing (GET
// /api/v1/top/signals), the mean number per minute, hour, 6 hours or day of
// the chosen range (1 h, 24 h, 7 d, 30 d), drawn with StackedBars; periods
// without data (allotd was down) as grey bands. The server counts only what
// the caller may see (the workload list's visibility; signals to whoever may
// list them), and names nothing. Live: fetched again on each change notice.
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { TIME_BOUND_MS, useLive } from '../live.js';
import { Loading } from './common.jsx';
import { MissingNote, RangePicker } from './usage_chart.jsx';
import { StackedBars } from '../charts/stacked_bars.jsx';
import { bucketLabel, seconds } from './teams.jsx';

const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const mean = (value) => decimal.format(Number(value) || 0);

export const WORKLOAD_STACKS = [
  { key: 'running', cls: 'bar-running', name: 'running' },
  { key: 'pending', cls: 'bar-pending', name: 'pending' },
];
export const SIGNAL_STACKS = [{ key: 'firing', cls: 'bar-firing', name: 'firing' }];

// `path`: the API's route; `params`: besides the range (the list's filter);
// `stacks`: the figures; `title`, `what`: the heading and what is counted.
export function ActivityChart({ id, path, params = {}, stacks, title, what, empty }) {
  const [range, setRange] = useState('24h');
  const state = useLive(() => api.get(`${path}${query({ range, ...params })}`), [range, ...Object.values(params)], TIME_BOUND_MS);
  const stats = state.data;
  const points = stats ? stats.buckets.map((b) => ({ ...b, label: bucketLabel(b.start, stats.bucketSeconds) })) : [];
  const per = stats ? seconds(stats.bucketSeconds) : 'period';
  const any = points.some((p) => stacks.some((s) => p[s.key] > 0));
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <RangePicker value={range} onChange={setRange} />
      <Loading state={state} />
      {stats ? (
        <>
          <p class="legend">
            {stacks.map((s) => (
              <>
                <span class={`swatch ${s.key}`} /> {s.name}{' '}
              </>
            ))}
            · mean {what} per {per}
          </p>
          <MissingNote missingData={stats.missingData} />
          <figure data-chart={id}>
            <StackedBars points={points} stacks={stacks} label={`${title}: mean ${what} per ${per}`} every={Math.ceil(points.length / 6)} format={mean} />
          </figure>
          {any ? null : <p class="hint">{empty}</p>}
        </>
      ) : null}
    </section>
  );
}
