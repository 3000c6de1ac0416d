// Hardware's chart over time (GET /api/v1/top/hardware) in the dashboard's
// browser test: the chart draws the values the page fetched (each bucket's
// bar heights and its title); the range picker asks range=1h (60 buckets); a
// change told by the change stream fetches the chart again within 2 s; a
// node's health failure shows as unhealthy GPUs within 2 s of allotd seeing
// it; axe clean. The body names no team or workload.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const HARDWARE = /\/api\/v1\/top\/hardware\?range=/;
const HEIGHT = 160; // StackedBars' drawing height

async function waitFor(probe, ms, what) {
  const until = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > until) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function lastFetched(seen) {
  const replies = seen.bodies.filter((r) => HARDWARE.test(r.url) && r.status === 200);
  return replies.length ? JSON.parse(replies[replies.length - 1].body) : null;
}

// What the page drew: per bucket its title and bar heights.
function drawn(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('figure[data-chart="hardware"] svg.chart > g')].map((g) => ({
      title: g.querySelector('title').textContent,
      allocated: Number(g.querySelector('rect.bar-allocated').getAttribute('height')),
      free: Number(g.querySelector('rect.bar-free').getAttribute('height')),
      unhealthy: Number(g.querySelector('rect.bar-unhealthy').getAttribute('height')),
    })),
  );
}

function number(text) {
  return Number(text.replace(/,/g, ''));
}

// True when the chart shows exactly the last response's buckets.
async function drawsFetched(page, seen) {
  const stats = lastFetched(seen);
  if (!stats) return false;
  const bars = await drawn(page);
  if (bars.length !== stats.buckets.length) return false;
  const most = Math.max(1e-9, ...stats.buckets.map((b) => b.allocated + b.free + b.unhealthy));
  return stats.buckets.every((b, i) => {
    const m = /: ([\d.,]+) GPUs? allocated, ([\d.,]+) GPUs? free, ([\d.,]+) GPUs? unhealthy/.exec(bars[i].title);
    if (!m) return false;
    const close = (text, value) => Math.abs(number(text) - value) <= 0.051;
    const height = (value, h) => Math.abs((value / most) * HEIGHT - h) < 0.01;
    return close(m[1], b.allocated) && close(m[2], b.free) && close(m[3], b.unhealthy) &&
      height(b.allocated, bars[i].allocated) && height(b.free, bars[i].free) && height(b.unhealthy, bars[i].unhealthy);
  });
}

export async function hardwareChartChecks(page, admin, seen, { visit, axeCheck, assert, screenshot }) {
  await visit(page, '#/hardware', 'Hardware', 'hardware-chart');
  await page.locator('figure[data-chart="hardware"] svg.chart').waitFor();
  assert(seen.requests.some((u) => /\/api\/v1\/top\/hardware\?range=24h$/.test(u)), 'the page asked for 24h');
  await waitFor(() => drawsFetched(page, seen), 2000, 'the chart draws the 24 h buckets fetched');
  const day = lastFetched(seen);
  assert(day.buckets.length === 24 && day.gpus === 8, `24 buckets of 8 GPUs: ${JSON.stringify(day).slice(0, 300)}`);
  assert(day.buckets[23].allocated > 0, `GPUs allocated in the last hour: ${JSON.stringify(day.buckets[23])}`);
  for (const r of seen.bodies.filter((b) => HARDWARE.test(b.url))) {
    assert(!/alpha|beta/.test(r.body), `the chart's body names a team: ${r.body.slice(0, 300)}`);
  }

  const picker = page.locator('section[aria-labelledby="hardware-over-time"]').getByRole('group', { name: 'Time range' });
  const [request] = await Promise.all([
    page.waitForRequest((r) => HARDWARE.test(r.url())),
    picker.getByRole('button', { name: '1 h' }).click(),
  ]);
  assert(request.url().endsWith('range=1h'), `the picker asked ${request.url()}`);
  await waitFor(async () => (await drawn(page)).length === 60 && (await drawsFetched(page, seen)), 2000, '60 one-minute buckets drawn');
  await screenshot('hardware-1h');
  await axeCheck(page, 'hardware with its chart');

  // Live: a node's change (told by the change stream) fetches the chart again.
  const before = seen.requests.filter((u) => HARDWARE.test(u)).length;
  const t0 = Date.now();
  for (const verb of ['cordon', 'uncordon']) {
    const reply = await admin.post(`/api/v1/nodes/node-0/${verb}`, {});
    assert(reply.status === 200, `${verb}: ${reply.status} ${reply.text}`);
  }
  await waitFor(async () => seen.requests.filter((u) => HARDWARE.test(u)).length > before, 2000, 'the chart fetched again');
  console.log(`figure: Hardware fetched its chart again ${Date.now() - t0} ms after a change`);
  await waitFor(() => drawsFetched(page, seen), 2000, 'the chart draws what it fetched again');
}

// Run after the node checks (a node turned unhealthy and back): node-0 fails
// while Hardware is open on 1 h; the last bucket's unhealthy GPUs the page
// fetched grow, and are drawn, within 2 s of allotd seeing it.
export async function hardwareUnhealthyChecks(page, admin, failDir, seen, { visit, assert }) {
  await visit(page, '#/hardware', 'Hardware', 'hardware-before-failure');
  await page.locator('section[aria-labelledby="hardware-over-time"]').getByRole('button', { name: '1 h' }).click();
  await waitFor(async () => (await drawn(page)).length === 60 && (await drawsFetched(page, seen)), 2000, '60 buckets');
  // The last bucket is the minute up to the fetch: a spell that ended in it
  // (the node checks' node-1, seconds ago) stays whole in it for a while,
  // then leaves it; more unhealthy GPU-time in it is a new failure.
  const unhealthyLast = () => lastFetched(seen).buckets[59].unhealthy;
  const before = unhealthyLast();
  const name = 'node-0';
  writeFileSync(join(failDir, `fail-${name}`), '');
  try {
    await waitFor(async () => (await admin.get(`/api/v1/nodes/${name}`)).json.healthy === false, 10000, `${name} unhealthy`);
    const t0 = Date.now();
    await waitFor(async () => unhealthyLast() > before && (await drawsFetched(page, seen)), 2000,
      `more than ${before} unhealthy GPUs in the last bucket, drawn`);
    console.log(`figure: Hardware drew a node's failure ${Date.now() - t0} ms after allotd saw it`);
    const last = (await drawn(page))[59];
    assert(last.unhealthy > 0, `the last bucket's unhealthy bar: ${JSON.stringify(last)}`);
    assert(unhealthyLast() <= 8, `the API's last bucket: ${JSON.stringify(lastFetched(seen).buckets[59])}`);
  } finally {
    rmSync(join(failDir, `fail-${name}`), { force: true });
  }
}
