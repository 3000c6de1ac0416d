// The dashboard in a real headless Chromium (Debian's chromium, driven by
// playwright-core) against a real allotd with real workloads (allotd.mjs).
//
//   node web/tests/ui_test.mjs ALLOTD_BINARY ARTIFACT_DIR
//
// Checks: every view renders with data; login and logout; a viewer of team
// alpha never sees team beta's workload names in the DOM or in any response
// the page fetched, and gets no cancel button; a member cancels its own
// workload and is refused (403, with the reason) on another team's, and a
// refused click shows the server's reason; a pending
// workload shows its explanation; a new workload appears within 2 s through
// the change stream (no polling while idle), whose events name only what the
// viewer may list; logout revokes the session (the old cookie is 401); Costs
// shows the usage report per team and the budgets (CSV download of the same
// report), Signals the state, owner and response, Contracts the phase,
// owners and the transitions an access review allows (a cluster admin
// approves and activates; the requester is not offered the approval); a
// node's page shows its workloads and an administrator cordons and uncordons
// it; a viewer of alpha never sees beta's costs or budgets; on a phone
// (390 px) the new views fit the width; Costs per project and with idle
// shared (ui_costs_checks.mjs); a contract's monitoring signals
// (ui_contract_checks.mjs); policy exceptions with their decisions
// (ui_exception_checks.mjs); a node's health history (ui_node_checks.mjs);
// Tasks sorted by the server across pages (ui_task_checks.mjs); the viewer's
// and the member's checks (ui_access_checks.mjs); Teams' wait
// percentiles, fair share and chart over time (ui_team_checks.mjs); Hardware's
// chart over time, live, with a node's failure (ui_hardware_checks.mjs);
// no serious axe-core violations; no CSP violation. Screenshots of every view
// go to ARTIFACT_DIR. Exits non-zero on the first failure, skipping nothing.
import { chromium } from 'playwright-core';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { client, startAllotd } from './allotd.mjs';
import { assert, axeCheck, checkRunner, logIn } from './ui_page.mjs';
import { contractApprovalChecks, contractRequesterChecks } from './ui_contract_checks.mjs';
import {
  exceptionDecisionChecks,
  exceptionRequesterChecks,
  requestExceptions,
} from './ui_exception_checks.mjs';
import { costEfficiencyChecks, costGroupingChecks } from './ui_costs_checks.mjs';
import { taskSortChecks } from './ui_task_checks.mjs';
import { nodeHealthHistoryChecks } from './ui_node_checks.mjs';
import { teamStatsChecks } from './ui_team_checks.mjs';
import { memberChecks, viewerChecks } from './ui_access_checks.mjs';
import { hardwareChartChecks, hardwareUnhealthyChecks } from './ui_hardware_checks.mjs';
import { separateSessionChecks } from './ui_session_checks.mjs';
import { costsHourChecks, signalsChartChecks, tasksChartChecks, teamQuotaLineChecks } from './ui_activity_checks.mjs';
import { BETA_BUDGET, GOVERNANCE, PASSWORD, POLICY, SECRET, binding, budgets, workload } from './ui_fixtures.mjs';

const [binary, artifacts] = process.argv.slice(2);
if (!binary || !artifacts) {
  console.error('usage: node ui_test.mjs ALLOTD_BINARY ARTIFACT_DIR');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const CHROMIUM = process.env.ALLOT_CHROMIUM || '/usr/bin/chromium';

const runner = checkRunner();
const check = runner.check;

async function setUp(admin) {
  let reply = await admin.apply(POLICY + budgets() + binding('alpha', 'ana', 'ana', 'team-member') +
    binding('alpha', 'vic', 'vic', 'team-viewer') + binding('beta', 'bob', 'bob', 'team-member'));
  assert(reply.status === 200, `apply: ${reply.status} ${reply.text}`);
  for (const user of ['ana', 'vic', 'bob', 'carla', 'cora']) {
    const status = await admin.scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: user, active: true, password: PASSWORD,
    });
    assert(status === 201, `SCIM user ${user}: ${status}`);
  }
  const submit = async (ns, body) => {
    reply = await admin.post(`/api/v1/namespaces/${ns}/workloads`, body);
    assert(reply.status === 201, `submit ${body.metadata.name}: ${reply.status} ${reply.text}`);
  };
  await submit('alpha', workload('alpha-train', 1, 'echo hello-from-alpha; sleep 600'));
  await submit('alpha', workload('alpha-huge', 4, 'true', 2));
  await submit('beta', workload(SECRET, 1, 'sleep 600'));
  for (let i = 0; i < 100; i++) {
    const w = await admin.get('/api/v1/namespaces/alpha/workloads/alpha-train');
    const b = await admin.get(`/api/v1/namespaces/beta/workloads/${SECRET}`);
    if (w.json.status.phase === 'Running' && b.json.status.phase === 'Running') return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('the workloads did not start');
}

// A browser page of its own, with every response body it fetched and every
// console error (a CSP violation is one) recorded.
async function openPage(browser, base, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(5000);
  const seen = { bodies: [], errors: [], requests: [], streams: [] };
  page.on('request', (request) => seen.requests.push(request.url()));
  page.on('response', async (response) => {
    // The change stream's body never ends: recorded by its URL only.
    if ((response.headers()['content-type'] || '').startsWith('text/event-stream')) {
      seen.streams.push(response.url());
      return;
    }
    try {
      seen.bodies.push({ url: response.url(), status: response.status(), body: await response.text() });
    } catch {}
  });
  // A refused request is a console error too (401 before the login): only
  // script errors and Content-Security-Policy violations count.
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) {
      seen.errors.push(message.text());
    }
  });
  page.on('pageerror', (error) => seen.errors.push(String(error)));
  await page.goto(`${base}/ui/`);
  return { context, page, seen };
}

async function visit(page, hash, heading, shot) {
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
  await page.screenshot({ path: join(artifacts, `${shot}.png`), fullPage: true });
}

// Polls `probe` (an async predicate) until it holds or `ms` pass.
async function eventually(probe, ms, what) {
  const until = Date.now() + ms;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

// A node's health check fails while FAIL_DIR/fail-NODE exists (ui_node_checks.mjs).
const failDir = mkdtempSync(join(tmpdir(), 'allot-web-health-'));
async function main() {
  const allotd = await startAllotd(binary, ['--health-check', `test ! -e ${failDir}/fail-"$ALLOT_NODE"`, '--health-interval', '500ms']);
  const admin = client(allotd.base, allotd.adminToken);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    await setUp(admin);
    await runChecks(browser, allotd, admin);
  } finally {
    await browser.close();
    await allotd.stop();
  }
}

async function runChecks(browser, allotd, admin) {
  await check('the page and its assets are served with strict headers', async () => {
    const index = await fetch(`${allotd.base}/ui/`);
    const csp = index.headers.get('content-security-policy') || '';
    assert(csp.includes("script-src 'self'") && !csp.includes('unsafe-inline'), `CSP: ${csp}`);
    assert(index.headers.get('cache-control') === 'no-cache', 'index is no-cache');
    assert(index.headers.get('x-content-type-options') === 'nosniff', 'nosniff');
    const html = await index.text();
    assert(!/<script>|<script [^>]*>[^<]/.test(html), 'no inline script');
    const asset = /\/ui\/assets\/main-[A-Z0-9]+\.js/.exec(html)[0];
    const js = await fetch(allotd.base + asset);
    assert(/immutable/.test(js.headers.get('cache-control')), 'hashed assets are immutable');
    const gz = gzipSync(Buffer.from(await js.arrayBuffer())).length;
    console.log(`figure: JavaScript of the first view ${gz} bytes gzipped`);
    assert(gz <= 200 * 1024, 'JS <= 200 KB gzipped');
  });

  await adminChecks(browser, allotd, admin);
  const helpers = { openPage, check, logIn, shots, assert, visit, axeCheck, artifacts };
  await viewerChecks(browser, allotd, admin, helpers);
  await memberChecks(browser, allotd, admin, helpers);
  await governanceChecks(browser, allotd, admin);
}

// An administrator: every view, Costs, Signals, a node's page, a pending
// workload, a live update, the dark theme, no console error.
async function adminChecks(browser, allotd, admin) {
  const adminPage = await openPage(browser, allotd.base);
  await check('an administrator logs in with an API token and every view renders with data', async () => {
    const { page } = adminPage;
    await logIn(page, { token: allotd.adminToken });
    await visit(page, '#/overview', 'Overview', 'overview');
    await page.getByText('GPUs total').waitFor();
    assert((await page.locator('.stat-value').first().textContent()) === '8 GPUs', '8 GPUs total');
    await visit(page, '#/hardware', 'Hardware', 'hardware');
    assert((await page.locator('tbody tr').count()) === 2, 'two nodes');
    await page.locator('.gpu-allocated').first().waitFor();
    await visit(page, '#/teams', 'Teams', 'teams');
    await page.getByRole('cell', { name: 'beta' }).first().waitFor();
    await visit(page, '#/tasks', 'Tasks', 'tasks');
    await page.getByRole('link', { name: SECRET }).waitFor();
    for (const view of ['overview', 'hardware', 'teams', 'tasks']) {
      await page.evaluate((h) => (location.hash = h), `#/${view}`);
      await page.waitForTimeout(150);
      await axeCheck(page, view);
    }
  });

  await check('Teams shows wait percentiles and fair share per team, a chart over time whose range picker changes the request, live', () =>
    teamStatsChecks(adminPage.page, admin, adminPage.seen, shots(adminPage.page)));

  await check('Hardware draws the API\'s GPUs allocated, free and unhealthy over time, with the range picker, live', () =>
    hardwareChartChecks(adminPage.page, admin, adminPage.seen, shots(adminPage.page)));

  await check('Teams draws each team\'s quota (nominal, and nominal + borrowing limit) as lines over its usage', () =>
    teamQuotaLineChecks(adminPage.page, admin, shots(adminPage.page)));

  await check('Tasks draws the API\'s workloads pending and running over time, with the range picker, live', () =>
    tasksChartChecks(adminPage.page, admin, adminPage.seen, shots(adminPage.page)));

  await check('keys 5-7 open Costs, Signals and Contracts; Costs shows GPU-hours, cost and efficiency (not measured) per team, the budgets with forecast, and a CSV of the report', async () => {
    const { page } = adminPage;
    await visit(page, '#/overview', 'Overview', 'overview-keys');
    for (const [key, heading] of [['7', 'Contracts'], ['6', 'Signals'], ['5', 'Costs']]) {
      await page.keyboard.press(key);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    }
    await visit(page, '#/costs', 'Costs', 'costs-before');
    for (const team of ['alpha', 'beta']) {
      const row = page.locator(`tr[data-team="${team}"]`);
      await row.waitFor();
      assert(/USD/.test(await row.textContent()), `${team}: a cost in USD`);
    }
    assert(/GPU-h/.test(await page.locator('tfoot').textContent()), 'totals in GPU-h');
    assert(/^Idle: gpu /.test(await page.getByTestId('idle').textContent()), 'the cluster-wide idle line');
    await page.locator('svg.chart rect.bar-own').last().waitFor(); // today's bar
    // The budget monitor evaluates every 10 s: the page shows its standing live.
    await eventually(async () => {
      const b = await admin.get('/api/v1/budgets/alpha-budget');
      return b.json.status && b.json.status.spent > 0;
    }, 15000, 'alpha-budget spends');
    const budget = page.locator('tr[data-budget="alpha-budget"]');
    await budget.getByText(/of 5\.00 USD/).waitFor();
    await budget.getByText(/runs out|lasts the period/).waitFor();
    await page.locator(`tr[data-budget="${BETA_BUDGET}"]`).waitFor();
    await page.screenshot({ path: join(artifacts, 'costs.png'), fullPage: true });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    const csv = readFileSync(await download.path(), 'utf8').trim().split('\n');
    const figures = 'gpuHours,ownGpuHours,borrowedGpuHours,cpuHours,memoryGiBHours,idleGpuHours,cost,ownCost,borrowedCost';
    assert(csv[0] === `team,${figures},currency,measuredGpuHours,gpuUtilization`, `CSV header: ${csv[0]}`);
    const teams = csv.slice(1).map((line) => line.split(',')[0]);
    assert(teams.includes('alpha') && teams.includes('beta') && teams[teams.length - 1] === 'total', `CSV rows: ${teams}`);
    await costEfficiencyChecks(page, admin, csv, { assert });
    await page.getByRole('button', { name: '7 d' }).click();
    await page.locator('tr[data-team="alpha"]').waitFor();
    await axeCheck(page, 'costs');
  });

  await check('Signals shows the state, since, owner and response, live', async () => {
    const { page } = adminPage;
    await visit(page, '#/signals', 'Signals', 'signals-before');
    const row = page.locator('tr[data-signal="alpha-busy"]');
    await row.getByText('platform-oncall').waitFor();
    const runbook = row.getByRole('link', { name: 'runbook' });
    assert((await runbook.getAttribute('href')) === 'https://runbooks.example.com/alpha-busy', 'runbook link');
    // allotd samples its metrics every 15 s: once it says firing, so does the page within 2 s.
    await eventually(async () => {
      const s = await admin.get('/api/v1/signals/alpha-busy');
      return s.json.status && s.json.status.state === 'firing';
    }, 35000, 'alpha-busy fires');
    await row.locator('.state-firing').waitFor({ timeout: 2000 });
    await row.locator('time').waitFor();
    await page.getByTestId('signals-firing').getByText('1 of 1 firing').waitFor();
    // Its history (GET /api/v1/signals/alpha-busy/history), asked for when opened.
    await row.locator('summary', { hasText: 'History' }).click();
    await page.getByTestId('signal-history-alpha-busy').getByText('fired').waitFor({ timeout: 5000 });
    await page.screenshot({ path: join(artifacts, 'signals.png'), fullPage: true });
    await axeCheck(page, 'signals');
    await visit(page, '#/overview', 'Overview', 'overview-governance');
    await page.getByText('signals firing').waitFor();
    await page.getByText('spent this period').waitFor();
  });

  await check('Signals draws the API\'s signals firing over time, with the range picker, live; Costs offers 1 h', async () => {
    await signalsChartChecks(adminPage.page, admin, adminPage.seen, shots(adminPage.page));
    await costsHourChecks(adminPage.page, admin, adminPage.seen, shots(adminPage.page));
  });

  await check("a node's page shows its GPUs and workloads; an administrator cordons and uncordons it", async () => {
    const { page } = adminPage;
    const nodes = await admin.get('/api/v1/nodes');
    const node = nodes.json.items.find((n) => (n.workloads || []).includes('alpha/alpha-train'));
    assert(node, 'the node of alpha-train');
    await visit(page, '#/hardware', 'Hardware', 'hardware-links');
    await page.getByRole('link', { name: node.name, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: `Node ${node.name}` }).waitFor();
    await page.getByRole('link', { name: 'alpha/alpha-train' }).waitFor();
    await page.getByTestId('node-state').getByText('ready').waitFor();
    await page.getByRole('button', { name: 'Cordon' }).click();
    await page.getByTestId('node-state').getByText('cordoned').waitFor();
    assert((await admin.get(`/api/v1/nodes/${node.name}`)).json.cordoned === true, 'cordoned in the API');
    await page.screenshot({ path: join(artifacts, 'node.png'), fullPage: true });
    await axeCheck(page, 'node page');
    await page.getByRole('button', { name: 'Uncordon' }).click();
    await page.getByTestId('node-state').getByText('ready').waitFor();
    assert((await admin.get(`/api/v1/nodes/${node.name}`)).json.cordoned === false, 'uncordoned in the API');
  });

  await check('a pending workload shows the scheduler explanation', async () => {
    const { page } = adminPage;
    await visit(page, '#/tasks/alpha/alpha-huge', 'alpha/alpha-huge', 'workload-pending');
    const text = await page.getByTestId('explanation').textContent();
    assert(text && text.length > 10, `explanation: ${text}`);
    await axeCheck(page, 'workload page');
  });

  await check('a new workload appears on Tasks within 2 s, without a reload or polling', async () => {
    const { page, seen } = adminPage;
    await visit(page, '#/tasks', 'Tasks', 'tasks-before');
    await page.waitForTimeout(500);
    // The page holds the change stream open and asks nothing while idle.
    assert(seen.bodies.some((r) => r.url.endsWith('/api/v1/watch')) || seen.streams.some((u) => u.endsWith('/api/v1/watch')),
      'the change stream is open');
    const before = seen.requests.filter((u) => /\/api\/v1\/workloads/.test(u)).length;
    await page.waitForTimeout(3000);
    const polled = seen.requests.filter((u) => /\/api\/v1\/workloads/.test(u)).length - before;
    assert(polled === 0, `Tasks asked for the workloads ${polled} times in 3 s idle`);
    const t0 = Date.now();
    const reply = await admin.post('/api/v1/namespaces/alpha/workloads', workload('alpha-live', 1, 'sleep 600'));
    assert(reply.status === 201, `submit: ${reply.status}`);
    await page.getByRole('link', { name: 'alpha-live' }).waitFor({ timeout: 2000 });
    console.log(`figure: live update shown ${Date.now() - t0} ms after the submit`);
    const fetched = seen.requests.filter((u) => /\/api\/v1\/workloads/.test(u)).length - before;
    assert(fetched >= 1 && fetched <= 3, `the change was fetched ${fetched} times`);
  });

  await check('the theme switches to dark and the page stays accessible', async () => {
    const { page } = adminPage;
    await page.getByRole('button', { name: /Theme/ }).click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await page.screenshot({ path: join(artifacts, 'tasks-dark.png') });
    await axeCheck(page, 'dark tasks');
  });

  await check('Tasks sorts by priority on the server, across pages, from the header (aria-sort, keyboard)', () =>
    taskSortChecks(adminPage.page, admin, adminPage.seen, { visit, axeCheck, assert }));

  await check('no console error or CSP violation on the administrator pages', async () => {
    assert(!adminPage.seen.errors.length, adminPage.seen.errors.join('\n'));
    const refused = adminPage.seen.bodies.filter((r) => r.status >= 400 && !r.url.endsWith('/ui/session'));
    const unexpected = refused.filter((r) => !/\/logs\?/.test(r.url));
    assert(!unexpected.length, unexpected.map((r) => `${r.status} ${r.url} ${r.body}`).join('\n'));
  });
  await adminPage.context.close();
}

// The helpers a check file (ui_costs_checks.mjs, ui_contract_checks.mjs) is given.
function shots(page) {
  const screenshot = (name) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
  return { visit, axeCheck, assert, screenshot };
}

// Contracts (the Organization applied now: every namespace governed from
// here on, so these come last) and the new views on a phone.
async function governanceChecks(browser, allotd, admin) {
  const approver = await openPage(browser, allotd.base);
  await check('Contracts: a second cluster admin approves and activates; the requester is not offered the approval', async () => {
    const applied = await admin.apply(GOVERNANCE);
    assert(applied.status === 200, `governance: ${applied.status} ${applied.text}`);
    await logIn(approver.page, { username: 'carla', password: PASSWORD });
    await contractApprovalChecks(approver.page, admin, shots(approver.page));
  });
  await check('Policy exceptions: their requester sees phase, owner, approver, expiry and reason, and no decision', async () => {
    await requestExceptions(allotd.base, { assert });
    await exceptionRequesterChecks(approver.page, admin, shots(approver.page));
    assert(!approver.seen.errors.length, approver.seen.errors.join('\n'));
  });
  await approver.context.close();

  const requester = await openPage(browser, allotd.base);
  await check('the requester of a Draft contract sees Revoke but not Approve, and its monitoring signals', async () => {
    await logIn(requester.page, { token: allotd.adminToken });
    await contractRequesterChecks(requester.page, admin, shots(requester.page));
    assert(!requester.seen.errors.length, requester.seen.errors.join('\n'));
  });
  await check('Policy exceptions: one who may decide approves and rejects with a reason; a refusal shows its reason', async () => {
    await exceptionDecisionChecks(requester.page, admin, shots(requester.page));
    assert(!requester.seen.errors.length, requester.seen.errors.join('\n'));
  });
  await check('Costs per project (the contracts) and with idle shared among the teams', () =>
    costGroupingChecks(requester.page, shots(requester.page)));
  await requester.context.close();
  await separateSessionChecks(browser, allotd, admin, { openPage, check, logIn, shots, assert, visit, axeCheck, artifacts });
  const last = await openPage(browser, allotd.base);
  await logIn(last.page, { token: allotd.adminToken });
  await check("a node's page shows its health history, newest first", () =>
    nodeHealthHistoryChecks(last.page, admin, failDir, { visit, axeCheck, assert }));
  await check("Hardware's chart shows a node's failure as unhealthy GPUs, live", () =>
    hardwareUnhealthyChecks(last.page, admin, failDir, last.seen, { visit, assert }));
  await last.context.close();
}

await main();
console.log(runner.summary(artifacts));
if (existsSync(artifacts)) console.log(`artefacts: ${readdirSync(artifacts).join(' ')}`);
process.exit(runner.failed() ? 1 : 0);
