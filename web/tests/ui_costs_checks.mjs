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

// Efficiency beside cost: this allotd runs without NVML (no --nvml-library),
// so the report's measuredGpuHours and gpuUtilization are null: each row and
// the totals say "not measured" (never 0), and the CSV (`csv`, its lines)
// ends with the CLI's two columns, empty.
export async function costEfficiencyChecks(page, admin, csv, { assert }) {
  const to = new Date();
  const from = new Date(to.getTime() - 86400e3).toISOString();
  const report = await admin.get(`/api/v1/reports/usage?by=team&from=${from}&to=${to.toISOString()}`);
  assert(report.status === 200, `report: ${report.status} ${report.text}`);
  for (const row of [...report.json.rows, report.json.totals]) {
    assert(row.measuredGpuHours === null && row.gpuUtilization === null, `not measured in JSON: ${JSON.stringify(row)}`);
  }
  await page.getByRole('columnheader', { name: 'GPU-hours measured' }).waitFor();
  await page.getByRole('columnheader', { name: 'GPU utilisation' }).waitFor();
  for (const where of ['tr[data-team="alpha"]', 'tr[data-team="beta"]', 'tfoot tr']) {
    for (const cell of ['measured', 'utilization']) {
      const text = await page.locator(where).getByTestId(cell).textContent();
      assert(text === 'not measured', `${where} ${cell}: ${text}`);
    }
  }
  const header = csv[0].split(',');
  assert(header.slice(-3).join(',') === 'currency,measuredGpuHours,gpuUtilization', `CSV header: ${csv[0]}`);
  assert(csv.slice(1).every((line) => line.endsWith(',USD,,')), `CSV: not measured is empty: ${csv.join('\n')}`);
}
