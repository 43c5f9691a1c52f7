import { expect, test, type Page } from '@playwright/test';
import { isPhone, signUp, signUpViaApi, toastWith, uniqueUsername } from './support.ts';

test('sign up shows each validation message, then welcomes the new member @phone', async ({
  page,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Sign Up' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Join the Grind' })).toBeVisible();
  await expect(dialog.getByText('Create your account to join the community')).toBeVisible();

  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(dialog.getByText('Username is required')).toBeVisible();
  await expect(dialog.getByText('Password is required')).toBeVisible();
  await expect(dialog.getByText('Please confirm your password')).toBeVisible();

  await dialog.getByLabel('Username').fill('ab');
  await dialog.getByLabel('Password', { exact: true }).fill('123');
  await dialog.getByLabel('Confirm Password').fill('124');
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(dialog.getByText('Username must be at least 3 characters')).toBeVisible();
  await expect(dialog.getByText('Password must be at least 6 characters')).toBeVisible();

  const name = uniqueUsername('Neo');
  await dialog.getByLabel('Username').fill(name);
  await dialog.getByLabel('Password', { exact: true }).fill('grind123');
  await dialog.getByLabel('Confirm Password').fill('grind124');
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(dialog.getByText("Passwords don't match")).toBeVisible();

  // The password toggle reveals the text.
  const password = dialog.getByLabel('Password', { exact: true });
  await expect(password).toHaveAttribute('type', 'password');
  await dialog.getByRole('button', { name: 'Show password' }).first().click();
  await expect(password).toHaveAttribute('type', 'text');

  await dialog.getByLabel('Confirm Password').fill('grind123');
  await dialog.getByRole('button', { name: 'Create Account' }).click();
  await expect(toastWith(page, `Account created successfully. Welcome ${name}!`)).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('avatar-letter')).toHaveText('N');
  if (!isPhone(page)) await expect(page.getByText(`Welcome, ${name}`)).toBeVisible();

  // The session survives a reload (cookie session checked on start).
  await page.reload();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});

test('logout from the menu, failed login toast, then login success', async ({ page }) => {
  const name = uniqueUsername('Trinity');
  await page.goto('/');
  await signUp(page, name);
  const gallery = page.locator('section#gallery');
  const game = page.locator('section#game');
  // Both load as they come near the screen.
  await gallery.scrollIntoViewIfNeeded();
  await game.scrollIntoViewIfNeeded();
  await expect(gallery.getByRole('button', { name: 'Submit Meme' })).toBeAttached();
  await expect(game.getByText('Playing as a visitor')).toHaveCount(0);

  await page.getByRole('button', { name: 'Account menu' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByText(name)).toBeVisible();
  await expect(menu.getByRole('menuitem', { name: 'Settings' })).toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await menu.getByRole('menuitem', { name: 'Logout' }).click();
  await expect(toastWith(page, 'You have been successfully logged out.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Login', exact: true })).toBeVisible();
  // Every part of the page is a visitor's at once, without a reload.
  await expect(gallery.getByRole('button', { name: 'Login to Upload' })).toBeAttached();
  await expect(gallery.getByRole('button', { name: 'Submit Meme' })).toHaveCount(0);
  await expect(game.getByText('Playing as a visitor')).toBeAttached();

  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: 'Welcome Back' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(dialog.getByText('Username is required')).toBeVisible();
  await expect(dialog.getByText('Password is required')).toBeVisible();

  await dialog.getByLabel('Username').fill(name);
  await dialog.getByLabel('Password', { exact: true }).fill('wrong-password');
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toastWith(page, 'Login failed')).toBeVisible();
  await expect(toastWith(page, 'Invalid username or password')).toBeVisible();

  await dialog.getByLabel('Password', { exact: true }).fill('grind123');
  await dialog.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toastWith(page, `Hello ${name}, you're now logged in.`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
});

test('switching mode and closing the dialog reset the forms', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Username').fill('someone');
  await dialog.getByRole('button', { name: 'Sign up' }).click();
  await expect(dialog.getByRole('heading', { name: 'Join the Grind' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(dialog.getByLabel('Username')).toHaveValue('');
  await dialog.getByLabel('Username').fill('someone');
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByRole('dialog').getByLabel('Username')).toHaveValue('');
});

test('closing the dialog gives the keyboard focus back to the button that opened it', async ({
  page,
}) => {
  await page.goto('/');
  const login = page.getByRole('button', { name: 'Login', exact: true });
  const signUpButton = page.getByRole('button', { name: 'Sign Up' });
  await login.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByLabel('Username')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toBeHidden();
  await expect(login).toBeFocused();

  await signUpButton.focus();
  await page.keyboard.press('Enter');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(signUpButton).toBeFocused();
});

/** A section's distance from the top of the viewport once the page has stopped scrolling
 * (smooth scrolling passes through the right place on its way to a wrong one). */
function settledTop(page: Page, id: string): Promise<number> {
  return page.evaluate(async (sectionId) => {
    // Still for 20 painted frames in a row: counted in frames, so a slow machine (fewer frames a
    // second) waits longer instead of mistaking a stalled scroll for a finished one.
    let last = NaN;
    for (let still = 0; still < 20;) {
      await new Promise(requestAnimationFrame);
      still = window.scrollY === last ? still + 1 : 0;
      last = window.scrollY;
    }
    return document.getElementById(sectionId)!.getBoundingClientRect().top;
  }, id);
}

test('below lg a menu repeats the sections and closes after a choice; above it the bar shows them @phone', async ({
  page,
}) => {
  await page.goto('/');
  const openMenu = page.getByRole('button', { name: 'Open menu' });
  if (!isPhone(page)) {
    await expect(openMenu).toBeHidden();
    await expect(
      page.getByRole('navigation', { name: 'Sections' }).getByRole('button', { name: 'Game' }),
    ).toBeVisible();
    return;
  }
  await expect(page.getByRole('navigation', { name: 'Sections' })).toBeHidden();
  await openMenu.click();
  const menu = page.locator('#mobile-menu');
  await expect(menu.getByRole('button', { name: 'Game' })).toBeVisible();
  await menu.getByRole('button', { name: 'Home' }).click();
  await expect(menu).toBeHidden();
  await expect(openMenu).toHaveAttribute('aria-expanded', 'false');

  // Each choice lands its section just below the header, however far down the page it starts.
  // (After a first choice of the section already in view, the next ones used to land the open
  // menu's height too far down.)
  await page.getByRole('button', { name: 'Learn More' }).click();
  await settledTop(page, 'tokenomics');
  const headerHeight = (await page.locator('header').first().boundingBox())!.height;
  for (const id of ['tokenomics', 'chart', 'roadmap']) {
    await openMenu.click();
    const choice = menu.getByRole('button', { name: id[0]!.toUpperCase() + id.slice(1) });
    await expect(choice).toBeVisible(); // a person sees the menu before choosing
    await choice.click();
    const top = await settledTop(page, id);
    expect(Math.abs(top - headerHeight), `${id} lands at ${top}`).toBeLessThan(2);
  }
});

test('an unknown path shows the 404 page with a way home', async ({ page }) => {
  const res = await page.goto('/no/such/page');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeHidden();
});

test('the longest username fits the header, on the home page, in the shop and on its page @phone', async ({
  page,
}) => {
  const name = `${uniqueUsername('W')}${'W'.repeat(32)}`.slice(0, 32);
  await page.goto('/');
  await signUpViaApi(page, name);
  for (const path of ['/', '/shop', `/u/${name}`]) {
    await page.goto(path);
    await expect(page.getByRole('button', { name: 'Account menu' })).toBeVisible();
    const width = page.viewportSize()!.width;
    if (path.startsWith('/u/')) {
      // The member's own page names them in its heading, broken across lines on a phone.
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading).toContainText(name);
      expect(await heading.evaluate((h) => h.scrollWidth - h.clientWidth)).toBe(0);
      const box = (await heading.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
    if (!isPhone(page)) {
      await expect(page.getByText(`Welcome, ${name}`)).toHaveAttribute('title', name);
    } else {
      // The bar has no room for the greeting: the menu carries it.
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.locator('#mobile-menu')).toContainText(`Welcome, ${name}`);
      await page.getByRole('button', { name: 'Close menu' }).click();
    }
  }
  if (!isPhone(page)) {
    // The narrowest width with the section buttons in the bar.
    await page.setViewportSize({ width: 1024, height: 768 });
    await expect(page.getByRole('navigation', { name: 'Sections' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      1024,
    );
  }
});
