import { expect, test } from '@playwright/test';

// The game's canvas (src/shared/game/constants.ts) is 700x400 CSS px wherever the viewport allows it; narrower
// screens scale it down at 7:4. Its backing store is the CSS size times devicePixelRatio, so the
// picture is sharp on high-density screens and no larger than needed elsewhere.

const screens = [
  { width: 1366, height: 900 },
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

for (const viewport of screens) {
  for (const deviceScaleFactor of [1, 2]) {
    test.describe(`${viewport.width}x${viewport.height} at devicePixelRatio ${deviceScaleFactor}`, () => {
      test.use({ viewport, deviceScaleFactor });

      test('the game canvas is 700x400 CSS px or scaled down at 7:4, its backing store by pixel ratio', async ({
        page,
      }) => {
        await page.goto('/');
        // The game section loads as it nears the viewport.
        await page.locator('section#game').scrollIntoViewIfNeeded();
        const canvas = page.locator('#game canvas');
        await expect(canvas).toBeVisible({ timeout: 30_000 });
        // The renderer sizes the backing store once it is attached; wait for the size it settles on.
        await expect
          .poll(() =>
            canvas.evaluate(
              (c: HTMLCanvasElement) =>
                c.width === Math.round(c.getBoundingClientRect().width * devicePixelRatio),
            ),
          )
          .toBe(true);
        const m = await canvas.evaluate((c: HTMLCanvasElement) => {
          const box = c.getBoundingClientRect();
          return {
            cssWidth: box.width,
            cssHeight: box.height,
            width: c.width,
            height: c.height,
            dpr: devicePixelRatio,
          };
        });
        expect(m.dpr).toBe(deviceScaleFactor);
        if (viewport.width >= 1024) {
          expect([m.cssWidth, m.cssHeight]).toEqual([700, 400]);
          expect([m.width, m.height]).toEqual([700 * deviceScaleFactor, 400 * deviceScaleFactor]);
        } else {
          // As wide as the screen allows, less the page's side padding.
          expect(m.cssWidth).toBeLessThanOrEqual(viewport.width);
          expect(m.cssWidth).toBeGreaterThan(viewport.width - 40);
          expect(m.cssHeight).toBeCloseTo((m.cssWidth * 4) / 7, 1);
          expect(m.width).toBe(Math.round(m.cssWidth * deviceScaleFactor));
          expect(m.height).toBe(Math.round((m.width * 4) / 7));
          expect(Math.abs(m.height - m.cssHeight * deviceScaleFactor)).toBeLessThanOrEqual(1);
        }
      });
    });
  }
}
