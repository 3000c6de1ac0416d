// A node's health history on its page, in the dashboard's browser test
// (ui_test.mjs starts allotd with a health check that fails while the file
// FAIL_DIR/fail-NODE exists): the node turns unhealthy, then healthy again,
// and its page lists both changes, newest first. Run last: the unhealthy
// node's work is evicted.
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

async function untilNode(admin, name, healthy) {
  for (let i = 0; i < 100; i++) {
    const node = await admin.get(`/api/v1/nodes/${name}`);
    if (node.json && node.json.healthy === healthy) return node.json;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${name} did not turn ${healthy ? 'healthy' : 'unhealthy'} within 10 s`);
}

export async function nodeHealthHistoryChecks(page, admin, failDir, { visit, axeCheck, assert }) {
  const name = 'node-1';
  writeFileSync(join(failDir, `fail-${name}`), '');
  await untilNode(admin, name, false);
  rmSync(join(failDir, `fail-${name}`));
  const node = await untilNode(admin, name, true);
  assert(node.healthHistory.length === 2, `the API's history: ${JSON.stringify(node.healthHistory)}`);

  await visit(page, `#/hardware/${name}`, `Node ${name}`, 'node-health-history');
  const items = page.locator('ul.health-history li');
  await items.nth(1).waitFor();
  assert((await items.count()) === 2, `two changes listed: ${await items.count()}`);
  assert(/healthy again/.test(await items.nth(0).textContent()), `newest first: ${await items.nth(0).textContent()}`);
  assert((await items.nth(1).getAttribute('data-healthy')) === 'false', 'then the failure');
  assert(/unhealthy/.test(await items.nth(1).textContent()), `${await items.nth(1).textContent()}`);
  await axeCheck(page, 'node health history');
}
