// Charts over time added for issue 16's "every view": Tasks' workloads
// pending and running (GET /api/v1/top/workloads), Signals' signals firing
// (GET /api/v1/top/signals), Teams' quota lines (nominal, and nominal +
// borrowing limit: GET /api/v1/top/stats's nominalGpus, ceilingGpus) and
// Costs' 1 h range (its chart per minute). Each chart draws the figures of the response the page
// fetched (checked bar by bar in its <title>), the admin's API gives the same
// as the page's, the range picker changes the request and the bar count,
// a change told by the change stream fetches again within 2 s; a viewer of
// alpha is sent only alpha's counts and never beta's names.

async function waitFor(probe, ms, what) {
  const until = Date.now() + ms;
  let last;
  while (!(last = await probe())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return last;
}

function latestBody(seen, pattern) {
  const bodies = seen.bodies.filter((r) => pattern.test(r.url) && r.status === 200);
  return bodies.length ? JSON.parse(bodies[bodies.length - 1].body) : null;
}

// Whether the chart in `figure` shows each of `stats`'s buckets: one <g> a
// bucket, whose title has the bucket's figures as the page formats them.
async function chartShows(page, figure, stats, keys) {
  return page.evaluate(
    ({ figure, buckets, keys }) => {
      const groups = [...document.querySelectorAll(`${figure} svg.chart > g`)];
      if (groups.length !== buckets.length) return false;
      const f = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
      return buckets.every((b, i) => {
        const title = groups[i].querySelector('title').textContent;
        return keys.every((k) => title.includes(`: ${f.format(b[k])} ${k}`) || title.includes(`, ${f.format(b[k])} ${k}`));
      });
    },
    { figure, buckets: stats.buckets, keys },
  );
}

const sum = (stats, key) => stats.buckets.reduce((n, b) => n + b[key], 0);

async function rangeAndLive(page, admin, seen, { section, route, figure, bucketClass, assert }) {
  const picker = page.locator(section).getByRole('group', { name: 'Time range' });
  const [request] = await Promise.all([
    page.waitForRequest((r) => route.test(r.url()) && /range=1h/.test(r.url())),
    picker.getByRole('button', { name: '1 h' }).click(),
  ]);
  assert(/range=1h/.test(request.url()), `the picker asked ${request.url()}`);
  await page.waitForFunction(
    ({ figure, bucketClass }) => document.querySelectorAll(`${figure} rect.${bucketClass}`).length === 60,
    { figure, bucketClass },
  );
  await picker.getByRole('button', { name: '7 d' }).click();
  await page.waitForFunction(
    ({ figure, bucketClass }) => document.querySelectorAll(`${figure} rect.${bucketClass}`).length === 28,
    { figure, bucketClass },
  );
  // Live: a node's change (told by the change stream) fetches the counts again.
  const before = seen.requests.filter((u) => route.test(u)).length;
  const t0 = Date.now();
  for (const verb of ['cordon', 'uncordon']) {
    const reply = await admin.post(`/api/v1/nodes/node-0/${verb}`, {});
    assert(reply.status === 200, `${verb}: ${reply.status} ${reply.text}`);
  }
  await waitFor(async () => seen.requests.filter((u) => route.test(u)).length > before, 2000, `${route} fetched again`);
  return Date.now() - t0;
}

const WORKLOADS = /\/api\/v1\/top\/workloads\?range=/;
const SIGNALS = /\/api\/v1\/top\/signals\?range=/;

export async function tasksChartChecks(page, admin, seen, { visit, axeCheck, assert, screenshot }) {
  await visit(page, '#/tasks', 'Tasks', 'tasks-chart');
  const figure = 'figure[data-chart="tasks-over-time"]';
  await page.locator(figure).waitFor();
  // The page draws what it was sent, and that is the admin's API's answer
  // (the last hour's bucket moves with the clock: within 0.01 of it).
  const shown = await waitFor(async () => {
    const body = latestBody(seen, /\/api\/v1\/top\/workloads\?range=24h$/);
    return body && (await chartShows(page, figure, body, ['running', 'pending'])) ? body : null;
  }, 5000, 'the Tasks chart draws the API\'s counts');
  const api = (await admin.get('/api/v1/top/workloads?range=24h')).json;
  assert(api.buckets.length === 24 && shown.buckets.length === 24, '24 hourly buckets');
  assert(Math.abs(sum(api, 'running') - sum(shown, 'running')) < 0.01, `running: ${sum(api, 'running')} vs ${sum(shown, 'running')}`);
  assert(shown.buckets[23].running > 0 && shown.buckets[23].pending > 0, `alpha-train runs, alpha-huge waits: ${JSON.stringify(shown.buckets[23])}`);
  await screenshot('tasks-chart');
  const ms = await rangeAndLive(page, admin, seen, {
    section: 'section[aria-labelledby="tasks-over-time-title"]', route: WORKLOADS, figure, bucketClass: 'bar-running', assert,
  });
  console.log(`figure: Tasks fetched its counts again ${ms} ms after a change`);
  await axeCheck(page, 'tasks with chart');
}

export async function signalsChartChecks(page, admin, seen, { visit, axeCheck, assert, screenshot }) {
  await visit(page, '#/signals', 'Signals', 'signals-chart');
  const figure = 'figure[data-chart="signals-over-time"]';
  await page.locator(figure).waitFor();
  const shown = await waitFor(async () => {
    const body = latestBody(seen, /\/api\/v1\/top\/signals\?range=24h$/);
    return body && body.buckets[23].firing > 0 && (await chartShows(page, figure, body, ['firing'])) ? body : null;
  }, 5000, 'the Signals chart draws the API\'s firing counts (alpha-busy fires)');
  const api = (await admin.get('/api/v1/top/signals?range=24h')).json;
  assert(Math.abs(sum(api, 'firing') - sum(shown, 'firing')) < 0.01, `firing: ${sum(api, 'firing')} vs ${sum(shown, 'firing')}`);
  await screenshot('signals-chart');
  const ms = await rangeAndLive(page, admin, seen, {
    section: 'section[aria-labelledby="signals-over-time-title"]', route: SIGNALS, figure, bucketClass: 'bar-firing', assert,
  });
  console.log(`figure: Signals fetched its counts again ${ms} ms after a change`);
  await axeCheck(page, 'signals with chart');
}

// Teams: each team's quota as lines, the API's nominal and ceiling as they
// were at each bucket (quotaSeries).
export async function teamQuotaLineChecks(page, admin, { visit, assert }) {
  await visit(page, '#/teams', 'Teams', 'teams-quota');
  const stats = (await admin.get('/api/v1/top/stats?range=24h')).json;
  const alpha = stats.teams.find((t) => t.team === 'alpha');
  const beta = stats.teams.find((t) => t.team === 'beta');
  assert(alpha.nominalGpus === 4 && alpha.ceilingGpus === null, `alpha's quota: ${JSON.stringify(alpha)}`);
  assert(beta.nominalGpus === 4 && beta.ceilingGpus === 6, `beta's quota: ${JSON.stringify(beta)}`);
  // A flat line has no height: attached, not "visible" to Playwright.
  await page.locator('figure[data-series="alpha"] polyline.line-nominal').waitFor({ state: 'attached' });
  assert((await page.locator('figure[data-series="alpha"] polyline.line-ceiling').count()) === 0, 'alpha: no ceiling line');
  await page.locator('figure[data-series="beta"] polyline.line-ceiling').waitFor({ state: 'attached' });
  // As it was at each bucket (quotaSeries): the last bucket's is the quota
  // now; before allotd recorded any (it started minutes ago) it is not known
  // and the lines skip those buckets.
  const bars = page.locator('figure[data-series="beta"] svg.chart > g title');
  const title = await bars.last().textContent();
  assert(/4 GPUs nominal quota, 6 GPUs quota \+ borrowing limit/.test(title), `beta's last bar: ${title}`);
  const first = await bars.first().textContent();
  assert(/nominal quota not known, quota \+ borrowing limit not known/.test(first), `beta's first bar: ${first}`);
  const known = beta.quotaSeries.filter((q) => q.nominalGpus !== null);
  assert(beta.quotaSeries.length === 24 && known.length >= 1 && known.length < 24, `beta's quotaSeries: ${JSON.stringify(beta.quotaSeries)}`);
  assert(known.every((q) => q.nominalGpus === 4 && q.ceilingGpus === 6), `beta's known quota: ${JSON.stringify(known)}`);
  const drawn = await page.locator('figure[data-series="beta"] polyline.line-nominal').getAttribute('data-points');
  assert(Number(drawn) === known.length, `beta's nominal line through ${drawn} buckets, ${known.length} known`);
  const caption = await page.locator('figure[data-series="beta"] figcaption').textContent();
  assert(caption === 'beta: quota 4 GPUs, 6 GPUs with borrowing', `beta's caption: ${caption}`);
}

// Costs: the range picker offers 1 h; the report asked for is that hour's,
// and the chart over time has its 60 minutes.
export async function costsHourChecks(page, admin, seen, { visit, assert }) {
  await visit(page, '#/costs', 'Costs', 'costs-1h');
  const picker = page.locator('section[aria-labelledby="usage-costs-title"]').getByRole('group', { name: 'Time range' });
  const HOUR_STATS = /\/api\/v1\/top\/stats\?range=1h$/;
  const statsBefore = seen.bodies.filter((r) => HOUR_STATS.test(r.url)).length; // Teams' own
  const [request] = await Promise.all([
    page.waitForRequest((r) => /\/api\/v1\/reports\/usage\?.*by=team/.test(r.url())),
    picker.getByRole('button', { name: '1 h' }).click(),
  ]);
  const url = new URL(request.url());
  const span = Date.parse(url.searchParams.get('to')) - Date.parse(url.searchParams.get('from'));
  assert(span === 3600e3, `the 1 h report spans ${span} ms`);
  assert((await picker.getByRole('button', { name: '1 h' }).getAttribute('aria-pressed')) === 'true', '1 h pressed');
  const row = page.locator('tr[data-team="alpha"]');
  await row.waitFor();
  const report = await waitFor(async () => {
    const bodies = seen.bodies.filter((r) => r.url === request.url() && r.status === 200);
    return bodies.length ? JSON.parse(bodies[0].body) : null;
  }, 5000, 'the 1 h report');
  const alpha = report.rows.find((r) => r.team === 'alpha');
  assert(alpha && alpha.gpuHours > 0 && alpha.gpuHours <= 8, `alpha's hour: ${JSON.stringify(alpha)}`);
  // The chart: 60 minutes of GPU-hours from /top/stats' series, adding up to
  // the report's hour (both from the ledger, asked for together: within
  // 0.002 GPU-h, 7 s of one GPU).
  await page.waitForFunction(() => document.querySelectorAll('figure[data-chart="costs-over-time"] rect.bar-own').length === 60);
  await waitFor(async () => seen.bodies.filter((r) => HOUR_STATS.test(r.url)).length > statsBefore, 5000, 'Costs\' /top/stats');
  const stats = latestBody(seen, HOUR_STATS);
  const charted = stats.teams.filter((t) => t.series).reduce((n, t) => n + t.series.reduce((m, b) => m + b.gpus / 60, 0), 0);
  assert(Math.abs(charted - report.totals.gpuHours) < 0.002, `chart ${charted} GPU-h, report ${report.totals.gpuHours}`);
  const again = await admin.get(`/api/v1/reports/usage${url.search}`);
  assert(again.status === 200 && again.json.rows.find((r) => r.team === 'alpha').gpuHours === alpha.gpuHours,
    'the API answers the same hour the same');
}

// A viewer of alpha: the Tasks chart counts alpha's workloads only (the
// list's visibility), and no response names beta.
export async function tasksChartViewerChecks(page, admin, seen, { visit, assert }) {
  await visit(page, '#/tasks', 'Tasks', 'viewer-tasks-chart');
  await page.locator('figure[data-chart="tasks-over-time"] svg.chart').waitFor();
  const viewer = await waitFor(async () => latestBody(seen, WORKLOADS), 5000, 'the viewer\'s counts');
  const everyone = (await admin.get('/api/v1/top/workloads?range=24h')).json;
  const alphaOnly = (await admin.get('/api/v1/top/workloads?range=24h&namespace=alpha')).json;
  // beta's running workload (minutes of it: > 0.005 of an hour) counts for
  // the admin, not for the viewer, who gets alpha's (the clock moves a few
  // milliseconds between the requests: within 0.002).
  assert(sum(everyone, 'running') - sum(viewer, 'running') > 0.005, `viewer ${sum(viewer, 'running')} of ${sum(everyone, 'running')}`);
  assert(Math.abs(sum(alphaOnly, 'running') - sum(viewer, 'running')) < 0.002, `viewer ${sum(viewer, 'running')}, alpha ${sum(alphaOnly, 'running')}`);
  const bodies = seen.bodies.filter((r) => WORKLOADS.test(r.url));
  assert(bodies.every((r) => !/beta/.test(r.body)), 'no beta in the counts');
}
