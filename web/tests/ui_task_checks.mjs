// Tasks sorted by the server across pages, in the dashboard's browser test:
// a workload of a higher priority class than all the others is last when
// Tasks sorts by priority ascending, two a page (`#/tasks?per=2`), so on
// the last page, and first when the header's button, pressed from the
// keyboard, reverses it. The page asks the server for the order (`sort`),
// and the header says it (aria-sort). The workload waits (it cannot fit)
// and is cancelled at the end.
import { workload } from './ui_fixtures.mjs';

const URGENT = `apiVersion: allot/v1
kind: PriorityClass
metadata: {name: urgent}
spec: {value: 100, preemptionPolicy: Never}
`;

// The names in the table, once they are `want` (a failure after 5 s).
async function untilRows(page, want, what) {
  try {
    await page.waitForFunction(
      (names) => {
        const cells = [...document.querySelectorAll('table.tasks tbody tr td:first-child')];
        return JSON.stringify(cells.map((c) => c.textContent.trim())) === JSON.stringify(names);
      },
      want,
      { timeout: 5000 },
    );
  } catch {
    const shown = await page.locator('table.tasks tbody tr td:first-child').allTextContents();
    throw new Error(`${what}: rows ${JSON.stringify(shown)}, want ${JSON.stringify(want)}`);
  }
}

export async function taskSortChecks(page, admin, seen, { visit, axeCheck, assert }) {
  const applied = await admin.apply(URGENT);
  assert(applied.status === 200, `apply: ${applied.status} ${applied.text}`);
  const body = workload('alpha-urgent', 4, 'true', 2);
  body.spec.priorityClass = 'urgent';
  const created = await admin.post('/api/v1/namespaces/alpha/workloads', body);
  assert(created.status === 201, `submit: ${created.status} ${created.text}`);
  try {
    const listed = await admin.get('/api/v1/workloads?sort=priority&limit=1000');
    assert(listed.status === 200, `sort=priority: ${listed.status} ${listed.text}`);
    const order = listed.json.items.map((w) => w.metadata.name);
    assert(order.length >= 4 && order[order.length - 1] === 'alpha-urgent', `the API's order: ${order}`);

    await visit(page, '#/tasks?per=2', 'Tasks', 'tasks-per-2');
    const before = seen.requests.length;
    const header = page.getByRole('columnheader', { name: /Priority/ });
    await header.getByRole('button').click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('th')].some((th) => /Priority/.test(th.textContent) && th.getAttribute('aria-sort') === 'ascending'));
    const pages = Math.ceil(order.length / 2);
    for (let i = 0; i < pages; i++) {
      await untilRows(page, order.slice(2 * i, 2 * i + 2), `page ${i + 1} by priority`);
      if (i + 1 < pages) await page.getByRole('button', { name: 'Next page' }).click();
    }
    assert(await page.getByRole('button', { name: 'Next page' }).isDisabled(), 'the last page has no next');
    // From the click on: a re-fetch the change stream asked for before it
    // (the submit above) may still carry the old order.
    const listings = seen.requests.slice(before).filter((u) => /\/api\/v1\/workloads\?/.test(u));
    const asked = listings.slice(listings.findIndex((u) => /[?&]sort=priority(&|$)/.test(u)));
    assert(asked.length >= pages && asked.every((u) => /[?&]sort=priority(&|$)/.test(u) && /[?&]limit=2(&|$)/.test(u)),
      `the pages were asked by priority, two at a time: ${listings.join(' ')}`);
    assert(asked.some((u) => /[?&]continue=priority\./.test(u)), `a continue token of the sort: ${asked.join(' ')}`);

    await header.getByRole('button').focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() =>
      [...document.querySelectorAll('th')].some((th) => /Priority/.test(th.textContent) && th.getAttribute('aria-sort') === 'descending'));
    const reversed = await admin.get('/api/v1/workloads?sort=-priority&limit=2');
    await untilRows(page, reversed.json.items.map((w) => w.metadata.name), 'the first page by -priority');
    assert((await page.locator('table.tasks tbody tr td:first-child').first().textContent()).trim() === 'alpha-urgent',
      'the urgent workload first');
    assert(/Page 1/.test(await page.locator('nav.pager').textContent()), 'a new sort starts at page 1');
    await axeCheck(page, 'tasks sorted by priority');
  } finally {
    await admin.post('/api/v1/namespaces/alpha/workloads/alpha-urgent/cancel');
  }
}
