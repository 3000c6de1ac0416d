// The Costs view's grouping and idle modes, in the dashboard's browser test
// (ui_test.mjs runs it once the governance fixtures' contracts exist): per
// project (a contract; work in no contract's namespace, beta's, is "(no contract)"),
// idle always separate there; per team with idle shared evenly or by quota
// (the idle columns), then separate again (the cluster's idle line).
export async function costGroupingChecks(page, { visit, axeCheck, assert, screenshot }) {
  await visit(page, '#/costs', 'Costs', 'costs-grouping-before');
  await page.getByRole('button', { name: 'Project', exact: true }).click();
  await page.getByRole('heading', { name: 'Usage and cost per project' }).waitFor();
  // Both contracts name namespace alpha: its work goes to the first by name
  // (docs/cost.md), alpha-extra.
  const project = page.locator('tbody tr[data-project="alpha-extra"]');
  await project.waitFor();
  assert(/USD/.test(await project.textContent()), `alpha-extra: a cost in USD: ${await project.textContent()}`);
  assert((await page.locator('tbody tr[data-project="alpha-research"]').count()) === 0, 'one contract per namespace');
  await page.locator('tr[data-project=""]').getByText('(no contract)').waitFor();
  assert(await page.getByRole('button', { name: 'shared evenly' }).isDisabled(), 'idle stays separate per project');
  await screenshot('costs-by-project');
  await axeCheck(page, 'costs per project');

  await page.getByRole('button', { name: 'Team', exact: true }).click();
  await page.getByRole('button', { name: 'shared evenly' }).click();
  await page.getByRole('columnheader', { name: 'Idle GPU-hours shared' }).waitFor();
  for (const team of ['alpha', 'beta']) await page.locator(`tr[data-team="${team}"]`).waitFor();
  await page.getByRole('button', { name: 'shared by quota' }).click();
  await page.getByRole('button', { name: 'shared by quota', pressed: true }).waitFor();
  await page.getByRole('columnheader', { name: 'Idle cost' }).waitFor();
  await screenshot('costs-idle-shared');
  await axeCheck(page, 'costs with idle shared');
  await page.getByRole('button', { name: 'separate' }).click();
  // The report asked again with idle=separate: the idle columns go (a timeout fails).
  await page.getByRole('columnheader', { name: 'Idle cost' }).waitFor({ state: 'detached' });
  await page.getByTestId('idle').waitFor();
}
