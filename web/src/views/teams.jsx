// Teams: per team and flavor the GPU quota against usage, borrowed, lent,
// pending and admitted (GET /api/v1/top: aggregate numbers, visible to every
// team), per team the admission wait percentiles, the fair share and GPUs
// held, borrowed and lent over time with a range picker (GET
// /api/v1/top/stats: waits and series only for the teams the caller may see
// them of), with its quota as lines: nominal, and nominal + borrowing limit
// when it has one (the policy in force now, not its history), and the
// cohort tree they form.
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { TIME_BOUND_MS, useLive } from '../live.js';
import { count, gpus, percent } from '../format.js';
import { Empty, Loading } from './common.jsx';
import { MissingNote, RangePicker, missingIn } from './usage_chart.jsx';
import { StackedBars } from '../charts/stacked_bars.jsx';
import { CohortTree } from './cohort_tree.jsx';

function Meter({ used, nominal }) {
  const most = Math.max(used, nominal, 1);
  return (
    <span class="meter" role="img" aria-label={`${used} used of ${nominal} nominal`}>
      <span class="meter-nominal" style={{ width: `${(nominal / most) * 100}%` }} />
      <span class={`meter-used${used > nominal ? ' over' : ''}`} style={{ width: `${(used / most) * 100}%` }} />
    </span>
  );
}

const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export function seconds(value) {
  const n = Number(value) || 0;
  if (n < 60) return `${decimal.format(n)} s`;
  if (n < 3600) return `${decimal.format(n / 60)} min`;
  return `${decimal.format(n / 3600)} h`;
}

export function waitText(wait) {
  if (!wait) return 'not visible to you';
  if (!wait.admitted) return 'no admission in range';
  return `${seconds(wait.p50)} / ${seconds(wait.p90)} / ${seconds(wait.p99)} (${count(wait.admitted)})`;
}

export function fairShareText(f) {
  if (!f) return '—';
  if (f.share === null) return `weight ${decimal.format(f.weight)}, borrowing: last in line`;
  return `${percent(f.dominant)} borrowed share, weight ${decimal.format(f.weight)}`;
}

// A bucket's start as a label: the time of day within a day, else the date.
export function bucketLabel(start, bucketSeconds) {
  const date = new Date(start);
  if (bucketSeconds <= 3600) {
    return date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  }
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric', ...(bucketSeconds < 86400 ? { hour: '2-digit' } : {}) });
}

// A team's quota at bucket i: as it was at the bucket's end (the API's
// quotaSeries; null nominal: not recorded then), else the quota now.
function quotaAt(team, i) {
  const q = team.quotaSeries ? team.quotaSeries[i] : team;
  return q || { nominalGpus: null, ceilingGpus: null };
}

export function seriesPoints(series, bucketSeconds, missingData, team = {}) {
  return (series || []).map((b, i) => {
    const quota = quotaAt(team, i);
    return {
      label: bucketLabel(b.start, bucketSeconds),
      missing: missingIn(b.start, bucketSeconds, missingData),
      own: Math.max(0, b.gpus - b.borrowed),
      borrowed: b.borrowed,
      lent: b.lent,
      nominal: quota.nominalGpus,
      // No line where the quota is not known or has no borrowing limit.
      ceiling: quota.nominalGpus === null ? null : quota.ceilingGpus,
    };
  });
}

const TEAM_STACKS = [
  { key: 'own', cls: 'bar-own', name: 'own' },
  { key: 'borrowed', cls: 'bar-borrowed', name: 'borrowed' },
];

// Lent, the nominal quota and the ceiling (nominal + borrowing limit) when
// the team had one in the range: lines over the bars, as they were at each
// bucket (a line is not drawn where the quota was not recorded).
function teamLines(team) {
  const lines = [
    { key: 'lent', cls: 'line-lent', name: 'lent' },
    { key: 'nominal', cls: 'line-nominal', name: 'nominal quota', steps: true },
  ];
  const limited = (q) => q && q.nominalGpus !== null && q.ceilingGpus !== null && q.ceilingGpus !== undefined;
  if (team.quotaSeries ? team.quotaSeries.some(limited) : limited(team)) {
    lines.push({ key: 'ceiling', cls: 'line-ceiling', name: 'quota + borrowing limit', steps: true });
  }
  return lines;
}

function TeamSeries({ stats }) {
  const teams = stats.teams.filter((t) => t.series);
  if (!teams.length) return <Empty>No team's usage over time is visible to you. Ask an admin for a binding to your team's namespace.</Empty>;
  return teams.map((t) => {
    const points = seriesPoints(t.series, stats.bucketSeconds, stats.missingData, t);
    const used = points.some((p) => p.own || p.borrowed || p.lent);
    const ceiling = t.ceilingGpus === null || t.ceilingGpus === undefined ? 'no borrowing limit' : `${gpus(t.ceilingGpus)} with borrowing`;
    return (
      <figure data-series={t.team} data-nominal={t.nominalGpus} data-ceiling={t.ceilingGpus ?? ''}>
        <figcaption>
          {t.team}: quota {gpus(t.nominalGpus)}, {ceiling}
        </figcaption>
        <StackedBars
          points={points}
          stacks={TEAM_STACKS}
          lines={teamLines(t)}
          label={`${t.team}: GPUs held, borrowed and lent per ${seconds(stats.bucketSeconds)} against its quota`}
          every={Math.ceil(points.length / 6)}
          format={gpus}
        />
        {used ? null : <p class="hint">No GPU held, borrowed or lent in this range.</p>}
      </figure>
    );
  });
}

async function loadTeams(range) {
  const [top, stats] = await Promise.all([api.get('/api/v1/top'), api.get(`/api/v1/top/stats${query({ range })}`)]);
  return { ...top, stats };
}

export function Teams() {
  const [range, setRange] = useState('24h');
  const state = useLive(() => loadTeams(range), [range], TIME_BOUND_MS);
  const rows = ((state.data && state.data.teams) || []).filter((r) => r.resource === 'gpu');
  const stats = new Map(((state.data && state.data.stats.teams) || []).map((t) => [t.team, t]));
  return (
    <>
      <h1>Teams</h1>
      <Loading state={state} />
      {state.data && rows.length === 0 ? (
        <Empty>No team is visible to you yet. Apply a Team (allot apply -f team.yaml; docs/policy.md), or ask an admin for a binding to your team's namespace.</Empty>
      ) : null}
      {rows.length ? (
        <table class="teams">
          <caption class="sr-only">GPU quota and usage per team</caption>
          <thead>
            <tr>
              <th scope="col">Team</th>
              <th scope="col">Flavor</th>
              <th scope="col">Usage / quota</th>
              <th scope="col">Borrowed</th>
              <th scope="col">Lent</th>
              <th scope="col">Pending</th>
              <th scope="col">Admitted</th>
              <th scope="col">Wait p50 / p90 / p99</th>
              <th scope="col">Fair share</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr data-team={r.team}>
                <td>{r.team}</td>
                <td>{r.flavor}</td>
                <td>
                  <Meter used={Number(r.usage) || 0} nominal={Number(r.nominal) || 0} /> {gpus(r.usage)} of{' '}
                  {gpus(r.nominal)}
                </td>
                <td>{gpus(r.borrowed)}</td>
                <td>{gpus(r.lent)}</td>
                <td>{count(r.pending)}</td>
                <td>{count(r.admitted)}</td>
                <td data-stat="wait">{waitText(stats.get(r.team) && stats.get(r.team).wait)}</td>
                <td data-stat="fair-share">{fairShareText(stats.get(r.team) && stats.get(r.team).fairShare)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <section aria-labelledby="over-time">
        <h2 id="over-time">GPUs over time</h2>
        <RangePicker value={range} onChange={setRange} />
        <p class="legend">
          <span class="swatch own" /> own <span class="swatch borrowed" /> borrowed <span class="swatch lent" /> lent{' '}
          <span class="swatch nominal" /> nominal quota <span class="swatch ceiling" /> quota + borrowing limit · mean GPUs
          per {state.data ? seconds(state.data.stats.bucketSeconds) : 'period'}; the quota as it was in each, from when allotd first recorded it; waits over the same range
          {state.data && state.data.stats.fairSharing ? '' : ' (fair sharing is off: the shares are shown, not used)'}
        </p>
        {state.data ? <MissingNote missingData={state.data.stats.missingData} /> : null}
        {state.data ? <TeamSeries stats={state.data.stats} /> : null}
      </section>
      {rows.length ? <CohortTree rows={rows} /> : null}
    </>
  );
}
