// Teams' wait percentiles, fair share and GPUs over time (GET
// /api/v1/top/stats), in the dashboard's browser test: the page shows the
// API's figures; the range picker changes the request (range=1h: 60 one-minute
// bars); a change told by the change stream (a node cordoned and uncordoned)
// fetches the figures again within 2 s; a viewer of alpha sees beta's quota
// and fair share (top's aggregates) but neither its waits nor its series.

const STATS = /\/api\/v1\/top\/stats\?range=/;

async function waitFor(probe, ms, what) {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function teamStatsChecks(page, admin, seen, { visit, axeCheck, assert, screenshot }) {
  await visit(page, '#/teams', 'Teams', 'teams-stats');
  const stats = (await admin.get('/api/v1/top/stats?range=24h')).json;
  const alpha = stats.teams.find((t) => t.team === 'alpha');
  assert(alpha && alpha.wait && alpha.wait.admitted >= 1, `alpha's waits: ${JSON.stringify(alpha)}`);
  const wait = page.locator('tr[data-team="alpha"] [data-stat="wait"]');
  await wait.getByText(`(${alpha.wait.admitted})`).waitFor();
  assert(/^[\d.,]+ (s|min|h) \/ [\d.,]+ (s|min|h) \/ [\d.,]+ (s|min|h) \(\d+\)$/.test(await wait.textContent()),
    `wait cell: ${await wait.textContent()}`);
  const share = await page.locator('tr[data-team="alpha"] [data-stat="fair-share"]').textContent();
  assert(/borrowed share, weight 1$/.test(share), `fair share cell: ${share}`);
  // alpha holds a GPU: its chart has bars; 24 h is 24 of them.
  await page.locator('figure[data-series="alpha"] svg.chart').waitFor();
  assert((await page.locator('figure[data-series="alpha"] rect.bar-own').count()) === 24, '24 hourly bars');
  assert(seen.requests.some((u) => /\/api\/v1\/top\/stats\?range=24h$/.test(u)), 'the page asked for 24h');

  const picker = page.getByRole('group', { name: 'Time range' });
  const [request] = await Promise.all([
    page.waitForRequest((r) => STATS.test(r.url())),
    picker.getByRole('button', { name: '1 h' }).click(),
  ]);
  assert(request.url().endsWith('range=1h'), `the picker asked ${request.url()}`);
  await page.waitForFunction(() => document.querySelectorAll('figure[data-series="alpha"] rect.bar-own').length === 60);
  assert((await picker.getByRole('button', { name: '1 h' }).getAttribute('aria-pressed')) === 'true', '1 h pressed');
  await screenshot('teams-1h');
  await axeCheck(page, 'teams with stats');

  // Live: a node's change (told by the change stream) fetches the figures again.
  const before = seen.requests.filter((u) => STATS.test(u)).length;
  const t0 = Date.now();
  for (const verb of ['cordon', 'uncordon']) {
    const reply = await admin.post(`/api/v1/nodes/node-0/${verb}`, {});
    assert(reply.status === 200, `${verb}: ${reply.status} ${reply.text}`);
  }
  await waitFor(async () => seen.requests.filter((u) => STATS.test(u)).length > before, 2000, 'the stats fetched again');
  console.log(`figure: Teams fetched its figures again ${Date.now() - t0} ms after a change`);
}

export async function teamStatsViewerChecks(page, seen, { visit, assert }) {
  await visit(page, '#/teams', 'Teams', 'viewer-teams-stats');
  await page.locator('figure[data-series="alpha"]').waitFor();
  const beta = page.locator('tr[data-team="beta"]');
  assert((await beta.locator('[data-stat="wait"]').textContent()) === 'not visible to you', 'beta waits hidden');
  assert(/weight 1$/.test(await beta.locator('[data-stat="fair-share"]').textContent()), "beta's fair share shown");
  assert((await page.locator('figure[data-series="beta"]').count()) === 0, 'no beta series');
  const bodies = seen.bodies.filter((r) => STATS.test(r.url));
  assert(bodies.length && bodies.every((r) => r.status === 200), 'the stats were fetched');
  for (const r of bodies) {
    const betaRow = JSON.parse(r.body).teams.find((t) => t.team === 'beta');
    assert(betaRow.wait === null && betaRow.series === null, `beta's figures sent: ${JSON.stringify(betaRow)}`);
  }
}
