import { expect, test } from '@playwright/test';
import { NEVER_A_TRANSACTION } from '#shared/holders.ts';
import { installPageWallet } from '#test-support/page-wallet-script.ts';
import { TestWallet } from '#test-support/test-wallet.ts';
import { toastWith, uniqueUsername } from './support';

// Sign in with a wallet (issue 45): a visitor signs up with nothing but a wallet registered
// through the Wallet Standard (its key stays in the test process), lands on their own page, and
// signs in again from another browser with a wallet that has no `solana:signIn` (the same
// message, signed by `signMessage`).

test('a visitor signs up with only a wallet, sees their page, and signs in again by signMessage', async ({
  browser,
}) => {
  const wallet = new TestWallet();
  const name = uniqueUsername('wallet');

  const first = await browser.newContext();
  const page = await first.newPage();
  await installPageWallet(page, wallet, 'Grind Sign-In Wallet');
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('button', { name: 'Sign in with wallet' }).click();
  await expect(dialog.getByText(NEVER_A_TRANSACTION)).toBeVisible();
  await dialog.getByRole('button', { name: 'Sign in with Grind Sign-In Wallet' }).click();
  // No member has proven this wallet: it opens an account under the name the visitor picks.
  await dialog.getByLabel('Choose a username').fill(name);
  await dialog.getByRole('button', { name: 'Join with this wallet' }).click();
  await expect(toastWith(page, `Account created successfully. Welcome ${name}!`)).toBeVisible();

  await page.getByRole('button', { name: 'Account menu' }).click();
  await page.getByRole('menuitem', { name: 'My page' }).click();
  await expect(page).toHaveURL(new RegExp(`/u/${name}$`));
  const memberPage = page.getByTestId('member-page');
  await expect(memberPage.getByRole('heading', { name, level: 1 })).toBeVisible();
  const account = page.getByTestId('account-panel');
  await expect(account).toContainText('has not been checked yet');
  await expect(account.getByRole('heading', { name: 'Add a password' })).toBeVisible();
  await first.close();

  const second = await browser.newContext();
  const again = await second.newPage();
  await installPageWallet(again, wallet, 'Message-Only Wallet', undefined, { signIn: false });
  await again.goto('/');
  await again.getByRole('button', { name: 'Login', exact: true }).click();
  const login = again.getByRole('dialog');
  await login.getByRole('button', { name: 'Sign in with wallet' }).click();
  await login.getByRole('button', { name: 'Sign in with Message-Only Wallet' }).click();
  await expect(toastWith(again, `Hello ${name}, you're now logged in.`)).toBeVisible();
  await expect(again.getByRole('button', { name: 'Account menu' })).toBeVisible();
  await second.close();
});
