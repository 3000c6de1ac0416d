// Checks of ui_test.mjs that each open their own browser session: the
// approver a policy exception names deciding it, a user whose only right is
// contract-approver, and Costs, Signals and Contracts on a phone's width.
// The helpers (openPage, check, logIn, ...) are ui_test.mjs's, passed in.
import { join } from 'node:path';
import { exceptionNamedApproverChecks } from './ui_exception_checks.mjs';
import { bindContractApprover, contractApproverSessionChecks } from './ui_contract_checks.mjs';
import { PASSWORD, SECRET } from './ui_fixtures.mjs';

export async function separateSessionChecks(browser, allotd, admin, helpers) {
  const { openPage, check, logIn, shots, assert, visit, axeCheck, artifacts } = helpers;
  const named = await openPage(browser, allotd.base);
  await check('Policy exceptions: the approver an exception names decides it without any role to', async () => {
    await logIn(named.page, { username: 'vic', password: PASSWORD, team: 'alpha', role: 'team-viewer' });
    await exceptionNamedApproverChecks(named.page, admin, shots(named.page));
    assert(!named.seen.errors.length, named.seen.errors.join('\n'));
  });
  await named.context.close();
  const cora = await openPage(browser, allotd.base);
  await check('a contract-approver alone opens a browser session, approves a contract and sees no workload, node or quota', async () => {
    await bindContractApprover(admin, assert);
    await logIn(cora.page, { username: 'cora', password: PASSWORD, role: 'contract-approver' });
    await contractApproverSessionChecks(cora.page, admin, cora.seen, [SECRET, 'alpha-train', 'alpha-huge'], shots(cora.page));
    assert(!cora.seen.errors.length, cora.seen.errors.join('\n'));
  });
  await cora.context.close();
  const phone = await openPage(browser, allotd.base, { width: 390, height: 844 });
  await check('on a phone Costs, Signals and Contracts fit the width and stay accessible', async () => {
    const { page } = phone;
    await logIn(page, { token: allotd.adminToken });
    for (const [view, heading, ready] of [
      ['costs', 'Costs', 'tr[data-budget="alpha-budget"]'],
      ['signals', 'Signals', 'tr[data-signal="alpha-busy"]'],
      ['contracts', 'Contracts', '[data-contract="alpha-research"]'],
    ]) {
      await visit(page, `#/${view}`, heading, `phone-${view}`);
      await page.locator(ready).waitFor();
      await page.screenshot({ path: join(artifacts, `phone-${view}.png`), fullPage: true });
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      assert(width <= 390, `${view}: ${width} px wide on a 390 px screen`);
      await axeCheck(page, `phone ${view}`);
    }
  });
  await phone.context.close();
}
