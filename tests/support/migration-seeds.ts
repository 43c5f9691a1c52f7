import type { Kysely } from 'kysely';
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

export const migrationSeeds: Record<string, MigrationSeed> = {
  '001-accounts': {
    async seed(db) {
      await db
        .insertInto('users')
        .values([
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
        ])
        .execute();
      await db
        .insertInto('sessions')
        .values({
          id_hash: 'seed-session-hash',
          user_id: await userId(db, 'seed_alice'),
          created_at: T0,
          last_seen_at: T0 + 5,
          expires_at: T0 + 86_400_000,
        })
        .execute();
      await db
        .insertInto('rate_limits')
        .values({ key: 'login:user:seed_alice', window_start: T0, count: 3 })
        .execute();
    },
    async verify(db) {
      expect(
        await rows(
          db
            .selectFrom('users')
            .select(['username', 'username_lower', 'password_hash', 'created_at'])
            .where('username_lower', 'in', ['seed_alice', 'seed-bob'])
            .orderBy('created_at'),
        ),
      ).toEqual([
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
      ]);
      expect(
        await rows(
          db
            .selectFrom('sessions')
            .select(['user_id', 'expires_at'])
            .where('id_hash', '=', 'seed-session-hash'),
        ),
      ).toEqual([{ user_id: await userId(db, 'seed_alice'), expires_at: T0 + 86_400_000 }]);
      expect(
        await rows(
          db
            .selectFrom('rate_limits')
            .select(['window_start', 'count'])
            .where('key', '=', 'login:user:seed_alice'),
        ),
      ).toEqual([{ window_start: T0, count: 3 }]);
    },
  },
  '002-coins': {
    async seed(db) {
      const alice = await userId(db, 'seed_alice');
      await db
        .insertInto('coin_ledger')
        .values([
          {
            user_id: alice,
            delta: 120,
            balance_after: 120,
            reason: 'game-run',
            run_id: 'seed-run-credited',
            created_at: T0,
          },
          {
            user_id: alice,
            delta: -50,
            balance_after: 70,
            reason: 'purchase',
            character_key: 'hardhat',
            created_at: T0 + 1,
          },
        ])
        .execute();
      await db
        .updateTable('users')
        .set({ coins: 70, selected_character_key: 'hardhat' })
        .where('id', '=', alice)
        .execute();
      await db
        .insertInto('owned_characters')
        .values({ user_id: alice, character_key: 'hardhat', acquired_at: T0 + 1 })
        .execute();
    },
    async verify(db) {
      const alice = await userId(db, 'seed_alice');
      expect(
        await rows(
          db
            .selectFrom('users')
            .select(['coins', 'selected_character_key'])
            .where('id', '=', alice),
        ),
      ).toEqual([{ coins: 70, selected_character_key: 'hardhat' }]);
      expect(
        await rows(
          db
            .selectFrom('coin_ledger')
            .select(['delta', 'balance_after', 'reason', 'run_id', 'character_key'])
            .where('user_id', '=', alice)
            .orderBy('id'),
        ),
      ).toEqual([
        {
          delta: 120,
          balance_after: 120,
          reason: 'game-run',
          run_id: 'seed-run-credited',
          character_key: null,
        },
        {
          delta: -50,
          balance_after: 70,
          reason: 'purchase',
          run_id: null,
          character_key: 'hardhat',
        },
      ]);
      expect(
        await rows(
          db
            .selectFrom('owned_characters')
            .select(['character_key', 'acquired_at'])
            .where('user_id', '=', alice),
        ),
      ).toEqual([{ character_key: 'hardhat', acquired_at: T0 + 1 }]);
    },
  },
  '003-game': {
    async seed(db) {
      const bob = await userId(db, 'seed-bob');
      await db
        .insertInto('game_runs')
        .values({
          id: 'seed-run-scored',
          seed: 4_000_000_000,
          user_id: bob,
          issued_at: T0,
          verified_at: T0 + 30_000,
          inputs: '[12,40,77]',
          steps: 1800,
          score: 240,
          coins: 3,
          obstacles_passed: 9,
          score_submitted_at: T0 + 30_000,
        })
        .execute();
      await db
        .insertInto('game_scores')
        .values({
          run_id: 'seed-run-scored',
          user_id: bob,
          player_key: `u:${bob}`,
          player_name: 'seed-bob',
          score: 240,
          level: 3,
          tasks_completed: 9,
          power_ups_collected: 1,
          game_time: 30,
          week_start: Date.UTC(2026, 0, 5),
          created_at: T0 + 30_000,
        })
        .execute();
    },
    async verify(db) {
      const bob = await userId(db, 'seed-bob');
      expect(
        await rows(
          db
            .selectFrom('game_runs')
            .select(['seed', 'user_id', 'inputs', 'steps', 'score', 'coins', 'score_submitted_at'])
            .where('id', '=', 'seed-run-scored'),
        ),
      ).toEqual([
        {
          seed: 4_000_000_000,
          user_id: bob,
          inputs: '[12,40,77]',
          steps: 1800,
          score: 240,
          coins: 3,
          score_submitted_at: T0 + 30_000,
        },
      ]);
      expect(
        await rows(
          db
            .selectFrom('game_scores')
            .select(['user_id', 'player_key', 'player_name', 'score', 'level', 'week_start'])
            .where('run_id', '=', 'seed-run-scored'),
        ),
      ).toEqual([
        {
          user_id: bob,
          player_key: `u:${bob}`,
          player_name: 'seed-bob',
          score: 240,
          level: 3,
          week_start: Date.UTC(2026, 0, 5),
        },
      ]);
    },
  },
  '004-gallery': {
    async seed(db) {
      const alice = await userId(db, 'seed_alice');
      await db
        .insertInto('uploads')
        .values({
          key: 'uploads/seed-upload',
          user_id: alice,
          created_at: T0,
          expires_at: T0 + 600_000,
          consumed_at: T0 + 1000,
        })
        .execute();
      await db
        .insertInto('meme_images')
        .values({
          user_id: alice,
          image_key: `memes/${'b'.repeat(64)}.png`,
          thumbnail_key: `memes/${'b'.repeat(64)}-thumb.webp`,
          thumbnail_width: 320,
          thumbnail_height: 240,
          created_at: T0 + 1000,
        })
        .execute();
      await db
        .insertInto('memes')
        .values({
          user_id: alice,
          title: 'Seeded: Monday standup 🙂',
          category: 'office-life',
          image_key: `memes/${'a'.repeat(64)}.png`,
          thumbnail_key: `memes/${'a'.repeat(64)}-thumb.webp`,
          thumbnail_width: 320,
          thumbnail_height: 180,
          upvotes: 1,
          downvotes: 1,
          created_at: T0 + 2000,
        })
        .execute();
      const meme = await memeId(db, 'Seeded: Monday standup 🙂');
      await db
        .insertInto('meme_votes')
        .values([
          { meme_id: meme, voter: `u:${alice}`, vote_type: 'up', created_at: T0 + 3000 },
          { meme_id: meme, voter: 'v:seed-visitor', vote_type: 'down', created_at: T0 + 4000 },
        ])
        .execute();
    },
    async verify(db) {
      const alice = await userId(db, 'seed_alice');
      const meme = await memeId(db, 'Seeded: Monday standup 🙂');
      expect(
        await rows(
          db
            .selectFrom('memes')
            .select([
              'user_id',
              'category',
              'image_key',
              'thumbnail_width',
              'thumbnail_height',
              'upvotes',
              'downvotes',
              'created_at',
            ])
            .where('id', '=', meme),
        ),
      ).toEqual([
        {
          user_id: alice,
          category: 'office-life',
          image_key: `memes/${'a'.repeat(64)}.png`,
          thumbnail_width: 320,
          thumbnail_height: 180,
          upvotes: 1,
          downvotes: 1,
          created_at: T0 + 2000,
        },
      ]);
      expect(
        await rows(
          db
            .selectFrom('meme_votes')
            .select(['voter', 'vote_type'])
            .where('meme_id', '=', meme)
            .orderBy('created_at'),
        ),
      ).toEqual([
        { voter: `u:${alice}`, vote_type: 'up' },
        { voter: 'v:seed-visitor', vote_type: 'down' },
      ]);
      expect(
        await rows(
          db
            .selectFrom('uploads')
            .select(['user_id', 'consumed_at'])
            .where('key', '=', 'uploads/seed-upload'),
        ),
      ).toEqual([{ user_id: alice, consumed_at: T0 + 1000 }]);
      expect(
        await rows(
          db
            .selectFrom('meme_images')
            .select(['user_id', 'thumbnail_key', 'thumbnail_height'])
            .where('user_id', '=', alice),
        ),
      ).toEqual([
        {
          user_id: alice,
          thumbnail_key: `memes/${'b'.repeat(64)}-thumb.webp`,
          thumbnail_height: 240,
        },
      ]);
    },
  },
  '005-winners': {
    async seed(db) {
      await db
        .insertInto('giveaway_winners')
        .values({
          week_id: '2026-W02',
          player_name: 'seed-bob',
          prize: '1 SOL',
          tx_url: 'https://explorer.solana.com/tx/seed',
          paid_at: T0 + 7 * 86_400_000,
        })
        .execute();
    },
    async verify(db) {
      // Migration 010 carries winners:add's payments into the prize record as paid steps.
      expect(
        await rows(
          db
            .selectFrom('prize_events')
            .select(['step', 'player_name', 'prize', 'tx_url', 'tx_signature', 'created_at'])
            .where('week_id', '=', '2026-W02'),
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
      // A run refused while it was played, with the progress it had reported.
      await db
        .insertInto('game_runs')
        .values({
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
        })
        .execute();
      // The reviewer's figures for the 003 seed's ranked run.
      await db
        .insertInto('game_run_statistics')
        .values({
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
        })
        .execute();
    },
    async verify(db) {
      expect(
        await rows(
          db
            .selectFrom('game_runs')
            .select(['id', 'progress_step', 'progress_jumps', 'refusal_code', 'character_key'])
            .where('id', 'in', ['seed-run-refused', 'seed-run-scored'])
            .orderBy('id'),
        ),
      ).toEqual([
        {
          id: 'seed-run-refused',
          progress_step: 120,
          progress_jumps: '12,40,77',
          refusal_code: 'RUN_BEHIND',
          character_key: 'pudge',
        },
        // A run from before 009 reads as one with no progress and the default character.
        {
          id: 'seed-run-scored',
          progress_step: 0,
          progress_jumps: '',
          refusal_code: null,
          character_key: 'default',
        },
      ]);
      expect(
        await rows(
          db
            .selectFrom('game_run_statistics')
            .select(['run_id', 'jump_interval_median_ms', 'fast_reaction_share', 'top_speed']),
        ),
      ).toEqual([
        {
          run_id: 'seed-run-scored',
          jump_interval_median_ms: 450.5,
          fast_reaction_share: 0.125,
          top_speed: 4.4,
        },
      ]);
    },
  },
  '010-prize-wallets': {
    async seed(db) {
      const alice = await userId(db, 'Seed_Alice');
      await db
        .insertInto('wallet_nonces')
        .values({
          nonce: 'SeedNonce1111111111111',
          user_id: alice,
          domain: 'dailygrind.example',
          uri: 'https://dailygrind.example',
          issued_at: T0,
          expires_at: T0 + 600_000,
          used_at: T0 + 1000,
        })
        .execute();
      await db
        .insertInto('user_wallets')
        .values({
          user_id: alice,
          address: SEED_WALLET,
          message: 'dailygrind.example wants you to sign in with your Solana account:\nseed',
          signature: 'seed-signature',
          linked_at: T0 + 1000,
        })
        .execute();
      for (const [step, tx] of [
        ['reviewed', null],
        ['approved', null],
        ['paid', SEED_TX],
      ] as const) {
        await db
          .insertInto('prize_events')
          .values({
            week_id: '2026-W03',
            step,
            run_id: 'seed-run-010',
            user_id: alice,
            player_name: 'Seed_Alice',
            score: 321,
            wallet_address: SEED_WALLET,
            prize: '1 SOL',
            tx_signature: tx,
            created_at: T0 + 14 * 86_400_000,
          })
          .execute();
      }
    },
    async verify(db) {
      const alice = await userId(db, 'Seed_Alice');
      expect(
        await rows(db.selectFrom('user_wallets').select(['user_id', 'address', 'linked_at'])),
      ).toEqual([{ user_id: alice, address: SEED_WALLET, linked_at: T0 + 1000 }]);
      expect(await rows(db.selectFrom('wallet_nonces').select(['nonce', 'used_at']))).toEqual([
        { nonce: 'SeedNonce1111111111111', used_at: T0 + 1000 },
      ]);
      expect(
        await rows(
          db
            .selectFrom('prize_events')
            .select(['step', 'tx_signature', 'wallet_address'])
            .where('week_id', '=', '2026-W03')
            .orderBy('id'),
        ),
      ).toEqual([
        { step: 'reviewed', tx_signature: null, wallet_address: SEED_WALLET },
        { step: 'approved', tx_signature: null, wallet_address: SEED_WALLET },
        { step: 'paid', tx_signature: SEED_TX, wallet_address: SEED_WALLET },
      ]);
    },
  },
  '011-gallery-community': {
    async seed(db) {
      const meme = await memeId(db, 'Seeded: Monday standup 🙂');
      const alice = await userId(db, 'seed_alice');
      await db
        .insertInto('memes')
        .values({
          user_id: alice,
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
        })
        .execute();
      await db
        .insertInto('meme_reports')
        .values({
          meme_id: meme,
          reporter: 'v:seed',
          reporter_identity: 'ip:192.0.2.1',
          reason: 'spam',
          created_at: T0 + 6000,
        })
        .execute();
      await db
        .insertInto('meme_decisions')
        .values({
          meme_id: meme,
          meme_title: 'Seeded: Monday standup 🙂',
          decision: 'dismiss',
          open_reports: 1,
          decided_at: T0 + 7000,
        })
        .execute();
    },
    async verify(db) {
      const meme = await memeId(db, 'Seeded: Monday standup 🙂');
      expect(
        await db
          .selectFrom('memes')
          .select(['phash', 'image_width', 'image_height'])
          .where('title', '=', 'Seeded: hashed')
          .executeTakeFirstOrThrow(),
      ).toEqual({ phash: '0123456789abcdef', image_width: 800, image_height: 600 });
      expect(
        await db
          .selectFrom('meme_reports')
          .select(['reporter', 'reason', 'decision_id'])
          .where('meme_id', '=', meme)
          .execute(),
      ).toEqual([{ reporter: 'v:seed', reason: 'spam', decision_id: null }]);
      expect(
        await db
          .selectFrom('meme_decisions')
          .select(['decision', 'open_reports'])
          .where('meme_id', '=', meme)
          .execute(),
      ).toEqual([{ decision: 'dismiss', open_reports: 1 }]);
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
};
