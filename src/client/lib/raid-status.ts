import { RAID_STATUS_PATH } from '#shared/raid.ts';

/**
 * Whether the site is in raid mode now (the page's notice, the sign-up's proof of work). Read
 * without zod: the notice is part of every first load.
 */
export async function raidModeOn(): Promise<boolean> {
  try {
    const res = await fetch(RAID_STATUS_PATH, { cache: 'no-store' });
    return res.ok && ((await res.json()) as { active?: unknown }).active === true;
  } catch {
    return false;
  }
}
