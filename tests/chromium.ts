/**
 * Debian's Chromium, never a downloaded browser, and the flags every run of it here uses (no
 * sandbox as root, no GPU, and none of its background calls to hosts this machine cannot reach).
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
