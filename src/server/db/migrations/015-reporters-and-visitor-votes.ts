import type { Kysely } from 'kysely';
import { createIndexes, flag } from '../migration-helpers.ts';

/** Issue 30: reports count by network and standing; visitor votes capped per network. */
export async function up(db: Kysely<any>): Promise<void> {
  // A visitor's vote is keyed by their own signed cookie (memes/voter.ts); `network` is an HMAC
  // of the network it came from (an IPv4 address or an IPv6 /48), so the votes counted per meme
  // and network can be capped (memes/vote-rules.ts). Null for members' votes and older votes.
  await db.schema.alterTable('meme_votes').addColumn('network', 'text').execute();
  await createIndexes(db, 'meme_votes', { meme_votes_meme_network: ['meme_id', 'network'] });
  // Whether a report counts towards hiding the meme (memes/moderation.ts): a new or idle
  // account's report is filed for the queue but hides nothing. Reports from before counted.
  await db.schema
    .alterTable('meme_reports')
    .addColumn('counts_to_hide', 'integer', flag('counts_to_hide', 1))
    .execute();
  // A picture the operator deleted keeps its perceptual hash in the decision, so it cannot be
  // posted again (uploads/duplicates.ts); null for other decisions and those from before.
  await db.schema.alterTable('meme_decisions').addColumn('phash', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('meme_decisions').dropColumn('phash').execute();
  await db.schema.alterTable('meme_reports').dropColumn('counts_to_hide').execute();
  await db.schema.dropIndex('meme_votes_meme_network').execute();
  await db.schema.alterTable('meme_votes').dropColumn('network').execute();
}
