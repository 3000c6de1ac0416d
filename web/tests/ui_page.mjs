// What the dashboard's browser tests (ui_test.mjs, ui_usability_test.mjs) do
// on a page alike: log in through the dashboard's own form, and check the page
// with axe-core (a serious or critical violation throws, naming each rule and
// its first element).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// fields: {token} or {username, password}, and optionally {team, role}.
export async function logIn(page, fields) {
  await page.waitForSelector('form');
  if (fields.token) {
    await page.getByRole('button', { name: 'Use an API token instead' }).click();
    await page.getByLabel('API token').fill(fields.token);
  } else {
    await page.getByLabel('User name').fill(fields.username);
    await page.getByLabel('Password').fill(fields.password);
  }
  if (fields.team) await page.getByLabel('Team (namespace)').fill(fields.team);
  if (fields.role) await page.getByLabel('Role').selectOption(fields.role);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
}

export async function axeCheck(page, where) {
  await page.evaluate(`${axeSource}\n;0`);
  const result = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }));
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (serious.length) {
    throw new Error(`${where}: axe: ${serious.map((v) => `${v.id} (${v.nodes.length}: ${v.nodes[0].target})`).join('; ')}`);
  }
}
