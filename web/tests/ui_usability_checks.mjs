// Checks of ui_usability_test.mjs: live updates of Overview, a workload's
// page and Contracts; Contracts' chart over time against the contracts'
// histories the API serves; every view at 1280x800 and on a 390 px phone,
// dark and light. The helpers (check, assert, until, visit, ...) are the
// test's, passed in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PASSWORD, workload } from './ui_fixtures.mjs';

const VIEWS = [
  ['overview', 'Overview'],
  ['hardware', 'Hardware'],
  ['teams', 'Teams'],
  ['tasks', 'Tasks'],
  ['costs', 'Costs'],
  ['signals', 'Signals'],
  ['contracts', 'Contracts'],
  ['tasks/alpha/alpha-run', 'alpha/alpha-run'],
];

// The CSV's figures, in the CLI's columns, against a report the page fetched:
// every cell the JSON's value (numbers compared as numbers: the CLI writes
// 17 digits, the page the shortest that reads back the same).
const FIGURES = ['gpuHours', 'ownGpuHours', 'borrowedGpuHours', 'cpuHours', 'memoryGiBHours', 'idleGpuHours', 'cost',
  'ownCost', 'borrowedCost'];
function csvMatches(lines, report) {
  const rows = [...(report.rows || []).map((r) => [r.team, r]), ['total', report.totals]];
  if (lines.length !== rows.length + 1) return false;
  return rows.every(([name, row], i) => {
    const cells = lines[i + 1].split(',');
    const want = [name, ...FIGURES.map((f) => Number(row[f]) || 0), report.currency || '',
      row.measuredGpuHours ?? '', row.gpuUtilization ?? ''];
    return cells.length === want.length &&
      want.every((w, j) => (typeof w === 'number' ? Number(cells[j]) === w : cells[j] === String(w)));
  });
}

export async function costsCsvChecks({ page, seen }, { check, assert, visit }) {
  await check("Costs' CSV download is the report the page fetched from the API, figure by figure", async () => {
    await visit(page, '#/costs', 'Costs');
    await page.locator('tr[data-team="alpha"]').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const lines = readFileSync(await download.path(), 'utf8').trim().split('\n');
    assert(lines[0] === `team,${FIGURES.join(',')},currency,measuredGpuHours,gpuUtilization`, `header: ${lines[0]}`);
    const byTeam = seen.reports.filter((r) => JSON.stringify(r.by) === '["team"]');
    assert(byTeam.length, 'a report by team was fetched');
    assert(byTeam.some((r) => r.totals && r.totals.gpuHours > 0), 'GPU time was used');
    assert(byTeam.some((r) => csvMatches(lines, r)), `the CSV is none of the ${byTeam.length} reports fetched: ${lines.join(' | ')}`);
  });
}

// Overview's GPU-hours chart: per team over 24 h and 1 h, per day over 7 d
// and 30 d, each bar a group of the report the page fetched for that range.
export async function overviewChartChecks({ page, seen }, { check, assert, until, visit }) {
  await check("Overview's GPU-hours chart draws the usage report of the range picked (1 h, 24 h, 7 d, 30 d)", async () => {
    await visit(page, '#/overview', 'Overview');
    const chart = page.locator('section', { has: page.locator('#usage-title') });
    for (const [range, hours, by] of [['1 h', 1, 'team'], ['24 h', 24, 'team'], ['7 d', 168, 'day'], ['30 d', 720, 'day']]) {
      const before = seen.reports.length;
      await chart.getByRole('button', { name: range }).click();
      await chart.getByRole('heading', { name: `GPU-hours per ${by}` }).waitFor();
      let report;
      await until(() => {
        report = seen.reports.slice(before).find((r) => JSON.stringify(r.by) === JSON.stringify([by]) &&
          Math.abs(new Date(r.to) - new Date(r.from) - hours * 3600e3) < 5000);
        return report;
      }, 5000, `a report by ${by} over ${hours} h`);
      const groups = [...new Set(report.rows.map((r) => r[by]))].sort();
      assert(groups.length >= 1, `${range}: some GPU time: ${JSON.stringify(report.rows)}`);
      await until(async () => {
        const titles = await chart.locator('svg g title').allTextContents();
        return JSON.stringify(titles.map((t) => t.split(':')[0])) === JSON.stringify(groups);
      }, 3000, `${range}: one bar per ${by} of the report (${groups})`);
    }
  });
}

// Hardware names the team holding each GPU, as the API places the workloads.
export async function gpuHolderChecks({ page }, admin, { check, assert, visit }) {
  await check("Hardware says which team holds each GPU, as the workloads' placements in the API", async () => {
    await visit(page, '#/hardware', 'Hardware');
    for (const [ns, name] of [['alpha', 'alpha-run'], ['beta', 'beta-run']]) {
      const w = (await admin.get(`/api/v1/namespaces/${ns}/workloads/${name}`)).json;
      const pods = w.status.podSets.flatMap((s) => s.pods);
      assert(pods.length === 1 && pods[0].gpus.length === 1, `${name}: ${JSON.stringify(w.status.podSets)}`);
      const { node, gpus } = pods[0];
      const row = page.locator('tbody tr', { has: page.getByRole('link', { name: node, exact: true }) });
      const title = await row.locator('.gpu').nth(gpus[0]).getAttribute('title');
      assert(title === `GPU ${gpus[0]}: allocated to ${ns} (${ns}/${name})`, `${node} GPU ${gpus[0]}: ${title}`);
    }
    const free = await page.locator('.gpu-free').first().getAttribute('title');
    assert(/^GPU \d: free$/.test(free), `a free GPU: ${free}`);
    // A node's page says it too.
    const w = (await admin.get('/api/v1/namespaces/alpha/workloads/alpha-run')).json;
    const { node, gpus } = w.status.podSets[0].pods[0];
    await visit(page, `#/hardware/${node}`, `Node ${node}`);
    const cell = page.locator('.gpu').nth(gpus[0]);
    await page.waitForFunction(([i]) => {
      const c = document.querySelectorAll('.gpu')[i];
      return c && /allocated to alpha/.test(c.getAttribute('title'));
    }, [gpus[0]]);
    assert((await cell.getAttribute('title')) === `GPU ${gpus[0]}: allocated to alpha (alpha/alpha-run)`, await cell.getAttribute('title'));
  });
}

// Overview's pending count and a workload's phase follow a change within 2 s.
export async function liveChecks({ page }, admin, { check, assert, until, visit, releaseLog }) {
  await check('Overview and a workload\'s page update within 2 s of a change, without a reload', async () => {
    await visit(page, '#/overview', 'Overview');
    const pending = page.locator('.stat', { hasText: 'pending workloads' }).locator('.stat-value');
    await pending.waitFor();
    const before = Number(await pending.textContent());
    await page.evaluate(() => (window.notReloaded = true));
    const t0 = Date.now();
    const reply = await admin.post('/api/v1/namespaces/alpha/workloads', workload('alpha-wait', 4, 'true', 2));
    assert(reply.status === 201, `submit: ${reply.status} ${reply.text}`);
    await until(async () => Number(await pending.textContent()) === before + 1, 2000, `pending ${before} -> ${before + 1}`);
    console.log(`figure: Overview's pending count ${Date.now() - t0} ms after the submit`);
    await visit(page, '#/tasks/alpha/alpha-wait', 'alpha/alpha-wait');
    await page.locator('.phase-pending').first().waitFor();
    const t1 = Date.now();
    const cancelled = await admin.post('/api/v1/namespaces/alpha/workloads/alpha-wait/cancel');
    assert(cancelled.status === 200, `cancel: ${cancelled.status} ${cancelled.text}`);
    await page.locator('.phase-cancelled').first().waitFor({ timeout: 2000 });
    console.log(`figure: a workload's page Cancelled ${Date.now() - t1} ms after the cancel`);
    assert(await page.evaluate(() => window.notReloaded === true), 'the page was not reloaded');
  });
  await check("a workload's log is followed: a line printed later appears without a reload", async () => {
    await visit(page, '#/tasks/alpha/alpha-run', 'alpha/alpha-run');
    const log = page.getByLabel('Log of pod 0');
    await log.getByText('started').waitFor();
    const t0 = Date.now();
    assert(!/followed-line/.test(await log.textContent()), 'the later line is not there yet');
    releaseLog(); // the workload prints it once this file exists
    await until(async () => /followed-line/.test(await log.textContent()), 2000, 'the later line');
    console.log(`figure: a later log line shown ${Date.now() - t0} ms after it was released`);
  });
}

// The contracts in each phase at `ms` (epoch ms), from the API's histories.
function phasesAt(contracts, ms) {
  const counts = { Active: 0, UnderReview: 0, Approved: 0, Draft: 0 };
  for (const c of contracts) {
    const steps = (c.status.history || []).filter((h) => new Date(h.at).getTime() <= ms);
    const phase = steps.length ? steps[steps.length - 1].to : null;
    if (phase in counts) counts[phase]++;
  }
  return `${counts.Active} active, ${counts.UnderReview} under review, ${counts.Approved} approved, ${counts.Draft} draft`;
}

async function bars(page) {
  return page.locator('[data-chart="contracts-over-time"] svg g title').allTextContents();
}

// The chart's bars are the API's contracts counted per phase: the last one
// now, the first one before any contract existed; 24, 60 or 28 of them.
async function expectBars(page, admin, count, assert, until) {
  let shown = [];
  await until(async () => {
    shown = await bars(page);
    return shown.length === count;
  }, 2000, `${count} bars`);
  const contracts = (await admin.get('/api/v1/contracts')).json.items;
  const last = shown[shown.length - 1];
  assert(last.endsWith(`: ${phasesAt(contracts, Date.now())}`), `the last bar: ${last}, want ${phasesAt(contracts, Date.now())}`);
  assert(shown[0].endsWith(': 0 active, 0 under review, 0 approved, 0 draft'), `the first bar: ${shown[0]}`);
  return shown;
}

export async function contractChartChecks({ page }, admin, base, { check, assert, until, visit, axeCheck, artifacts }) {
  await check("Contracts draws each phase over time from the contracts' histories, with the range picker, live", async () => {
    await visit(page, '#/contracts', 'Contracts');
    await page.screenshot({ path: join(artifacts, 'contracts-before-chart.png'), fullPage: true });
    await page.locator('[data-contract="alpha-research"]').waitFor();
    const day = await expectBars(page, admin, 24, assert, until);
    assert(day[23].endsWith(': 0 active, 0 under review, 0 approved, 2 draft'), `two drafts now: ${day[23]}`);
    // carla, a second cluster admin, approves one over the API: the card and the chart follow.
    const login = await fetch(`${base}/api/v1/sessions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'carla', password: PASSWORD }),
    });
    const { token } = await login.json();
    const t0 = Date.now();
    const approved = await fetch(`${base}/api/v1/contracts/alpha-research/approve`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ reason: 'data reviewed' }),
    });
    assert(approved.status === 200, `approve: ${approved.status} ${await approved.text()}`);
    await page.locator('[data-contract="alpha-research"] h2 .phase').getByText('Approved').waitFor({ timeout: 2000 });
    await until(async () => (await bars(page))[23].endsWith(': 0 active, 0 under review, 1 approved, 1 draft'), 2000,
      'the last bar counts the approval');
    console.log(`figure: Contracts showed the approval ${Date.now() - t0} ms after the API's answer`);
    await page.getByRole('button', { name: '1 h' }).click();
    await expectBars(page, admin, 60, assert, until);
    await page.screenshot({ path: join(artifacts, 'contracts-chart.png'), fullPage: true });
    await page.getByRole('button', { name: '7 d' }).click();
    await expectBars(page, admin, 28, assert, until);
    await page.getByRole('button', { name: '30 d' }).click();
    await expectBars(page, admin, 30, assert, until);
    await axeCheck(page, 'contracts chart');
  });
}

async function background(page) {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

async function themed(page, theme) {
  const current = () => page.evaluate(() => document.documentElement.dataset.theme);
  for (let i = 0; i < 3; i++) {
    const was = await current();
    if (was === theme) return;
    await page.getByRole('button', { name: /^Theme/ }).click();
    // One click, one step: wait for it to apply before deciding on another (a second click before the
    // page rendered the first would step past the theme wanted).
    await page.waitForFunction((old) => document.documentElement.dataset.theme !== old, was);
  }
}

// Every view (and a workload's and a node's page) fits the width, has no
// serious axe-core violation, and is saved as a screenshot: at 1280x800 in
// the dark theme, on a 390x844 phone in the light one.
export async function layoutChecks(browser, allotd, admin, desk, helpers) {
  const { check, assert, until, openPage, logIn, visit, axeCheck, artifacts } = helpers;
  const nodes = (await admin.get('/api/v1/nodes')).json.items;
  const views = [...VIEWS, [`hardware/${nodes[0].name}`, `Node ${nodes[0].name}`]];
  const phone = await openPage(browser, allotd.base, { width: 390, height: 844 });
  for (const [where, { page }, theme, width, colour] of [
    ['1280x800', desk, 'dark', 1280, 'rgb(13, 17, 23)'],
    ['a 390 px phone', phone, 'light', 390, 'rgb(255, 255, 255)'],
  ]) {
    await check(`every view fits ${where} in the ${theme} theme, accessible, with a screenshot`, async () => {
      if (where !== '1280x800') await logIn(page, { token: allotd.adminToken });
      await themed(page, theme);
      // The theme applies on the page's next render: wait for its background rather than read it at once.
      await until(async () => (await background(page)) === colour, 5000, `${theme} background ${colour}`);
      for (const [hash, heading] of views) {
        await visit(page, `#/${hash}`, heading);
        await page.waitForTimeout(300); // the charts and access reviews answered
        await page.screenshot({ path: join(artifacts, `${theme}-${width}-${hash.replace(/\//g, '-')}.png`), fullPage: true });
        const wide = await page.evaluate(() => document.documentElement.scrollWidth);
        assert(wide <= width, `${hash}: ${wide} px wide at ${width} px`);
        await axeCheck(page, `${hash} ${theme} ${width}`);
      }
    });
  }
  assert(!phone.seen.errors.length, phone.seen.errors.join('\n'));
  await phone.context.close();
}
