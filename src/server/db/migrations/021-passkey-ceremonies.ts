import { sql, type Kysely } from 'kysely';
import { timestamp } from '../migration-helpers.ts';

/**
 * Passkey ceremonies on the session (docs/decisions/022-operator-console.md, issue 40): the
 * ceremony a stored challenge was made for, so a challenge handed out to sign in cannot be
 * spent adding a passkey; and when the session's passkey sign-in happened, which the step-up's
 * absolute limit counts from (passkey_at slides, this does not).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('sessions')
    .addColumn('passkey_challenge_kind', 'text', (c) =>
      c.check(sql`passkey_challenge_kind in ('registration', 'authentication')`),
    )
    .execute();
  await db.schema.alterTable('sessions').addColumn('passkey_signed_in_at', timestamp).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const column of ['passkey_signed_in_at', 'passkey_challenge_kind']) {
    await db.schema.alterTable('sessions').dropColumn(column).execute();
  }
}
