// The dashboard's usability and the lines of issue 16 the main browser test
// (ui_test.mjs) does not pin, in a real headless Chromium against a real
// allotd with real workloads:
//
//   node web/tests/ui_usability_test.mjs ALLOTD_BINARY ARTIFACT_DIR
//
// Checks: every view's empty state on a fresh allotd (nothing applied) and a
// node page with no workload say what they are and what to do next; Teams
// lists a team with no quota and no usage; Hardware names the team holding each GPU; Costs' CSV download holds every figure of the report the page
// fetched (the API's JSON), row by row; Overview's chart is the report of
// the range picked; times in the viewer's time zone (the browser's, Pacific/Auckland here);
// a waiting gang's page shows the scheduler's explanation and its estimated
// start in words, as the API gives them, and a running workload's page its
// placement and events; Tasks filters by namespace, phase, priority class
// and user on the server
// (the rows are the API's for the same filter; an empty result says what to
// do); a member resumes its suspended Space; Overview, a workload's page and
// Contracts update live (within 2 s of a change, no reload); Contracts'
// chart over time counts each phase from the contracts' histories, with the
// range picker; keys 1-7 switch views; every view fits 1280x800 and a 390 px
// phone, in the light and the dark theme, with no serious axe-core violation
// and no console error. Screenshots of every view go to ARTIFACT_DIR.
import { chromium } from 'playwright-core';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { client, startAllotd } from './allotd.mjs';
import { assert, axeCheck, checkRunner, logIn } from './ui_page.mjs';
import { GOVERNANCE, PASSWORD, POLICY, binding, workload } from './ui_fixtures.mjs';
import {
  contractChartChecks,
  costsCsvChecks,
  gpuHolderChecks,
  layoutChecks,
  liveChecks,
  overviewChartChecks,
} from './ui_usability_checks.mjs';

const [binary, artifacts] = process.argv.slice(2);
if (!binary || !artifacts) {
  console.error('usage: node ui_usability_test.mjs ALLOTD_BINARY ARTIFACT_DIR');
  process.exit(2);
}
mkdirSync(artifacts, { recursive: true });
const CHROMIUM = process.env.ALLOT_CHROMIUM || '/usr/bin/chromium';
export const ZONE = 'Pacific/Auckland';
// alpha-run prints a line once GO/go exists (its log is followed).
const GO = mkdtempSync(join(tmpdir(), 'allot-web-log-'));
chmodSync(GO, 0o755);
const releaseLog = () => writeFileSync(join(GO, 'go'), '');

const runner = checkRunner();
const check = runner.check;
async function until(probe, ms, what) {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// A page of its own in the viewer's zone, recording requests and errors.
async function openPage(browser, base, viewport = { width: 1280, height: 800 }) {
  const context = await browser.newContext({ viewport, timezoneId: ZONE, locale: 'en-US' });
  const page = await context.newPage();
  page.setDefaultTimeout(5000);
  const seen = { requests: [], errors: [], reports: [] };
  page.on('request', (request) => seen.requests.push(request.url()));
  // The usage reports the page fetched (Costs' CSV is made of one).
  page.on('response', async (response) => {
    if (!/\/api\/v1\/reports\/usage\?/.test(response.url()) || response.status() !== 200) return;
    try {
      seen.reports.push(await response.json());
    } catch {}
  });
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) seen.errors.push(message.text());
  });
  page.on('pageerror', (error) => seen.errors.push(String(error)));
  await page.goto(`${base}/ui/`);
  return { context, page, seen };
}

async function visit(page, hash, heading) {
  await page.evaluate((h) => (location.hash = h), hash);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'));
}

// The time as the dashboard writes it (format.js) in `zone`.
export function inZone(text, zone = ZONE) {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'medium', timeZone: zone }).format(new Date(text));
}

// A cohort under org with a team of its own: the cohort tree has two levels.
const NESTED = `---
apiVersion: allot/v1
kind: Cohort
metadata: {name: research-division}
spec: {parent: org}
---
apiVersion: allot/v1
kind: Team
metadata: {name: gamma}
spec: {cohort: research-division, quota: [{flavor: gpu, resources: {gpu: {nominal: 1}}}]}
---
apiVersion: allot/v1
kind: Team
metadata: {name: newcomers}
spec: {cohort: org}
`;
// The nodes alone (POLICY's, applied again by setUp unchanged): a node page
// with no workload before any team exists.
const NODES_ONLY = POLICY.split('---\n').slice(0, 3).join('---\n');

const SPACE = {
  apiVersion: 'allot/v1',
  kind: 'Workload',
  metadata: { name: 'alpha-notebook' },
  spec: {
    kind: 'Space',
    priorityClass: 'low',
    idleTimeoutSeconds: 1,
    podSets: [{ count: 1, resources: { gpu: 1 } }],
    command: ['/bin/sh', '-c', 'sleep 600'],
  },
};

async function setUp(admin) {
  const applied = await admin.apply(POLICY + NESTED + binding('alpha', 'ana', 'ana', 'team-member'));
  assert(applied.status === 200, `apply: ${applied.status} ${applied.text}`);
  for (const user of ['ana', 'bob', 'vic', 'carla']) {
    const status = await admin.scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: user, active: true, password: PASSWORD,
    });
    assert(status === 201, `SCIM user ${user}: ${status}`);
  }
  const submit = async (ns, body) => {
    const reply = await admin.post(`/api/v1/namespaces/${ns}/workloads`, body);
    assert(reply.status === 201, `submit ${body.metadata.name}: ${reply.status} ${reply.text}`);
  };
  // A run of an hour at most holds a GPU of a node; a gang of both nodes
  // whole waits for it and beta's (a reservation at the later end: an estimated
  // start).
  const run = workload('alpha-run', 1, `echo started; while [ ! -e ${GO}/go ]; do sleep 0.2; done; echo followed-line; sleep 600`);
  run.spec.maxRuntimeSeconds = 3600;
  await submit('alpha', run);
  const other = workload('beta-run', 1, 'sleep 600');
  other.spec.maxRuntimeSeconds = 3000;
  await submit('beta', other);
  await until(async () => (await admin.get('/api/v1/namespaces/alpha/workloads/alpha-run')).json.status.phase === 'Running',
    20000, 'alpha-run runs');
  // The Space runs, is idle and is suspended before the gang reserves the nodes.
  await submit('alpha', SPACE);
  await until(async () => (await admin.get('/api/v1/namespaces/alpha/workloads/alpha-notebook')).json.status.phase === 'Suspended',
    20000, 'the Space is suspended');
  await submit('alpha', workload('alpha-gang', 4, 'true', 2));
}

async function main() {
  const allotd = await startAllotd(binary);
  const admin = client(allotd.base, allotd.adminToken);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const helpers = { check, assert, until, openPage, logIn, axeCheck, visit, artifacts, inZone, releaseLog };
  try {
    const desk = await openPage(browser, allotd.base);
    await logIn(desk.page, { token: allotd.adminToken });
    await emptyStateChecks(desk, admin);
    await setUp(admin);
    await workloadPageChecks(desk, admin);
    await taskFilterChecks(desk, admin);
    await gpuHolderChecks(desk, admin, helpers);
    await check('Teams draws the cohort tree: a cohort under another, with its teams', async () => {
      await visit(desk.page, '#/teams', 'Teams');
      const tree = desk.page.getByTestId('cohort-tree');
      for (const path of ['[data-cohort="org"] > ul > [data-tree-team="alpha"]', '[data-cohort="org"] > ul > [data-tree-team="beta"]',
        '[data-cohort="org"] > ul > [data-cohort="research-division"] > ul > [data-tree-team="gamma"]']) {
        await tree.locator(`:scope > ${path}`).waitFor();
      }
      assert((await tree.locator(':scope > li').count()) === 1, 'one root: org');
    });
    await check('Teams lists a team with no quota and no usage (a row of zeros)', async () => {
      await visit(desk.page, '#/teams', 'Teams');
      const row = desk.page.locator('table.teams tbody tr[data-team="newcomers"]');
      await row.waitFor();
      assert((await row.locator('td').nth(2).textContent()).includes('0 GPUs of 0 GPUs'), `newcomers: ${await row.textContent()}`);
      await desk.page.getByTestId('cohort-tree').locator('[data-cohort="org"] > ul > [data-tree-team="newcomers"]').waitFor();
    });
    await resumeChecks(browser, allotd, admin);
    await liveChecks(desk, admin, helpers);
    await costsCsvChecks(desk, helpers);
    await overviewChartChecks(desk, helpers);
    await check('keys 1-7 switch the views', async () => {
      const views = ['Overview', 'Hardware', 'Teams', 'Tasks', 'Costs', 'Signals', 'Contracts'];
      for (const [i, heading] of views.entries()) {
        await desk.page.locator('body').press(String(i + 1));
        await desk.page.getByRole('heading', { level: 1, name: heading }).waitFor();
      }
    });
    const applied = await admin.apply(GOVERNANCE);
    assert(applied.status === 200, `governance: ${applied.status} ${applied.text}`);
    await contractChartChecks(desk, admin, allotd.base, helpers);
    await layoutChecks(browser, allotd, admin, desk, helpers);
    await check('no console error or CSP violation', async () => assert(!desk.seen.errors.length, desk.seen.errors.join('\n')));
    await desk.context.close();
  } finally {
    await browser.close();
    await allotd.stop();
    rmSync(GO, { recursive: true, force: true });
  }
}

// Every view's empty state on a fresh allotd (nothing applied) says what it is
// and what to do next; then a node page with no workload (the nodes alone).
async function emptyStateChecks({ page }, admin) {
  const views = [
    ['#/', 'Overview', /Nothing to govern yet.*Apply a policy/],
    ['#/hardware', 'Hardware', /No nodes yet\. Apply a NodePool/],
    ['#/teams', 'Teams', /No team is visible to you yet\. Apply a Team/],
    ['#/tasks', 'Tasks', /No workloads here\. Submit one with/],
    ['#/costs', 'Costs', /No GPU time was used in this range\. Pick a longer range/],
    ['#/signals', 'Signals', /No signals yet\. Apply a Signal/],
    ['#/contracts', 'Contracts', /No contracts yet\. Apply an Organization and a Contract/],
  ];
  for (const [hash, heading, text] of views) {
    await check(`${heading} with nothing applied says what it is and what to do next`, async () => {
      await visit(page, hash, heading);
      await page.locator('.empty').filter({ hasText: text }).first().waitFor();
      await page.screenshot({ path: join(artifacts, `empty-${heading.toLowerCase()}.png`), fullPage: true });
    });
  }
  await check('a node page with no workload says so and what to do next', async () => {
    const applied = await admin.apply(NODES_ONLY);
    assert(applied.status === 200, `nodes: ${applied.status} ${applied.text}`);
    let nodes = [];
    await until(async () => (nodes = (await admin.get('/api/v1/nodes')).json.items || []).length > 0, 10000, 'nodes');
    const { name } = nodes[0];
    await visit(page, `#/hardware/${encodeURIComponent(name)}`, `Node ${name}`);
    await page.locator('.empty').filter({ hasText: /No workload runs here\. Admitted workloads are placed on it/ }).waitFor();
  });
}

// A waiting gang's explanation and estimated start, a running workload's
// placement and events, times in the viewer's zone.
async function workloadPageChecks({ page }, admin) {
  await check("a waiting gang's page says why it waits and when it should start, in the viewer's time zone", async () => {
    let gang;
    await until(async () => {
      gang = (await admin.get('/api/v1/namespaces/alpha/workloads/alpha-gang')).json;
      return gang.status.explanation && gang.status.explanation.estimatedStart;
    }, 10000, `the API estimates the gang's start: ${JSON.stringify(gang && gang.status)}`);
    await visit(page, '#/tasks/alpha/alpha-gang', 'alpha/alpha-gang');
    const explanation = gang.status.explanation;
    await page.getByTestId('explanation').getByText(explanation.message.slice(0, 40)).waitFor();
    const when = inZone(explanation.estimatedStart);
    assert(when !== inZone(explanation.estimatedStart, 'UTC'), 'the zone changes the text');
    const hint = await page.locator('.explanation .hint').textContent();
    const minutes = Math.round((new Date(explanation.estimatedStart) - Date.now()) / 60000);
    assert(minutes > 50 && minutes <= 60, `the gang should start within the hour: ${minutes} min`);
    assert(new RegExp(`Estimated start: ${when.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(in about (${minutes - 1}|${minutes}|${minutes + 1}) min\\)\\.`).test(hint),
      `the estimated start in words: ${hint}, want ${when} (in about ${minutes} min)`);
    const created = await page.locator('dt:has-text("Created") + dd').textContent();
    assert(created === inZone(gang.status.createdAt), `created ${created}, want ${inZone(gang.status.createdAt)}`);
    await page.locator('footer').getByText(`Times in ${ZONE}.`).waitFor();
    await page.screenshot({ path: join(artifacts, 'workload-estimated-start.png'), fullPage: true });
  });
  await check("a running workload's page shows its placement and events as the API, and its log", async () => {
    const w = (await admin.get('/api/v1/namespaces/alpha/workloads/alpha-run')).json;
    const events = (await admin.get('/api/v1/namespaces/alpha/workloads/alpha-run/events')).json.items;
    await visit(page, '#/tasks/alpha/alpha-run', 'alpha/alpha-run');
    const pods = w.status.podSets.flatMap((s) => s.pods.map((p) => `${s.name}: node ${p.node}, GPUs ${p.gpus.join(', ')}`));
    assert(pods.length === 1, `one pod placed: ${JSON.stringify(w.status.podSets)}`);
    await page.getByRole('region', { name: 'Placement' }).getByText(pods[0]).waitFor();
    assert(events.length >= 2, `events: ${JSON.stringify(events)}`);
    // The events are a fetch of their own: wait until the list holds them all before reading it.
    const shownEvent = (shown, e) => shown.some((line) => line.startsWith(inZone(e.time)) && line.includes(`${e.reason}: ${e.message}`));
    const shown = async () => page.locator('ol.events li').allTextContents();
    await until(async () => { const lines = await shown(); return events.every((e) => shownEvent(lines, e)); }, 5000,
      `every event shown as the API: ${events.map((e) => e.reason).join(', ')}`);
    await page.getByLabel('Log of pod 0').getByText('started').waitFor();
  });
}

// Tasks filtered on the server by namespace and by phase.
async function taskFilterChecks({ page, seen }, admin) {
  await check('Tasks filters by namespace, phase, priority class and user on the server; a filter with no match says what to do', async () => {
    await visit(page, '#/tasks', 'Tasks');
    const names = async () => page.locator('table.tasks tbody tr td:first-child').allTextContents();
    const want = async (path) => (await admin.get(path)).json.items.map((w) => w.metadata.name);
    const before = seen.requests.length;
    await page.getByLabel('Namespace').fill('beta');
    const beta = await want('/api/v1/workloads?team=beta&limit=50');
    assert(beta.length === 1, `beta's: ${beta}`);
    await until(async () => JSON.stringify(await names()) === JSON.stringify(beta), 5000, `beta's rows ${beta}`);
    assert(seen.requests.slice(before).some((u) => /\/api\/v1\/workloads\?.*team=beta/.test(u)), 'asked with team=beta');
    await page.getByLabel('Namespace').fill('alpha');
    await page.getByLabel('Phase').selectOption('Pending');
    const pending = await want('/api/v1/workloads?team=alpha&phase=Pending&limit=50');
    assert(pending.includes('alpha-gang') && !pending.includes('alpha-run'), `alpha's pending: ${pending}`);
    await until(async () => JSON.stringify(await names()) === JSON.stringify(pending), 5000, `alpha's pending ${pending}`);
    assert(seen.requests.some((u) => /[?&]phase=Pending/.test(u) && /[?&]team=alpha/.test(u)), 'asked with phase and team');
    await page.getByLabel('Phase').selectOption('Failed');
    await page.getByText('No workloads here with these filters.').waitFor();
    await page.screenshot({ path: join(artifacts, 'tasks-filtered-empty.png'), fullPage: true });
    await page.getByLabel('Namespace').fill('');
    await page.getByLabel('Phase').selectOption('');
    // By priority class and user: the server's filters, as typed.
    await page.getByLabel('Priority class').fill('low');
    await page.getByLabel('User').fill('admin');
    const low = await want('/api/v1/workloads?priorityClass=low&user=admin&limit=50');
    assert(low.length >= 4, `admin's low: ${low}`);
    // Every workload here is admin's, so the rows of priorityClass=low alone already match: wait for the request
    // that carries both filters (the page asks once typing settles) before comparing the rows it drew.
    await until(async () => seen.requests.some((u) => /[?&]priorityClass=low/.test(u) && /[?&]user=admin(&|$)/.test(u)),
      5000, 'asked with priorityClass and user');
    await until(async () => JSON.stringify(await names()) === JSON.stringify(low), 5000, `admin's low ${low}`);
    await page.getByLabel('User').fill('nobody');
    await page.getByText('No workloads here with these filters.').waitFor();
    assert(!(await want('/api/v1/workloads?user=nobody')).length, 'the API has none of nobody');
    await page.getByLabel('Priority class').fill('');
    await page.getByLabel('User').fill('');
    await page.locator('table.tasks tbody tr').first().waitFor();
  });
}

// A member of alpha resumes its Space once allotd suspended it.
async function resumeChecks(browser, allotd, admin) {
  const member = await openPage(browser, allotd.base);
  await check('a member resumes its suspended Space from its page', async () => {
    const path = '/api/v1/namespaces/alpha/workloads/alpha-notebook';
    await until(async () => (await admin.get(path)).json.status.phase === 'Suspended', 20000, 'the Space is suspended');
    const { page } = member;
    await logIn(page, { username: 'ana', password: PASSWORD, team: 'alpha', role: 'team-member' });
    await visit(page, '#/tasks/alpha/alpha-notebook', 'alpha/alpha-notebook');
    await page.locator('.phase-suspended').waitFor();
    await page.screenshot({ path: join(artifacts, 'workload-suspended.png'), fullPage: true });
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByText('Resume accepted.').waitFor();
    const events = (await admin.get(`${path}/events`)).json.items;
    assert(events.some((e) => /Resum/.test(`${e.reason} ${e.message}`)), `resumed: ${JSON.stringify(events)}`);
    const w = (await admin.get(path)).json;
    assert(w.status.reason === 'Resumed' || w.status.phase !== 'Suspended' || (w.status.restarts || 0) > 0,
      `after the resume: ${JSON.stringify(w.status)}`);
    assert(!member.seen.errors.length, member.seen.errors.join('\n'));
  });
  await check('a member may not resume a workload that is not a suspended Space: the server says why', async () => {
    const answer = await member.page.evaluate(async () => {
      const who = await fetch('/ui/session').then((r) => r.json());
      const r = await fetch('/api/v1/namespaces/alpha/workloads/alpha-run/resume', {
        method: 'POST',
        headers: { 'X-CSRF-Token': who.csrfToken },
      });
      return { status: r.status, body: await r.text() };
    });
    assert(answer.status === 409, `resume of a running workload: ${JSON.stringify(answer)}`);
    await visit(member.page, '#/tasks/alpha/alpha-run', 'alpha/alpha-run');
    await member.page.getByRole('button', { name: 'Cancel workload' }).waitFor();
    assert((await member.page.getByRole('button', { name: 'Resume' }).count()) === 0, 'no resume for a running one');
  });
  await check("a member's cohort tree has its team's own cohort, and says the cohorts above are not visible", async () => {
    await visit(member.page, '#/teams', 'Teams');
    const tree = member.page.getByTestId('cohort-tree');
    await tree.locator('[data-cohort="org"] > ul > [data-tree-team="alpha"]').waitFor();
    await member.page.getByText('the cohorts above it are not visible to you').waitFor();
  });
  await member.context.close();
  await admin.post('/api/v1/namespaces/alpha/workloads/alpha-notebook/cancel');
}

await main();
console.log(runner.summary(artifacts));
process.exit(runner.failed() ? 1 : 0);
