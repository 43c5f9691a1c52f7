import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { characters, getCharacter, type CharacterKey } from '#shared/characters.ts';
import { HttpError } from '../http-error.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { creditCoins, ledgerEntries, ledgerSum } from './ledger.ts';
import { purchaseCharacter } from './service.ts';

const paidKeys = characters.filter((c) => c.price > 0).map((c) => c.key);

type Op =
  | { kind: 'grant'; amount: number }
  | { kind: 'credit'; amount: number; run: number }
  | { kind: 'purchase'; key: CharacterKey };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), amount: fc.integer({ min: 1, max: 800 }) }),
  // Few run ids, so the same run is often claimed twice.
  fc.record({
    kind: fc.constant('credit' as const),
    amount: fc.integer({ min: 1, max: 300 }),
    run: fc.integer({ min: 0, max: 5 }),
  }),
  fc.record({ kind: fc.constant('purchase' as const), key: fc.constantFrom(...paidKeys) }),
);

type Outcome = 'ok' | number;

describe.each(databaseKinds)('coin economy on %s', (kind) => {
  const t = suiteApp(kind);

  const db = () => t.app.deps.db;

  async function newMember() {
    const username = uniqueName('prop');
    const row = await db()
      .insertInto('users')
      .values({
        username,
        username_lower: username.toLowerCase(),
        password_hash: 'x',
        created_at: 0,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, username };
  }

  function run(member: { id: number; username: string }, o: Op): Promise<Outcome> {
    const now = t.clock.now();
    const done =
      o.kind === 'grant'
        ? creditCoins(db(), {
            userId: member.id,
            amount: o.amount,
            reason: 'grant',
            note: 'prop',
            now,
          })
        : o.kind === 'credit'
          ? creditCoins(db(), {
              userId: member.id,
              amount: o.amount,
              reason: 'game-run',
              runId: `prop-${member.id}-${o.run}`,
              now,
            })
          : purchaseCharacter(t.app.deps, member, o.key);
    return done.then(
      () => 'ok' as const,
      (error: unknown) => {
        if (error instanceof HttpError) return error.statusCode;
        throw error;
      },
    );
  }

  /** What one member's operations must leave behind, read from the database. */
  async function expectInvariant(memberId: number) {
    const { coins } = await db()
      .selectFrom('users')
      .select('coins')
      .where('id', '=', memberId)
      .executeTakeFirstOrThrow();
    expect(coins).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(db(), memberId)).toBe(coins);
    let running = 0;
    for (const entry of await ledgerEntries(db(), memberId)) {
      running += entry.delta;
      expect(entry.balance_after).toBe(running);
      expect(entry.balance_after).toBeGreaterThanOrEqual(0);
    }
    const owned = await db()
      .selectFrom('owned_characters')
      .select('character_key')
      .where('user_id', '=', memberId)
      .execute();
    const bought = (await ledgerEntries(db(), memberId)).filter((e) => e.reason === 'purchase');
    expect(bought.map((e) => e.character_key).sort()).toEqual(
      owned.map((r) => r.character_key).sort(),
    );
    return { coins, owned: new Set(owned.map((r) => r.character_key)) };
  }

  it('applied one at a time, matches a simple model exactly and keeps ledger sum = balance >= 0', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        const member = await newMember();
        let balance = 0;
        const owned = new Set<string>();
        const runs = new Set<number>();
        for (const o of ops) {
          let expected: Outcome = 'ok';
          if (o.kind === 'grant') balance += o.amount;
          else if (o.kind === 'credit') {
            if (runs.has(o.run)) expected = 409;
            else {
              runs.add(o.run);
              balance += o.amount;
            }
          } else if (owned.has(o.key)) expected = 409;
          else if (balance < getCharacter(o.key).price) expected = 400;
          else {
            owned.add(o.key);
            balance -= getCharacter(o.key).price;
          }
          expect(await run(member, o)).toBe(expected);
        }
        const after = await expectInvariant(member.id);
        expect(after.coins).toBe(balance);
        expect(after.owned).toEqual(owned);
      }),
      { numRuns: 40 },
    );
  });

  it('applied all at once in any interleaving, keeps ledger sum = balance >= 0 and charges each sale once', async () => {
    await fc.assert(
      // An opening balance makes racing purchases affordable, so duplicates really compete.
      fc.asyncProperty(
        fc.integer({ min: 0, max: 4000 }),
        fc.array(op, { minLength: 1, maxLength: 30 }),
        async (opening, ops) => {
          const member = await newMember();
          if (opening > 0) await run(member, { kind: 'grant', amount: opening });
          const outcomes = await Promise.all(ops.map((o) => run(member, o)));
          const { coins, owned } = await expectInvariant(member.id);

          let credited = opening;
          const sold = new Set<string>();
          const runsPaid = new Set<number>();
          ops.forEach((o, i) => {
            const outcome = outcomes[i];
            if (o.kind === 'grant') {
              expect(outcome).toBe('ok');
              credited += o.amount;
            } else if (o.kind === 'credit') {
              if (outcome === 'ok') {
                expect(runsPaid.has(o.run)).toBe(false);
                runsPaid.add(o.run);
                credited += o.amount;
              } else expect(outcome).toBe(409);
            } else if (outcome === 'ok') {
              expect(sold.has(o.key)).toBe(false);
              sold.add(o.key);
            } else expect([400, 409]).toContain(outcome);
          });
          // Every distinct run was paid exactly once, whichever claim won.
          expect(runsPaid).toEqual(
            new Set(ops.flatMap((o) => (o.kind === 'credit' ? [o.run] : []))),
          );
          expect(owned).toEqual(sold);
          const spent = [...sold].reduce(
            (sum, key) => sum + getCharacter(key as CharacterKey).price,
            0,
          );
          expect(coins).toBe(credited - spent);
        },
      ),
      { numRuns: 40 },
    );
  });
});
