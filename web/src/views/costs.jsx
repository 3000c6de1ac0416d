// Costs: the usage report per team or per project (GET
// /api/v1/reports/usage?by=team|project, docs/cost.md) over 1 h, 24 h, 7 d
// or 30 d, with the idle mode chosen (idle=separate, share-even or
// share-nominal; per project always separate): GPU-hours own and borrowed,
// their cost, the idle shared to each team or the cluster's idle line
// (cluster-wide callers), the measured GPU-hours and GPU utilisation ("not
// measured" where the report has null), with a CSV download of the same
// report, and GPU-hours over time: per UTC day from the report (by=day) over
// 7 d and 30 d, per minute (1 h) or hour (24 h) from the metering series of
// GET /api/v1/top/stats (the teams whose reports the caller may get, as the
// report: each bucket's mean GPUs x its length); and the budgets (GET /api/v1/budgets) with
// spent against amount, thresholds reached and the forecast. The server
// decides what the caller sees: a team's roles get that team's rows and
// budgets only, so the page shows nothing else.
import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { useLive } from '../live.js';
import { formatTime, hours, money, percent } from '../format.js';
import { Empty, Fraction, Loading } from './common.jsx';
import { Bars, MissingNote, pointsOf } from './usage_chart.jsx';
import { seriesPoints, seconds } from './teams.jsx';

// GPU-hours per bucket of /top/stats, every team whose series the caller
// sees together: a bucket's mean GPUs times its hours.
export function statsHours(stats) {
  const per = stats.bucketSeconds / 3600;
  const points = [];
  for (const team of stats.teams.filter((t) => t.series)) {
    seriesPoints(team.series, stats.bucketSeconds, stats.missingData).forEach((p, i) => {
      const point = points[i] || (points[i] = { label: p.label, missing: p.missing, own: 0, borrowed: 0 });
      point.own += p.own * per;
      point.borrowed += p.borrowed * per;
    });
  }
  return points;
}

// Over 1 h and 24 h the chart is per minute or hour (/top/stats), else per day.
const FINE_RANGES = new Set(['1h', '24h']);

// Reports and budgets change slowly (budgets are evaluated every 10 s):
// asked every 5 s, not every second.
const COSTS_EVERY_MS = 5000;

export const COST_RANGES = [
  { id: '1h', label: '1 h', ms: 3600e3 },
  { id: '24h', label: '24 h', ms: 86400e3 },
  { id: '7d', label: '7 d', ms: 7 * 86400e3 },
  { id: '30d', label: '30 d', ms: 30 * 86400e3 },
];

// The columns of `allot report usage -o csv` (src/cli/output/usage_report_output.cc).
const CSV_FIGURES = [
  'gpuHours',
  'ownGpuHours',
  'borrowedGpuHours',
  'cpuHours',
  'memoryGiBHours',
  'idleGpuHours',
  'cost',
  'ownCost',
  'borrowedCost',
];

function csvField(value) {
  const text = String(value ?? '');
  return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

// Measured GPU time and utilisation: null where nothing was measured (empty
// in CSV, "not measured" on the page), never 0.
const CSV_EFFICIENCY = ['measuredGpuHours', 'gpuUtilization'];

function measured(value) {
  return typeof value === 'number' && Number.isFinite(value);
}

export function usageCsv(report) {
  const keys = report.by || [];
  const lines = [[...keys, ...CSV_FIGURES, 'currency', ...CSV_EFFICIENCY].join(',')];
  const line = (row, total) => {
    const cells = keys.map((key, i) => (total ? (i === 0 ? 'total' : '') : csvField(row[key])));
    for (const figure of CSV_FIGURES) cells.push(String(Number(row[figure]) || 0));
    cells.push(csvField(report.currency || ''));
    for (const figure of CSV_EFFICIENCY) cells.push(measured(row[figure]) ? String(row[figure]) : '');
    lines.push(cells.join(','));
  };
  for (const row of report.rows || []) line(row, false);
  line(report.totals || {}, true);
  return `${lines.join('\n')}\n`;
}

// A blob: URL of the report already fetched (no second request, nothing
// inline), made on the click and dropped after it.
function downloadCsv(report, range) {
  const url = URL.createObjectURL(new Blob([usageCsv(report)], { type: 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `allot-usage-${range}.csv`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export const COST_GROUPS = [
  { id: 'team', label: 'Team' },
  { id: 'project', label: 'Project' },
];

// How the cluster's idle GPU time is shown (the report's `idle=`): its own
// line, or shared among the teams evenly or by nominal quota. A project
// cannot take shared idle (docs/cost.md), so per project it is separate.
export const IDLE_MODES = [
  { id: 'separate', label: 'separate' },
  { id: 'share-even', label: 'shared evenly' },
  { id: 'share-nominal', label: 'shared by quota' },
];

function rowName(group, row) {
  if (group === 'project') return row.project ? row.project : '(no contract)';
  return row.team;
}

const NOT_MEASURED = 'not measured';

function Efficiency({ row }) {
  return (
    <>
      <td class="measured" data-testid="measured">
        {measured(row.measuredGpuHours) ? hours(row.measuredGpuHours) : NOT_MEASURED}
      </td>
      <td data-testid="utilization">{measured(row.gpuUtilization) ? percent(row.gpuUtilization) : NOT_MEASURED}</td>
    </>
  );
}

function UsageTable({ report, group }) {
  const rows = report.rows || [];
  const currency = report.currency || '';
  const totals = report.totals || {};
  const shared = report.idle && report.idle.mode && report.idle.mode !== 'separate';
  const label = COST_GROUPS.find((g) => g.id === group).label;
  const figures = (r) => (
    <>
      <td>{hours(r.ownGpuHours)}</td>
      <td>{hours(r.borrowedGpuHours)}</td>
      <td>{hours(r.gpuHours)}</td>
      <td>{money(r.ownCost, currency)}</td>
      <td>{money(r.borrowedCost, currency)}</td>
      {shared ? <td>{hours(r.idleGpuHours)}</td> : null}
      {shared ? <td>{money(r.idleCost, currency)}</td> : null}
      <td>{money(r.totalCost ?? r.cost, currency)}</td>
      <Efficiency row={r} />
    </>
  );
  return (
    <table class="costs">
      <caption class="sr-only">GPU-hours and cost per {label.toLowerCase()}</caption>
      <thead>
        <tr>
          <th scope="col">{label}</th>
          <th scope="col">GPU-hours own</th>
          <th scope="col">GPU-hours borrowed</th>
          <th scope="col">GPU-hours</th>
          <th scope="col">Cost own</th>
          <th scope="col">Cost borrowed</th>
          {shared ? <th scope="col">Idle GPU-hours shared</th> : null}
          {shared ? <th scope="col">Idle cost</th> : null}
          <th scope="col">Cost</th>
          <th scope="col" class="measured">
            GPU-hours measured
          </th>
          <th scope="col">GPU utilisation</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr data-team={group === 'team' ? r.team : undefined} data-project={group === 'project' ? r.project : undefined}>
            <th scope="row">{rowName(group, r)}</th>
            {figures(r)}
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          {figures(totals)}
        </tr>
      </tfoot>
    </table>
  );
}

function Choice({ label, options, value, onChoose, disabled }) {
  return (
    <div class="range" role="group" aria-label={label}>
      <span class="legend">{label}:</span>{' '}
      {options.map((o) => (
        <button type="button" aria-pressed={value === o.id} disabled={disabled} onClick={() => onChoose(o.id)}>
          {o.label}
        </button>
      ))}
    </div>
  );
}

function Usage() {
  const [range, setRange] = useState('24h');
  const [group, setGroup] = useState('team');
  const [idleMode, setIdleMode] = useState('separate');
  const idle = group === 'project' ? 'separate' : idleMode;
  const span = COST_RANGES.find((r) => r.id === range).ms;
  const state = useLive(
    async () => {
      const to = new Date();
      const from = new Date(to.getTime() - span);
      const ask = (by, mode) =>
        api.get(`/api/v1/reports/usage${query({ from: from.toISOString(), to: to.toISOString(), by, idle: mode })}`);
      const fine = FINE_RANGES.has(range);
      const [teams, days, stats] = await Promise.all([
        ask(group, idle),
        fine ? null : ask('day', 'separate'),
        // Refused (no workload list anywhere): the table without the chart.
        fine ? api.optional(`/api/v1/top/stats${query({ range })}`).catch(() => null) : null,
      ]);
      return { teams, days, stats };
    },
    [range, group, idle],
    COSTS_EVERY_MS,
  );
  const report = state.data && state.data.teams;
  const stats = state.data && state.data.stats;
  const days = state.data && state.data.days ? pointsOf(state.data.days, true) : [];
  const fine = stats ? statsHours(stats) : [];
  return (
    <section aria-labelledby="usage-costs-title">
      <h2 id="usage-costs-title">Usage and cost per {group}</h2>
      <div class="range" role="group" aria-label="Time range">
        {COST_RANGES.map((r) => (
          <button type="button" aria-pressed={range === r.id} onClick={() => setRange(r.id)}>
            {r.label}
          </button>
        ))}
      </div>
      <Choice label="Per" options={COST_GROUPS} value={group} onChoose={setGroup} />
      <Choice label="Idle" options={IDLE_MODES} value={idle} onChoose={setIdleMode} disabled={group === 'project'} />
      {group === 'project' ? <p class="legend">Projects are contracts; idle time stays separate per project.</p> : null}
      <Loading state={state} />
      {report && !(report.rows || []).length ? (
        <Empty>No GPU time was used in this range. Pick a longer range; costs appear once workloads run on a flavor with a price (spec.price, docs/cost.md).</Empty>
      ) : null}
      {report && (report.rows || []).length ? (
        <>
          <UsageTable report={report} group={group} />
          <IdleLine report={report} />
          <p class="legend">
            {report.currency ? `Costs in ${report.currency}. ` : 'No flavor has a price yet (spec.price). '}
            {(report.missingData || []).length ? `${report.missingData.length} period(s) without data (allotd was down). ` : ''}
            <button type="button" onClick={() => downloadCsv(report, `${group}-${range}`)}>
              Download CSV
            </button>
          </p>
          <h3>GPU-hours per {stats ? seconds(stats.bucketSeconds) : 'day'}</h3>
          {stats ? <MissingNote missingData={stats.missingData} /> : null}
          {fine.length ? (
            <figure data-chart="costs-over-time">
              <Bars points={fine} every={Math.ceil(fine.length / 6)} />
            </figure>
          ) : null}
          {days.length ? (
            <figure data-chart="costs-over-time">
              <Bars points={days} />
            </figure>
          ) : null}
          <p class="legend">
            <span class="swatch own" /> own <span class="swatch borrowed" /> borrowed
            {stats ? ' (the metering series: corrections from the backend count in the table only)' : ' (days in UTC)'}
          </p>
        </>
      ) : null}
    </section>
  );
}

// The cluster's idle GPU-hours per flavor: cluster-wide callers only (a
// team's report has `clusterWide: false` and no flavors).
function IdleLine({ report }) {
  const flavors = (report.idle && report.idle.flavors) || [];
  if (!flavors.length) return null;
  return (
    <p class="legend" data-testid="idle">
      Idle:{' '}
      {flavors
        .map(
          (f) =>
            `${f.flavor} ${hours(f.idleGpuHours)} of ${hours(f.capacityGpuHours)} capacity (${money(f.idleCost, report.currency)})`,
        )
        .join('; ')}
    </p>
  );
}

function periodText(period) {
  if (!period) return '—';
  if (typeof period === 'string') return period;
  return `${formatTime(period.from)} – ${formatTime(period.to)}`;
}

function Thresholds({ spec, status }) {
  const reached = new Set((status && status.reached) || []);
  const list = spec.thresholds || [0.5, 0.8, 1.0];
  return (
    <ul class="thresholds">
      {list.map((t) => (
        <li class={reached.has(t) ? 'reached' : ''}>
          {percent(t)}
          {reached.has(t) ? ' reached' : ''}
        </li>
      ))}
    </ul>
  );
}

function BudgetRow({ budget }) {
  const { spec } = budget;
  const status = budget.status || {};
  const used = Number(status.used) || 0;
  return (
    <tr data-budget={budget.metadata.name}>
      <th scope="row">{budget.metadata.name}</th>
      <td>{spec.team}</td>
      <td>{periodText(spec.period)}</td>
      <td>
        <Fraction value={used} label={`${percent(used)} of the budget used`} /> {money(status.spent, spec.currency)} of{' '}
        {money(spec.amount, spec.currency)} ({percent(used)})
      </td>
      <td>
        <Thresholds spec={spec} status={status} />
      </td>
      <td>
        {spec.action === 'stopAdmission' ? 'stops admission' : 'alerts'}
        {status.stopsAdmission ? ' (admission stopped)' : ''}
      </td>
      <td data-testid="forecast">
        {status.problem
          ? `not evaluated: ${status.problem}`
          : status.exhausted
            ? 'exhausted'
            : status.runsOut
              ? `runs out ${formatTime(status.runsOut)}`
              : 'lasts the period'}
      </td>
    </tr>
  );
}

function Budgets() {
  const state = useLive(() => api.get('/api/v1/budgets'), [], COSTS_EVERY_MS);
  const items = (state.data && state.data.items) || [];
  return (
    <section aria-labelledby="budgets-title">
      <h2 id="budgets-title">Budgets</h2>
      <Loading state={state} />
      {state.data && !items.length ? (
        <Empty>No budget applies to your teams. Apply a Budget (docs/cost.md) to track spend.</Empty>
      ) : null}
      {items.length ? (
        <table class="budgets">
          <caption class="sr-only">Budgets: spent against amount, thresholds and forecast</caption>
          <thead>
            <tr>
              <th scope="col">Budget</th>
              <th scope="col">Team</th>
              <th scope="col">Period</th>
              <th scope="col">Spent / amount</th>
              <th scope="col">Thresholds</th>
              <th scope="col">Action</th>
              <th scope="col">Forecast</th>
            </tr>
          </thead>
          <tbody>
            {items.map((b) => (
              <BudgetRow budget={b} />
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

export function Costs() {
  return (
    <>
      <h1>Costs</h1>
      <Usage />
      <Budgets />
    </>
  );
}
