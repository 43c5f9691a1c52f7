import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/chromium.ts';
import { freePort } from './tests/support/node-process.ts';

// Evaluated first in the runner, whose environment the workers inherit: one server, one fresh
// data folder. The port is the kernel's pick, as startNode takes one (a random one could fall
// in the ephemeral range and be taken by an outgoing connection before the server listens).
process.env.E2E_PORT ??= String(await freePort());
process.env.E2E_DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'grind-e2e-'));
const port = Number(process.env.E2E_PORT);

export default defineConfig({
  testDir: 'tests/e2e',
  // Journeys that play a whole round take most of a minute on a busy 2-core machine.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  // Three on 2 cores: journeys spend most of their time waiting (paced rounds, replays watched
  // to the end, live pages); with two the suite kept the machine about a third busy (CI of
  // 2026-11-28: 8.6 min wall, 6.3 min of CPU).
  workers: 3,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    // localhost, not 127.0.0.1: browsers refuse an IP address as a passkey's relying party, and
    // the console journeys sign in with passkeys (docs/decisions/022).
    baseURL: `http://localhost:${port}`,
    browserName: 'chromium',
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    // A failed journey keeps its trace (each action's DOM snapshot) and a screenshot of the end.
    // The trace's film strip is left out: it has Chromium encode a JPEG of every frame of every
    // journey, passed or not: 20-30% of the suite's CPU (decision 025).
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    {
      // A journey runs on the phone too when its title carries @phone: it checks layout (what
      // fits, shows or hides at 390 px, where a section lands), touch, or the whole page
      // (accessibility, hydration). The others check behaviour the width does not change, once
      // (docs/decisions/025-startup-lifecycle-and-suite.md).
      name: 'phone',
      grep: /@phone/,
      use: {
        ...devices['Pixel 7'],
        browserName: 'chromium',
        viewport: { width: 390, height: 844 },
      },
    },
  ],
  webServer: {
    command: 'npx tsx scripts/start.ts',
    url: `http://127.0.0.1:${port}/readyz`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.E2E_DATA_DIR,
      LOG_LEVEL: 'warn',
      // As behind the production proxy: tests that set X-Forwarded-For act as distinct visitors.
      TRUST_PROXY: 'true',
      // Required with TRUST_PROXY (config.ts): the origin the browser uses.
      PUBLIC_ORIGIN: `http://localhost:${port}`,
      NODE_ENV: 'test',
    },
  },
});
