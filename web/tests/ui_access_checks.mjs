// Checks of ui_test.mjs about who sees and does what: a viewer of alpha
// (beta's workloads, costs and budgets never shown, its change stream, its
// logout revoking the session) and a member of alpha (cancels its own,
// refused another team's and without the CSRF header, no contracts, a
// refusal's reason shown). The helpers (openPage, check, logIn, ...) are
// ui_test.mjs's, passed in.
import { join } from 'node:path';
import { tasksChartViewerChecks } from './ui_activity_checks.mjs';
import { teamStatsViewerChecks } from './ui_team_checks.mjs';
import { BETA_BUDGET, PASSWORD, SECRET, workload } from './ui_fixtures.mjs';

// A viewer of alpha: beta's workloads, costs and budgets never shown; logout.
export async function viewerChecks(browser, allotd, admin, helpers) {
  const { openPage, check, logIn, shots, assert, visit, axeCheck, artifacts } = helpers;
  const viewer = await openPage(browser, allotd.base);
  await check('a viewer of alpha sees alpha, never beta\'s workload names, and no cancel button', async () => {
    const { page, seen } = viewer;
    await logIn(page, { username: 'vic', password: PASSWORD, team: 'alpha', role: 'team-viewer' });
    await visit(page, '#/overview', 'Overview', 'viewer-overview');
    await visit(page, '#/hardware', 'Hardware', 'viewer-hardware');
    await page.locator('.problem').waitFor();
    await visit(page, '#/teams', 'Teams', 'viewer-teams');
    await teamStatsViewerChecks(page, seen, { visit, assert });
    await visit(page, '#/tasks', 'Tasks', 'viewer-tasks');
    await page.getByRole('link', { name: 'alpha-train' }).waitFor();
    await visit(page, '#/tasks/alpha/alpha-train', 'alpha/alpha-train', 'viewer-workload');
    await page.getByText('hello-from-alpha').waitFor();
    await page.waitForTimeout(300); // the access reviews have answered
    assert((await page.getByRole('button', { name: 'Cancel workload' }).count()) === 0, 'no cancel button');
    await visit(page, `#/tasks/beta/${SECRET}`, `beta/${SECRET}`, 'viewer-other-team');
    await page.locator('.problem').waitFor();
    const dom = await page.evaluate(() => document.body.innerText);
    assert(!dom.includes('sleep 600'), 'no other workload detail');
    await visit(page, '#/tasks', 'Tasks', 'viewer-tasks-again');
    assert(!(await page.content()).includes(SECRET), 'beta name not in the DOM');
    const leaked = seen.bodies.filter((r) => r.body.includes(SECRET) && !r.url.includes(`/workloads/${SECRET}`));
    assert(!leaked.length, `beta's name in ${leaked.map((r) => r.url).join(', ')}`);
    const refused = seen.bodies.filter((r) => r.url.includes(`/workloads/${SECRET}`));
    assert(refused.every((r) => !r.body.includes('"spec"')), 'the refused GET shows nothing');
  });

  await check('a viewer of alpha: the Tasks chart counts alpha\'s workloads only', () =>
    tasksChartViewerChecks(viewer.page, admin, viewer.seen, shots(viewer.page)));

  await check("a viewer of alpha sees alpha's costs and budget, never beta's, and no signals or contracts", async () => {
    const { page, seen } = viewer;
    await visit(page, '#/costs', 'Costs', 'viewer-costs');
    await page.locator('tr[data-team="alpha"]').waitFor();
    await page.locator('tr[data-budget="alpha-budget"]').waitFor();
    await page.getByRole('button', { name: '30 d' }).click();
    await page.locator('tr[data-team="alpha"]').waitFor();
    assert((await page.locator('tr[data-team="beta"]').count()) === 0, 'no beta row');
    assert((await page.getByTestId('idle').count()) === 0, 'no cluster-wide idle for a team viewer');
    const main = await page.locator('main').innerText();
    assert(!/beta/.test(main), `beta on the Costs page: ${main}`);
    assert(!(await page.content()).includes(BETA_BUDGET), 'beta budget not in the DOM');
    await visit(page, '#/signals', 'Signals', 'viewer-signals');
    await page.locator('.problem').waitFor();
    assert((await page.locator('tr[data-signal]').count()) === 0, 'no signal shown');
    await visit(page, '#/contracts', 'Contracts', 'viewer-contracts');
    await page.locator('.problem').waitFor();
    await visit(page, '#/overview', 'Overview', 'viewer-overview-costs');
    await page.getByText('spent this period').waitFor();
    const fetched = seen.bodies.filter((r) => /\/api\/v1\/(reports|budgets)/.test(r.url));
    assert(fetched.some((r) => /reports\/usage/.test(r.url) && r.status === 200), 'the report was fetched');
    assert(fetched.some((r) => /budgets/.test(r.url) && r.status === 200), 'the budgets were fetched');
    const leaked = fetched.filter((r) => /beta/.test(r.body));
    assert(!leaked.length, `beta in ${leaked.map((r) => `${r.url}: ${r.body.slice(0, 200)}`).join('\n')}`);
    assert(!seen.bodies.some((r) => r.body.includes(BETA_BUDGET)), `${BETA_BUDGET} in a response`);
    const polled = seen.bodies.filter((r) => /\/api\/v1\/signals/.test(r.url));
    assert(polled.length <= 2 && polled.every((r) => r.status === 403), `signals asked ${polled.length} times`);
  });

  await check("the viewer's change stream names alpha's new workload and never beta's", async () => {
    const cookie = await sessionCookie(viewer.context, assert);
    const stream = await readStream(allotd.base, cookie, async () => {
      for (const [ns, name] of [['beta', 'beta-stream-secret'], ['alpha', 'alpha-stream-shown']]) {
        const reply = await admin.post(`/api/v1/namespaces/${ns}/workloads`, workload(name, 1, 'true'));
        assert(reply.status === 201, `submit ${name}: ${reply.status} ${reply.text}`);
      }
    }, 'alpha-stream-shown', assert);
    assert(stream.includes('"name":"alpha-stream-shown"'), `alpha's workload not told: ${stream}`);
    assert(stream.includes('{"kind":"Workload"}'), `beta's change not told as a bare kind: ${stream}`);
    assert(!stream.includes('beta-stream-secret') && !stream.includes(SECRET) && !stream.includes('"beta"'),
      `beta named in the viewer's stream: ${stream}`);
  });

  await check('logout revokes the session: the API refuses the page and the old cookie afterwards', async () => {
    const { page } = viewer;
    const cookie = await sessionCookie(viewer.context, assert);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    const status = await page.evaluate(() => fetch('/api/v1/workloads').then((r) => r.status));
    assert(status === 401, `after logout: ${status}`);
    // The cookie copied before the logout (another tab, a thief) is refused too.
    const copied = await fetch(`${allotd.base}/api/v1/workloads`, { headers: { Cookie: cookie } });
    assert(copied.status === 401, `the old cookie after logout: ${copied.status}`);
    await page.screenshot({ path: join(artifacts, 'login.png') });
    await axeCheck(page, 'login');
  });
  await viewer.context.close();
}

// A member of alpha: cancel its own, refused another team's, no contracts.
export async function memberChecks(browser, allotd, admin, helpers) {
  const { openPage, check, logIn, assert, visit, artifacts } = helpers;
  const member = await openPage(browser, allotd.base);
  await check('a member cancels its own workload from its page', async () => {
    const { page } = member;
    await logIn(page, { username: 'ana', password: PASSWORD, team: 'alpha', role: 'team-member' });
    await visit(page, '#/tasks/alpha/alpha-live', 'alpha/alpha-live', 'member-workload');
    await page.getByRole('button', { name: 'Cancel workload' }).click();
    await page.getByText('Cancel accepted.').waitFor();
    const w = await admin.get('/api/v1/namespaces/alpha/workloads/alpha-live');
    assert(w.json.status.phase === 'Cancelled' || w.json.status.stopping, `phase ${w.json.status.phase}`);
  });

  await check("a member cannot cancel another team's workload: 403 with the reason", async () => {
    const { page } = member;
    const answer = await page.evaluate(async (name) => {
      const who = await fetch('/ui/session').then((r) => r.json());
      const r = await fetch(`/api/v1/namespaces/beta/workloads/${name}/cancel`, {
        method: 'POST',
        headers: { 'X-CSRF-Token': who.csrfToken },
      });
      return { status: r.status, body: await r.json() };
    }, SECRET);
    assert(answer.status === 403 && /cannot cancel/.test(answer.body.message), JSON.stringify(answer));
    const b = await admin.get(`/api/v1/namespaces/beta/workloads/${SECRET}`);
    assert(b.json.status.phase === 'Running' && !b.json.status.stopping, 'still running');
  });

  await check('a change without the CSRF header is refused', async () => {
    const { page } = member;
    const status = await page.evaluate(() =>
      fetch('/api/v1/namespaces/alpha/workloads/alpha-train/cancel', { method: 'POST' }).then((r) => r.status),
    );
    assert(status === 403, `without CSRF: ${status}`);
    const w = await admin.get('/api/v1/namespaces/alpha/workloads/alpha-train');
    assert(!w.json.status.stopping && w.json.status.phase === 'Running', 'not cancelled');
  });
  await check('a member of a team sees no contracts and no transition button', async () => {
    const { page } = member;
    await visit(page, '#/contracts', 'Contracts', 'member-contracts');
    await page.locator('.problem').waitFor();
    assert((await page.getByRole('button', { name: 'Approve' }).count()) === 0, 'no approve button');
  });

  await check("an action the server refuses shows the server's reason", async () => {
    const { page } = member;
    await visit(page, '#/tasks/alpha/alpha-huge', 'alpha/alpha-huge', 'member-pending');
    const cancel = page.getByRole('button', { name: 'Cancel workload' });
    await cancel.waitFor();
    // The binding goes after the page showed the button: the server decides.
    const removed = await admin.call('DELETE', '/api/v1/namespaces/alpha/rolebindings/ana');
    assert(removed.status === 200, `delete binding: ${removed.status} ${removed.text}`);
    await cancel.click();
    const shown = await page.locator('.actions + .problem, p.problem[role="status"]').first().textContent();
    assert(/cannot cancel/.test(shown), `shown: ${shown}`);
    await page.screenshot({ path: join(artifacts, 'member-refused.png') });
    const w = await admin.get('/api/v1/namespaces/alpha/workloads/alpha-huge');
    assert(w.json.status.phase === 'Pending', 'still pending');
  });
  await member.context.close();
}

// The session cookie of a browser context, as a Cookie header.
async function sessionCookie(context, assert) {
  const cookie = (await context.cookies()).find((c) => c.name === 'allot_session');
  assert(cookie, 'the session cookie');
  return `${cookie.name}=${cookie.value}`;
}

// GET /api/v1/watch with `cookie`: runs `act` once the stream said hello and
// returns what the stream sent until `until` appears (or 5 s pass).
async function readStream(base, cookie, act, until, assert) {
  const abort = new AbortController();
  const response = await fetch(`${base}/api/v1/watch`, { headers: { Cookie: cookie }, signal: abort.signal });
  assert(response.status === 200, `watch: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let acted = false;
  const deadline = Date.now() + 5000;
  try {
    while (Date.now() < deadline && !text.includes(until)) {
      const timeout = new Promise((resolve) => setTimeout(() => resolve({ timedOut: true }), deadline - Date.now()));
      const next = await Promise.race([reader.read(), timeout]);
      if (next.timedOut || next.done) break;
      text += decoder.decode(next.value, { stream: true });
      if (!acted && text.includes('event: hello')) {
        acted = true;
        await act();
      }
    }
  } finally {
    abort.abort();
  }
  return text;
}
