import type { Kysely, SelectQueryBuilder } from 'kysely';
import { expect } from 'vitest';
import { nameSkeleton } from '#shared/name-skeleton.ts';

/**
 * Data written right after each migration, in that schema's own columns, and what must still
 * be there once the database has been migrated to the latest schema. One entry per migration in
 * src/server/db/migrations/index.ts, keyed by its name: a migration that adds tables or columns
 * adds a seed that fills them; one with nothing to fill says why (`none`).
 * src/server/db/migrate-from-every-schema.test.ts fails for a migration missing here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- an earlier schema has no type of its own
type SchemaAt = Kysely<any>;

export type MigrationSeed =
  | {
      /** Writes rows with the schema as it is right after this migration. */
      seed(db: SchemaAt): Promise<void>;
      /** Reads them back after the latest migration and expects them intact. */
      verify(db: SchemaAt): Promise<void>;
    }
  | { none: string };

const T0 = Date.UTC(2026, 0, 5, 12, 0, 0);
const SEED_WALLET = '9GXSqZ1mUEmTH1NwWbgFqSWNT9Z2n3fzLrVLcqoKDshM';
const SEED_TX = '5'.repeat(87);

function seedWalletChange(userId: number) {
  return {
    user_id: userId,
    old_address: SEED_WALLET,
    new_address: '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T',
    message: 'seed message',
    signature: 'seed signature',
    changed_at: T0 + 9,
  };
}

function seedLogEntry(operatorId: number) {
  return {
    operator_id: operatorId,
    operator_name: 'Seed_Alice',
    operator_address: '203.0.113.5',
    kind: 'hide',
    target_type: 'meme',
    target_id: '7',
    target_label: 'Seeded',
    reason: 'spam',
    details: '{}',
    created_at: T0 + 16,
  };
}

/** A seeded member's id, looked up by name, since ids are generated. */
async function userId(db: SchemaAt, name: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('username_lower', '=', name.toLowerCase())
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

async function memeId(db: SchemaAt, title: string): Promise<number> {
  const row = await db
    .selectFrom('memes')
    .select('id')
    .where('title', '=', title)
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

/** Rows as plain objects with numbers (PostgreSQL's int8 already come back as numbers). */
const rows = async (query: { execute(): Promise<unknown[]> }) =>
  (await query.execute()) as Record<string, unknown>[];

type Row = Record<string, unknown>;

/** `written` rows as a select of `columns` reads them back: a column a row did not set is null. */
const asRead = (columns: string[], written: Row[]) =>
  written.map((row) => Object.fromEntries(columns.map((column) => [column, row[column] ?? null])));

/** Migration 022's rows: a withdrawn approval and an opened replay. */
const seedWithdrawal = {
  week_id: '2026-W06',
  approval_id: 900_001,
  reason: 'seeded withdrawal',
  operator_id: null,
  operator_name: 'cli:seed',
  created_at: 1_770_000_000_000,
};
const seedReplayOpen = { operator_id: 1, run_id: 'seed-run-opened', opened_at: 1_770_000_000_000 };

/** Expects `query`, selecting `columns`, to read back exactly the `written` rows, in order. */
async function expectKept(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- an earlier schema has no type of its own
  query: SelectQueryBuilder<any, any, any>,
  columns: string[],
  written: Row[],
): Promise<void> {
  expect(await rows(query.select(columns))).toEqual(asRead(columns, written));
}

// What each seed writes, so that its verify expects the very rows it wrote.
const seedUsers = [
  {
    username: 'Seed_Alice',
    username_lower: 'seed_alice',
    password_hash: '$argon2id$seed-a',
    created_at: T0,
  },
  {
    username: 'seed-bob',
    username_lower: 'seed-bob',
    password_hash: '$argon2id$seed-b',
    created_at: T0 + 1,
  },
];
const seedSession = (user_id: number) => ({
  id_hash: 'seed-session-hash',
  user_id,
  created_at: T0,
  last_seen_at: T0 + 5,
  expires_at: T0 + 86_400_000,
});
const seedPasskeySession = (user_id: number) => ({
  ...seedSession(user_id),
  id_hash: 'seed-passkey-session-hash',
  passkey_at: T0 + 30,
  passkey_signed_in_at: T0 + 20,
  passkey_challenge: 'seed-challenge',
  passkey_challenge_expires_at: T0 + 40,
  passkey_challenge_kind: 'registration',
});
const seedRateLimit = { key: 'login:user:seed_alice', window_start: T0, count: 3 };

const seedLedger = (user_id: number) => [
  {
    user_id,
    delta: 120,
    balance_after: 120,
    reason: 'game-run',
    run_id: 'seed-run-credited',
    created_at: T0,
  },
  {
    user_id,
    delta: -50,
    balance_after: 70,
    reason: 'purchase',
    character_key: 'hardhat',
    created_at: T0 + 1,
  },
];
const seedPurchase = { coins: 70, selected_character_key: 'hardhat' };
const seedOwned = (user_id: number) => ({
  user_id,
  character_key: 'hardhat',
  acquired_at: T0 + 1,
});

const seedScoredRun = (user_id: number) => ({
  id: 'seed-run-scored',
  seed: 4_000_000_000,
  user_id,
  issued_at: T0,
  verified_at: T0 + 30_000,
  inputs: '[12,40,77]',
  steps: 1800,
  score: 240,
  coins: 3,
  obstacles_passed: 9,
  score_submitted_at: T0 + 30_000,
});
const seedScore = (user_id: number) => ({
  run_id: 'seed-run-scored',
  user_id,
  player_key: `u:${user_id}`,
  player_name: 'seed-bob',
  score: 240,
  level: 3,
  tasks_completed: 9,
  power_ups_collected: 1,
  game_time: 30,
  week_start: Date.UTC(2026, 0, 5),
  created_at: T0 + 30_000,
});

const SEED_MEME_TITLE = 'Seeded: Monday standup 🙂';
const seedUpload = (user_id: number) => ({
  key: 'uploads/seed-upload',
  user_id,
  created_at: T0,
  expires_at: T0 + 600_000,
  consumed_at: T0 + 1000,
});
const seedMemeImage = (user_id: number) => ({
  user_id,
  image_key: `memes/${'b'.repeat(64)}.png`,
  thumbnail_key: `memes/${'b'.repeat(64)}-thumb.webp`,
  thumbnail_width: 320,
  thumbnail_height: 240,
  created_at: T0 + 1000,
});
const seedMeme = (user_id: number) => ({
  user_id,
  title: SEED_MEME_TITLE,
  category: 'office-life',
  image_key: `memes/${'a'.repeat(64)}.png`,
  thumbnail_key: `memes/${'a'.repeat(64)}-thumb.webp`,
  thumbnail_width: 320,
  thumbnail_height: 180,
  upvotes: 1,
  downvotes: 1,
  created_at: T0 + 2000,
});
const seedVotes = (meme_id: number, user_id: number) => [
  { meme_id, voter: `u:${user_id}`, vote_type: 'up', created_at: T0 + 3000 },
  { meme_id, voter: 'v:seed-visitor', vote_type: 'down', created_at: T0 + 4000 },
];

const seedWinner = {
  week_id: '2026-W02',
  player_name: 'seed-bob',
  prize: '1 SOL',
  tx_url: 'https://explorer.solana.com/tx/seed',
  paid_at: T0 + 7 * 86_400_000,
};

// A run refused while it was played, with the progress it had reported.
const seedRefusedRun = {
  id: 'seed-run-refused',
  seed: 7,
  user_id: null,
  issued_at: T0,
  progress_step: 120,
  progress_jumps: '12,40,77',
  progress_at: T0 + 5800,
  refused_at: T0 + 9000,
  refusal_code: 'RUN_BEHIND',
  refusal_message: 'This round is unranked: seed.',
  character_key: 'pudge',
};
// The reviewer's figures for the 003 seed's ranked run.
const seedRunStatistics = {
  run_id: 'seed-run-scored',
  jumps: 3,
  jump_interval_median_ms: 450.5,
  jump_interval_cv: 0.25,
  aim_spread_px: 12.5,
  edge_margin_min_px: 4,
  edge_margin_median_px: 20.5,
  reaction_median_ms: 233.3,
  fast_reaction_share: 0.125,
  top_speed: 4.4,
  computed_at: T0 + 30_000,
};

// A run being played under 013: its network, two reports' chunks, their count.
const seedOpenRun = {
  id: 'seed-run-013',
  seed: 13,
  user_id: null,
  issued_at: T0,
  progress_step: 180,
  progress_at: T0 + 7800,
  jump_count: 3,
  network: '2001:db8:13::/64',
};
const seedRunJumps = [
  { run_id: 'seed-run-013', first_step: 0, jumps: '20,47' },
  { run_id: 'seed-run-013', first_step: 60, jumps: '101' },
];

const seedNonce = (user_id: number) => ({
  nonce: 'SeedNonce1111111111111',
  user_id,
  domain: 'dailygrind.example',
  uri: 'https://dailygrind.example',
  issued_at: T0,
  expires_at: T0 + 600_000,
  used_at: T0 + 1000,
});
const seedWallet = (user_id: number) => ({
  user_id,
  address: SEED_WALLET,
  message: 'dailygrind.example wants you to sign in with your Solana account:\nseed',
  signature: 'seed-signature',
  linked_at: T0 + 1000,
});
const seedPrizeEvents = (user_id: number) =>
  (
    [
      ['reviewed', null],
      ['approved', null],
      ['paid', SEED_TX],
    ] as const
  ).map(([step, tx_signature]) => ({
    week_id: '2026-W03',
    step,
    run_id: 'seed-run-010',
    user_id,
    player_name: 'Seed_Alice',
    score: 321,
    wallet_address: SEED_WALLET,
    prize: '1 SOL',
    tx_signature,
    created_at: T0 + 14 * 86_400_000,
  }));

const seedHashedMeme = (user_id: number) => ({
  user_id,
  title: 'Seeded: hashed',
  category: 'office-life',
  image_key: `memes/${'c'.repeat(64)}.png`,
  thumbnail_key: `memes/${'c'.repeat(64)}-thumb.webp`,
  thumbnail_width: 400,
  thumbnail_height: 300,
  created_at: T0 + 5000,
  phash: '0123456789abcdef',
  image_width: 800,
  image_height: 600,
});
const seedReport = (meme_id: number) => ({
  meme_id,
  reporter: 'v:seed',
  reporter_identity: 'ip:192.0.2.1',
  reason: 'spam',
  created_at: T0 + 6000,
});
const seedDecision = (meme_id: number) => ({
  meme_id,
  meme_title: SEED_MEME_TITLE,
  decision: 'dismiss',
  open_reports: 1,
  decided_at: T0 + 7000,
});

// A capped visitor vote, a report that does not count, a deletion that keeps the picture's hash.
const seedNetworkVote = (meme_id: number) => ({
  meme_id,
  voter: 'v:seed-visitor-015',
  vote_type: 'up',
  created_at: T0 + 9000,
  network: 'n:seed-network-hmac-0000',
});
const seedIdleReport = (meme_id: number) => ({
  meme_id,
  reporter: 'u:999',
  reporter_identity: 'n:seed-network-hmac-0000',
  counts_to_hide: 0,
  reason: 'other',
  created_at: T0 + 9000,
});
const seedDeletion = {
  meme_id: 999_999,
  meme_title: 'Seeded: deleted',
  decision: 'delete',
  open_reports: 0,
  decided_at: T0 + 9000,
  phash: 'fedcba9876543210',
};

export const migrationSeeds: Record<string, MigrationSeed> = {
  '001-accounts': {
    async seed(db) {
      await db.insertInto('users').values(seedUsers).execute();
      await db
        .insertInto('sessions')
        .values(seedSession(await userId(db, 'seed_alice')))
        .execute();
      await db.insertInto('rate_limits').values(seedRateLimit).execute();
    },
    async verify(db) {
      await expectKept(
        db
          .selectFrom('users')
          .where('username_lower', 'in', ['seed_alice', 'seed-bob'])
          .orderBy('created_at'),
        ['username', 'username_lower', 'password_hash', 'created_at'],
        seedUsers,
      );
      await expectKept(
        db.selectFrom('sessions').where('id_hash', '=', 'seed-session-hash'),
        ['user_id', 'expires_at'],
        [seedSession(await userId(db, 'seed_alice'))],
      );
      await expectKept(
        db.selectFrom('rate_limits').where('key', '=', seedRateLimit.key),
        ['window_start', 'count'],
        [seedRateLimit],
      );
    },
  },
  '002-coins': {
    async seed(db) {
      const alice = await userId(db, 'seed_alice');
      await db.insertInto('coin_ledger').values(seedLedger(alice)).execute();
      await db.updateTable('users').set(seedPurchase).where('id', '=', alice).execute();
      await db.insertInto('owned_characters').values(seedOwned(alice)).execute();
    },
    async verify(db) {
      const alice = await userId(db, 'seed_alice');
      await expectKept(
        db.selectFrom('users').where('id', '=', alice),
        ['coins', 'selected_character_key'],
        [seedPurchase],
      );
      await expectKept(
        db.selectFrom('coin_ledger').where('user_id', '=', alice).orderBy('id'),
        ['delta', 'balance_after', 'reason', 'run_id', 'character_key'],
        seedLedger(alice),
      );
      await expectKept(
        db.selectFrom('owned_characters').where('user_id', '=', alice),
        ['character_key', 'acquired_at'],
        [seedOwned(alice)],
      );
    },
  },
  '003-game': {
    async seed(db) {
      const bob = await userId(db, 'seed-bob');
      await db.insertInto('game_runs').values(seedScoredRun(bob)).execute();
      await db.insertInto('game_scores').values(seedScore(bob)).execute();
    },
    async verify(db) {
      const bob = await userId(db, 'seed-bob');
      await expectKept(
        db.selectFrom('game_runs').where('id', '=', 'seed-run-scored'),
        ['seed', 'user_id', 'steps', 'score', 'coins', 'score_submitted_at'],
        [seedScoredRun(bob)],
      );
      // Migration 013 moved the verified log (JSON in `inputs`) into run_jumps.
      await expectKept(
        db.selectFrom('run_jumps').where('run_id', '=', 'seed-run-scored'),
        ['first_step', 'jumps'],
        [{ first_step: 0, jumps: '12,40,77' }],
      );
      await expectKept(
        db.selectFrom('game_runs').where('id', '=', 'seed-run-scored'),
        ['jump_count'],
        [{ jump_count: 3 }],
      );
      await expectKept(
        db.selectFrom('game_scores').where('run_id', '=', 'seed-run-scored'),
        ['user_id', 'player_key', 'player_name', 'score', 'level', 'week_start'],
        [seedScore(bob)],
      );
    },
  },
  '004-gallery': {
    async seed(db) {
      const alice = await userId(db, 'seed_alice');
      await db.insertInto('uploads').values(seedUpload(alice)).execute();
      await db.insertInto('meme_images').values(seedMemeImage(alice)).execute();
      await db.insertInto('memes').values(seedMeme(alice)).execute();
      const meme = await memeId(db, SEED_MEME_TITLE);
      await db.insertInto('meme_votes').values(seedVotes(meme, alice)).execute();
    },
    async verify(db) {
      const alice = await userId(db, 'seed_alice');
      const meme = await memeId(db, SEED_MEME_TITLE);
      await expectKept(
        db.selectFrom('memes').where('id', '=', meme),
        [
          'user_id',
          'category',
          'image_key',
          'thumbnail_width',
          'thumbnail_height',
          'upvotes',
          'downvotes',
          'created_at',
        ],
        [seedMeme(alice)],
      );
      await expectKept(
        db.selectFrom('meme_votes').where('meme_id', '=', meme).orderBy('created_at'),
        ['voter', 'vote_type'],
        seedVotes(meme, alice),
      );
      await expectKept(
        db.selectFrom('uploads').where('key', '=', 'uploads/seed-upload'),
        ['user_id', 'consumed_at'],
        [seedUpload(alice)],
      );
      await expectKept(
        db.selectFrom('meme_images').where('user_id', '=', alice),
        ['user_id', 'thumbnail_key', 'thumbnail_height'],
        [seedMemeImage(alice)],
      );
    },
  },
  '005-winners': {
    async seed(db) {
      await db.insertInto('giveaway_winners').values(seedWinner).execute();
    },
    async verify(db) {
      // Migration 010 carries winners:add's payments into the prize record as paid steps.
      expect(
        await rows(
          db
            .selectFrom('prize_events')
            .select(['step', 'player_name', 'prize', 'tx_url', 'tx_signature', 'created_at'])
            .where('week_id', '=', seedWinner.week_id),
        ),
      ).toEqual([
        {
          step: 'paid',
          player_name: 'seed-bob',
          prize: '1 SOL',
          tx_url: 'https://explorer.solana.com/tx/seed',
          tx_signature: null,
          created_at: T0 + 7 * 86_400_000,
        },
      ]);
    },
  },
  '006-standings-index': { none: 'adds an index only; the 003 scores it covers are checked there' },
  '008-drop-gallery-state': { none: 'drops the gallery_state row only; no data lived there' },
  '009-run-pacing': {
    async seed(db) {
      await db.insertInto('game_runs').values(seedRefusedRun).execute();
      await db.insertInto('game_run_statistics').values(seedRunStatistics).execute();
    },
    async verify(db) {
      await expectKept(
        db
          .selectFrom('game_runs')
          .where('id', 'in', ['seed-run-refused', 'seed-run-scored'])
          .orderBy('id'),
        ['id', 'progress_step', 'jump_count', 'refusal_code', 'character_key'],
        [
          { ...seedRefusedRun, jump_count: 3 },
          // A run from before 009 reads as one with no progress and the default character.
          {
            id: 'seed-run-scored',
            progress_step: 0,
            jump_count: 3,
            refusal_code: null,
            character_key: 'default',
          },
        ],
      );
      // Migration 013 moved the reported jumps (`progress_jumps`) into run_jumps.
      await expectKept(
        db.selectFrom('run_jumps').where('run_id', '=', 'seed-run-refused'),
        ['first_step', 'jumps'],
        [{ first_step: 0, jumps: '12,40,77' }],
      );
      await expectKept(
        db.selectFrom('game_run_statistics'),
        ['run_id', 'jump_interval_median_ms', 'fast_reaction_share', 'top_speed'],
        [seedRunStatistics],
      );
    },
  },
  '010-prize-wallets': {
    async seed(db) {
      const alice = await userId(db, 'Seed_Alice');
      await db.insertInto('wallet_nonces').values(seedNonce(alice)).execute();
      await db.insertInto('user_wallets').values(seedWallet(alice)).execute();
      // One step at a time, as the operator records them.
      for (const event of seedPrizeEvents(alice)) {
        await db.insertInto('prize_events').values(event).execute();
      }
    },
    async verify(db) {
      const alice = await userId(db, 'Seed_Alice');
      await expectKept(
        db.selectFrom('user_wallets'),
        ['user_id', 'address', 'linked_at'],
        [seedWallet(alice)],
      );
      await expectKept(db.selectFrom('wallet_nonces'), ['nonce', 'used_at'], [seedNonce(alice)]);
      await expectKept(
        db.selectFrom('prize_events').where('week_id', '=', '2026-W03').orderBy('id'),
        ['step', 'tx_signature', 'wallet_address'],
        seedPrizeEvents(alice),
      );
      // Migration 014 made the wallets already linked the first rows of their record.
      await expectKept(
        db.selectFrom('wallet_changes').where('user_id', '=', alice).orderBy('id').limit(1),
        ['old_address', 'new_address', 'changed_at'],
        [{ old_address: null, new_address: SEED_WALLET, changed_at: seedWallet(alice).linked_at }],
      );
    },
  },
  '011-gallery-community': {
    async seed(db) {
      const meme = await memeId(db, SEED_MEME_TITLE);
      const alice = await userId(db, 'seed_alice');
      await db.insertInto('memes').values(seedHashedMeme(alice)).execute();
      await db.insertInto('meme_reports').values(seedReport(meme)).execute();
      await db.insertInto('meme_decisions').values(seedDecision(meme)).execute();
    },
    async verify(db) {
      const meme = await memeId(db, SEED_MEME_TITLE);
      const alice = await userId(db, 'seed_alice');
      await expectKept(
        db.selectFrom('memes').where('title', '=', 'Seeded: hashed'),
        ['phash', 'image_width', 'image_height'],
        [seedHashedMeme(alice)],
      );
      await expectKept(
        db.selectFrom('meme_reports').where('meme_id', '=', meme),
        ['reporter', 'reason', 'decision_id'],
        [seedReport(meme)],
      );
      await expectKept(
        db.selectFrom('meme_decisions').where('meme_id', '=', meme),
        ['decision', 'open_reports'],
        [seedDecision(meme)],
      );
    },
  },
  '012-name-skeletons': {
    async seed(db) {
      await db
        .insertInto('users')
        .values({
          username: 'seed_carol',
          username_lower: 'seed_carol',
          username_skeleton: nameSkeleton('seed_carol'),
          password_hash: '$argon2id$seed-c',
          created_at: T0 + 8000,
        })
        .execute();
    },
    async verify(db) {
      // Members from before the migration got their skeleton from its backfill.
      expect(
        await rows(
          db
            .selectFrom('users')
            .select(['username', 'username_skeleton'])
            .where('username_lower', 'in', ['seed_alice', 'seed-bob', 'seed_carol'])
            .orderBy('id'),
        ),
      ).toEqual([
        { username: 'Seed_Alice', username_skeleton: nameSkeleton('seed_alice') },
        { username: 'seed-bob', username_skeleton: nameSkeleton('seed-bob') },
        { username: 'seed_carol', username_skeleton: nameSkeleton('seed_carol') },
      ]);
    },
  },
  '013-run-jumps': {
    async seed(db) {
      await db.insertInto('game_runs').values(seedOpenRun).execute();
      await db.insertInto('run_jumps').values(seedRunJumps).execute();
    },
    async verify(db) {
      await expectKept(
        db.selectFrom('game_runs').where('id', '=', seedOpenRun.id),
        ['progress_step', 'jump_count', 'network'],
        [seedOpenRun],
      );
      await expectKept(
        db.selectFrom('run_jumps').where('run_id', '=', seedOpenRun.id).orderBy('first_step'),
        ['first_step', 'jumps'],
        seedRunJumps,
      );
    },
  },
  '014-append-only-and-wallet-changes': {
    async seed(db) {
      const alice = await userId(db, 'Seed_Alice');
      await db.insertInto('wallet_changes').values(seedWalletChange(alice)).execute();
    },
    async verify(db) {
      const alice = await userId(db, 'Seed_Alice');
      await expectKept(
        db
          .selectFrom('wallet_changes')
          .where('user_id', '=', alice)
          .where('changed_at', '=', T0 + 9),
        ['old_address', 'new_address', 'message', 'signature'],
        [seedWalletChange(alice)],
      );
    },
  },
  '015-reporters-and-visitor-votes': {
    async seed(db) {
      const hashed = await memeId(db, 'Seeded: hashed');
      await db.insertInto('meme_votes').values(seedNetworkVote(hashed)).execute();
      await db.insertInto('meme_reports').values(seedIdleReport(hashed)).execute();
      await db.insertInto('meme_decisions').values(seedDeletion).execute();
    },
    async verify(db) {
      const meme = await memeId(db, SEED_MEME_TITLE);
      const hashed = await memeId(db, 'Seeded: hashed');
      // Rows from before: votes without a network, reports that counted.
      expect(
        await rows(db.selectFrom('meme_votes').select('network').where('meme_id', '=', meme)),
      ).toEqual([{ network: null }, { network: null }]);
      expect(
        await rows(
          db.selectFrom('meme_reports').select('counts_to_hide').where('meme_id', '=', meme),
        ),
      ).toEqual([{ counts_to_hide: 1 }]);
      await expectKept(
        db.selectFrom('meme_votes').where('meme_id', '=', hashed),
        ['voter', 'vote_type', 'network'],
        [seedNetworkVote(hashed)],
      );
      await expectKept(
        db.selectFrom('meme_reports').where('meme_id', '=', hashed),
        ['reporter', 'reporter_identity', 'counts_to_hide'],
        [seedIdleReport(hashed)],
      );
      await expectKept(
        db.selectFrom('meme_decisions').where('meme_id', '=', 999_999),
        ['meme_title', 'decision', 'phash'],
        [seedDeletion],
      );
    },
  },
  '016-operator-console': {
    async seed(db) {
      const alice = await userId(db, 'Seed_Alice');
      await db.updateTable('users').set({ role: 'moderator' }).where('id', '=', alice).execute();
      await db.insertInto('operator_log').values(seedLogEntry(alice)).execute();
    },
    async verify(db) {
      const alice = await userId(db, 'Seed_Alice');
      expect(
        await rows(db.selectFrom('users').select('role').where('username', '=', 'seed-bob')),
      ).toEqual([{ role: 'member' }]);
      expect(await rows(db.selectFrom('users').select('role').where('id', '=', alice))).toEqual([
        { role: 'moderator' },
      ]);
      await expectKept(
        db.selectFrom('operator_log').where('operator_id', '=', alice),
        ['kind', 'target_id', 'reason', 'operator_address'],
        [seedLogEntry(alice)],
      );
    },
  },
  '017-payments-on-chain': {
    async seed(db) {
      const alice = await userId(db, 'Seed_Alice');
      await db.insertInto('prize_events').values(seedPendingPayment(alice)).execute();
      await db.insertInto('token_burns').values(seedBurn).execute();
    },
    async verify(db) {
      const alice = await userId(db, 'Seed_Alice');
      await expectKept(
        db.selectFrom('prize_events').where('week_id', '=', '2026-W04'),
        ['step', 'reference', 'memo', 'lamports', 'wallet_address'],
        [seedPendingPayment(alice)],
      );
      await expectKept(
        db.selectFrom('token_burns'),
        ['signature', 'slot', 'amount', 'decimals', 'block_time'],
        [seedBurn],
      );
    },
  },
  '018-live-events': { none: 'creates the live event id sequence only; no table holds data' },
  '019-appeals-by-member': { none: 'adds an index on appeals only; no row changes' },
  '020-payment-lifetimes': {
    async seed(db) {
      const alice = await userId(db, 'Seed_Alice');
      await db.insertInto('prize_events').values(seedConsolePayment(alice)).execute();
    },
    async verify(db) {
      const alice = await userId(db, 'Seed_Alice');
      await expectKept(
        db.selectFrom('prize_events').where('week_id', '=', '2026-W05'),
        ['step', 'reference', 'blockhash', 'last_valid_block_height', 'attempt'],
        [seedConsolePayment(alice)],
      );
    },
  },
  '021-passkey-ceremonies': {
    async seed(db) {
      await db
        .insertInto('sessions')
        .values(seedPasskeySession(await userId(db, 'Seed_Alice')))
        .execute();
    },
    async verify(db) {
      const row = seedPasskeySession(await userId(db, 'Seed_Alice'));
      await expectKept(
        db.selectFrom('sessions').where('id_hash', '=', row.id_hash),
        Object.keys(row),
        [row],
      );
    },
  },
  '022-prize-withdrawals-and-replay-opens': {
    async seed(db) {
      await db.insertInto('prize_withdrawals').values(seedWithdrawal).execute();
      await db.insertInto('replay_opens').values(seedReplayOpen).execute();
    },
    async verify(db) {
      await expectKept(
        db.selectFrom('prize_withdrawals').where('week_id', '=', seedWithdrawal.week_id),
        Object.keys(seedWithdrawal),
        [seedWithdrawal],
      );
      await expectKept(
        db.selectFrom('replay_opens').where('run_id', '=', seedReplayOpen.run_id),
        Object.keys(seedReplayOpen),
        [seedReplayOpen],
      );
    },
  },
  '025-clusters-and-rehearsals': {
    async seed(db) {
      const alice = await userId(db, 'Seed_Alice');
      await db.insertInto('prize_events').values(seedDevnetPayment(alice)).execute();
      await db
        .insertInto('rehearsal_members')
        .values({ user_id: alice, created_at: T0 + 42 })
        .execute();
    },
    async verify(db) {
      const alice = await userId(db, 'Seed_Alice');
      await expectKept(
        db.selectFrom('prize_events').where('week_id', '=', '2026-W07'),
        ['step', 'tx_signature', 'slot', 'cluster'],
        [seedDevnetPayment(alice)],
      );
      // A burn recorded before the migration was mainnet-beta's, the only cluster then.
      await expectKept(
        db.selectFrom('token_burns').where('signature', '=', seedBurn.signature),
        ['signature', 'cluster'],
        [{ ...seedBurn, cluster: 'mainnet-beta' }],
      );
      await expectKept(
        db.selectFrom('rehearsal_members'),
        ['user_id', 'created_at'],
        [{ user_id: alice, created_at: T0 + 42 }],
      );
    },
  },
  '028-passkey-names-and-meme-activity': {
    async seed(db) {
      await db
        .insertInto('passkeys')
        .values(seedNamedPasskey(await userId(db, 'Seed_Alice')))
        .execute();
      await db.insertInto('meme_activity').values(seedActivity).execute();
    },
    async verify(db) {
      const passkey = seedNamedPasskey(await userId(db, 'Seed_Alice'));
      await expectKept(
        db.selectFrom('passkeys').where('credential_id', '=', passkey.credential_id),
        ['user_id', 'name', 'transports', 'created_at'],
        [passkey],
      );
      await expectKept(
        db.selectFrom('meme_activity').where('created_at', '=', seedActivity.created_at),
        ['kind', 'created_at'],
        [seedActivity],
      );
    },
  },
  '029-held-by': {
    none: 'adds a nullable column (why a meme is held); memes held before it keep theirs unwritten, as they were',
  },
  '030-member-best-runs-index': {
    none: 'adds an index (members\' entries, best first); no row changes',
  },
  '023-raid-day': {
    none: 'adds new tables (raid mode, spent challenges, the blocklist, clean-ups, the alert outbox) and nullable or defaulted columns; no existing row changes',
  },
  '024-wallet-sign-in-and-holders': {
    async seed(db) {
      const alice = await userId(db, 'Seed_Alice');
      await db.updateTable('users').set({ show_wallet: 1 }).where('id', '=', alice).execute();
      await db.insertInto('wallet_sign_in_nonces').values(seedSignInNonce).execute();
      await db.insertInto('holder_balances').values(seedHolderBalance(alice)).execute();
      await db.insertInto('deleted_accounts').values(seedDeletedAccount).execute();
    },
    async verify(db) {
      const alice = await userId(db, 'Seed_Alice');
      await expectKept(
        db.selectFrom('users').where('id', '=', alice),
        ['show_wallet'],
        [{ show_wallet: 1 }],
      );
      await expectKept(
        db.selectFrom('wallet_sign_in_nonces').where('nonce', '=', seedSignInNonce.nonce),
        Object.keys(seedSignInNonce),
        [seedSignInNonce],
      );
      await expectKept(
        db.selectFrom('holder_balances').where('user_id', '=', alice),
        Object.keys(seedHolderBalance(alice)),
        [seedHolderBalance(alice)],
      );
      await expectKept(db.selectFrom('deleted_accounts'), Object.keys(seedDeletedAccount), [
        seedDeletedAccount,
      ]);
    },
  },
};

const seedDevnetPayment = (userId: number) => ({
  ...seedPendingPayment(userId),
  week_id: '2026-W07',
  step: 'paid' as const,
  reference: 'RefSeed7777777777777777777777777777777777777',
  memo: 'Daily Grind prize 2026-W07',
  tx_signature: '5eedDevnetPay'.padEnd(88, '1'),
  slot: 77,
  block_time: T0 + 40,
  cluster: 'devnet',
  created_at: T0 + 41,
});

const seedNamedPasskey = (userId: number) => ({
  user_id: userId,
  credential_id: 'seed-credential',
  public_key: 'seed-public-key',
  counter: 0,
  transports: '["usb"]',
  created_at: T0 + 50,
  last_used_at: null,
  name: 'Seed YubiKey',
});

const seedActivity = { kind: 'vote', created_at: T0 + 51 };

const seedPendingPayment = (userId: number) => ({
  week_id: '2026-W04',
  step: 'pending' as const,
  user_id: userId,
  player_name: 'Seed_Alice',
  wallet_address: SEED_WALLET,
  prize: '1 SOL',
  reference: 'RefSeed1111111111111111111111111111111111111',
  memo: 'Daily Grind prize 2026-W04',
  lamports: 1_000_000_000,
  created_at: T0 + 20,
});

const seedConsolePayment = (userId: number) => ({
  ...seedPendingPayment(userId),
  week_id: '2026-W05',
  reference: 'RefSeed2222222222222222222222222222222222222',
  memo: 'Daily Grind prize 2026-W05',
  blockhash: 'SeedB1ockhash1111111111111111111111111111111',
  last_valid_block_height: 300_000_150,
  attempt: 1,
});

const seedBurn = {
  signature: '5eedBurn'.padEnd(88, '1'),
  slot: 123_456,
  block_time: T0 + 21,
  mint: SEED_WALLET,
  token_program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  amount: '18446744073709551615',
  decimals: 6,
  authority: SEED_WALLET,
  recorded_at: T0 + 22,
};

const seedSignInNonce = {
  nonce: 'SeedSignInNonce1111111',
  domain: 'grind.example',
  uri: 'https://grind.example',
  issued_at: T0 + 60,
  expires_at: T0 + 60 + 300_000,
  used_at: null,
};

const seedHolderBalance = (userId: number) => ({
  user_id: userId,
  address: SEED_WALLET,
  amount: '18446744073709551615',
  decimals: 6,
  tier: 'whale',
  checked_at: T0 + 61,
  next_check_at: T0 + 61 + 21_600_000,
});

const seedDeletedAccount = { username_lower: 'seed_gone', deleted_at: T0 + 62 };
