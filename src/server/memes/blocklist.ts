import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import { HttpError } from '../http-error.ts';
import { recordDecision, type Operator } from '../db/operator-log.ts';

/**
 * The perceptual-hash blocklist (issue 43, docs/blocklist-format.md): every picture a moderator
 * deleted (its decision keeps the hash, memes/moderation.ts) and the lists imported from other
 * communities (`phash_blocklist`). An upload within SAME_PICTURE_MAX_DISTANCE bits of one is
 * refused as a removed picture (uploads/duplicates.ts).
 *
 * The text format, one picture a line:
 *
 *     # grind-phash-blocklist 1
 *     <16 hex digits: the 64-bit DCT pHash>[ <note, up to 200 characters>]
 *
 * `#` starts a comment line; blank lines are skipped; the hash is uploads/perceptual-hash.ts's
 * (32x32 grey, DCT, the 8x8 low frequencies but the constant term against their median).
 */
const BLOCKLIST_HEADER = '# grind-phash-blocklist 1';
const BLOCKLIST_MAX_LINES = 100_000;

const LINE = /^([0-9a-fA-F]{16})(?:\s+(.{0,200}))?$/;

interface BlockedPicture {
  phash: string;
  note: string | null;
}

/** The entries of a list, or 400 VALIDATION naming the first line that is not one. */
function parseBlocklist(text: string): BlockedPicture[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > BLOCKLIST_MAX_LINES) {
    throw new HttpError(400, `A list holds at most ${BLOCKLIST_MAX_LINES} lines.`, 'VALIDATION');
  }
  const out: BlockedPicture[] = [];
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = LINE.exec(line);
    if (!match) {
      throw new HttpError(
        400,
        `Line ${i + 1} is not "<16 hex digits> [note]": ${JSON.stringify(line.slice(0, 40))}`,
        'VALIDATION',
      );
    }
    out.push({ phash: match[1]!.toLowerCase(), note: match[2]?.trim() || null });
  });
  return out;
}

/** Every blocked hash: deleted pictures and imported lists (for the upload check). */
export async function blockedHashes(db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('phash_blocklist').select('phash').execute();
  return rows.map((r) => r.phash);
}

/** The whole list in the text format: deleted pictures first, then imported ones. */
export async function exportBlocklist(
  db: Kysely<Database>,
): Promise<{ text: string; count: number }> {
  const [deleted, imported] = await Promise.all([
    db
      .selectFrom('meme_decisions')
      .select(['phash', 'meme_id', 'decided_at'])
      .where('decision', '=', 'delete')
      .where('phash', 'is not', null)
      .orderBy('id')
      .execute(),
    db.selectFrom('phash_blocklist').select(['phash', 'source', 'note']).orderBy('id').execute(),
  ]);
  const seen = new Set<string>();
  const lines = [BLOCKLIST_HEADER];
  for (const d of deleted) {
    if (seen.has(d.phash!)) continue;
    seen.add(d.phash!);
    lines.push(
      `${d.phash} deleted meme ${d.meme_id}, ${new Date(d.decided_at).toISOString().slice(0, 10)}`,
    );
  }
  for (const b of imported) {
    if (seen.has(b.phash)) continue;
    seen.add(b.phash);
    lines.push(`${b.phash} ${b.source}${b.note ? `: ${b.note}` : ''}`.slice(0, 217));
  }
  return { text: `${lines.join('\n')}\n`, count: seen.size };
}

/** Adds a list's pictures under `source`, with one row on the operator log; known ones are skipped. */
export async function importBlocklist(
  db: Kysely<Database>,
  operator: Operator,
  list: { source: string; text: string; reason: string },
  now: number,
): Promise<{ added: number; known: number }> {
  const entries = parseBlocklist(list.text);
  return db.transaction().execute(async (trx) => {
    let added = 0;
    // In chunks: PostgreSQL takes at most 65,535 parameters a statement.
    for (let i = 0; i < entries.length; i += 1000) {
      const result = await trx
        .insertInto('phash_blocklist')
        .values(
          entries.slice(i, i + 1000).map((e) => ({
            phash: e.phash,
            source: list.source,
            note: e.note,
            added_at: now,
          })),
        )
        .onConflict((oc) => oc.column('phash').doNothing())
        .executeTakeFirst();
      added += Number(result.numInsertedOrUpdatedRows ?? 0n);
    }
    await recordDecision(
      trx,
      operator,
      {
        kind: 'blocklist-import',
        targetType: 'blocklist',
        targetId: list.source,
        targetLabel: list.source,
        reason: list.reason,
        details: { entries: entries.length, added },
      },
      now,
    );
    return { added, known: entries.length - added };
  });
}
