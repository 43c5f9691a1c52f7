import { z } from 'zod';
import { RAID_STATUS_PATH } from '../raid.ts';
import { signingIn } from './auth.ts';
import { defineEndpoint } from './endpoint.ts';
import { siteFacts } from './site.ts';
import { admins, moderators, reasonSchema, standingSchema } from './console/common.ts';

/**
 * Raid day (docs/decisions/027-raid-day.md): a member's standing, raid mode (the page's notice,
 * the sign-up challenge, the console's switch and thresholds) and the perceptual-hash blocklist.
 */
export const raidPaths = {
  /** GET: the member's own standing and what it allows. */
  myStanding: '/api/account/standing',
  /** GET: whether raid mode is on (the page's notice). */
  status: RAID_STATUS_PATH,
  /** GET: a proof-of-work challenge for signing up during raid mode. */
  challenge: '/api/auth/challenge',
  /** GET / POST (console, admins): raid mode, its thresholds and the switch. */
  admin: '/api/admin/raid',
  adminThresholds: '/api/admin/raid/thresholds',
  /** GET / POST (console, admins): the blocklist as text. */
  blocklist: '/api/admin/blocklist',
} as const;

export const myStandingEndpoint = defineEndpoint({
  method: 'GET',
  path: raidPaths.myStanding,
  id: 'myStanding',
  summary: "The member's standing (new, member, trusted; a proven wallet) and what it allows",
  tag: 'auth',
  access: 'member',
  signIn: 'Please log in to see your standing.',
  response: z.object({
    standing: standingSchema,
    allowance: z.object({
      uploadsPerDay: z.number().int(),
      reportsCount: z.boolean(),
      linksInTitles: z.boolean(),
      appeals: z.enum(['first', 'in turn', 'last']),
      actsDuringRaid: z.boolean(),
    }),
    raidMode: z.boolean(),
  }),
});

export const raidStatusSchema = z.object({
  active: z.boolean(),
  /** When raid mode began (epoch ms), null when off. */
  since: z.number().nullable(),
});
export type RaidStatus = z.infer<typeof raidStatusSchema>;

export const raidStatusEndpoint = defineEndpoint(siteFacts, {
  method: 'GET',
  path: raidPaths.status,
  id: 'raidStatus',
  summary: 'Whether the site is in raid mode (new accounts limited, sign-ups challenged)',
  response: raidStatusSchema,
});

export const challengeEndpoint = defineEndpoint(signingIn, {
  method: 'GET',
  path: raidPaths.challenge,
  id: 'signUpChallenge',
  summary: 'An ALTCHA proof-of-work challenge; a sign-up in raid mode sends its solution',
  // ALTCHA's own challenge object (algorithm, challenge, maxnumber, salt, signature).
  response: z.record(z.string(), z.unknown()),
  errors: { 429: ['RATE_LIMITED'] },
});

const thresholdsSchema = z.object({
  signupsPerHour: z.coerce.number().int().min(1).max(1_000_000),
  newPostsPerHour: z.coerce.number().int().min(1).max(1_000_000),
  reportsPerHour: z.coerce.number().int().min(1).max(1_000_000),
  quietMinutes: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60),
});

export const raidAdminSchema = z.object({
  active: z.boolean(),
  since: z.number().nullable(),
  /** Entered by the thresholds (true) or by hand (false). */
  automatic: z.boolean(),
  thresholds: thresholdsSchema,
  /** The last hour's counts the trigger reads. */
  lastHour: z.object({
    signups: z.number().int(),
    newPosts: z.number().int(),
    reports: z.number().int(),
  }),
});
export type RaidAdmin = z.infer<typeof raidAdminSchema>;

export const raidAdminEndpoint = defineEndpoint(moderators, {
  method: 'GET',
  path: raidPaths.admin,
  id: 'raidAdmin',
  summary: "Raid mode, its thresholds and the last hour's counts (moderators)",
  response: raidAdminSchema,
});

export const raidSwitchEndpoint = defineEndpoint(admins, {
  method: 'POST',
  path: raidPaths.admin,
  id: 'raidSwitch',
  summary: 'Turns raid mode on or off by hand, with a reason for the log (admins)',
  body: z.object({ active: z.boolean(), reason: reasonSchema }),
  response: raidAdminSchema,
});

export const raidThresholdsEndpoint = defineEndpoint(admins, {
  method: 'POST',
  path: raidPaths.adminThresholds,
  id: 'raidThresholds',
  summary: "Sets raid mode's automatic thresholds, with a reason for the log (admins)",
  body: thresholdsSchema.extend({ reason: reasonSchema }),
  response: raidAdminSchema,
});

export const blocklistExportEndpoint = defineEndpoint(admins, {
  method: 'GET',
  path: raidPaths.blocklist,
  id: 'blocklistExport',
  summary: 'The perceptual-hash blocklist in its text format (docs/blocklist-format.md; admins)',
  response: z.object({ text: z.string(), count: z.number().int() }),
});

export const blocklistImportEndpoint = defineEndpoint(admins, {
  method: 'POST',
  path: raidPaths.blocklist,
  id: 'blocklistImport',
  summary: "Adds another community's blocklist (text format) under a source name (admins)",
  body: z.object({
    source: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'A source is 1-40 letters, digits, _ . or -'),
    text: z.string().max(2_000_000),
    reason: reasonSchema,
  }),
  response: z.object({ added: z.number().int(), known: z.number().int() }),
});
