import { describe, expect, it } from 'vitest';
import { consolePaths } from '#shared/api/console/common.ts';
import { operator, type Operator } from '#test-support/operators.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { recordDecision } from './operator-log.ts';

const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const HOUR = 60 * 60 * 1000;

describe.each(databaseKinds)('the operator log filters and pages on %s', (kind) => {
  const t = suiteApp(kind, { publicOrigin: 'http://localhost:3000' });

  /**
   * Log rows of two operators of this test only, over three days: each at a known time, so each
   * filter has one right answer. Returns their ids, oldest first.
   */
  async function seed() {
    const alice = { id: null, name: `cli:${uniqueName('alice')}`, address: 'cli' };
    const bob = { id: null, name: `cli:${uniqueName('bob')}`, address: 'cli' };
    const kindA = uniqueName('kind-a');
    const kindB = uniqueName('kind-b');
    const rows = [
      { who: alice, kind: kindA, at: day('2026-03-01') }, // the first instant of the 1st
      { who: bob, kind: kindA, at: day('2026-03-01') + 23 * HOUR },
      { who: alice, kind: kindB, at: day('2026-03-02') + 12 * HOUR },
      { who: alice, kind: kindA, at: day('2026-03-03') - 1 }, // the last instant of the 2nd
      { who: bob, kind: kindB, at: day('2026-03-03') + HOUR },
      { who: alice, kind: kindA, at: day('2026-03-03') + 2 * HOUR },
    ];
    const ids: number[] = [];
    for (const [i, row] of rows.entries()) {
      ids.push(
        await recordDecision(
          t.app.deps.db,
          row.who,
          {
            kind: row.kind,
            targetType: 'member',
            targetId: i,
            targetLabel: `row ${i}`,
            reason: 'seeded',
          },
          row.at,
        ),
      );
    }
    return { alice, bob, kindA, kindB, ids };
  }

  async function log(mod: Operator, query: Record<string, string | number>) {
    const search = new URLSearchParams(
      Object.entries(query).map(([k, v]) => [k, String(v)]),
    ).toString();
    const res = await mod.client.request('GET', `${consolePaths.log}?${search}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ entries: Array<{ id: number }>; kinds: string[]; next: number | null }>();
  }

  it('filters by operator, kind and days (whole UTC days, both ends included)', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const { alice, bob, kindA, kindB, ids } = await seed();
    const idsOf = async (query: Record<string, string>) =>
      (await log(mod, query)).entries.map((e) => e.id);
    // Newest first.
    expect(await idsOf({ operator: alice.name })).toEqual([ids[5], ids[3], ids[2], ids[0]]);
    expect(await idsOf({ operator: bob.name, kind: kindB })).toEqual([ids[4]]);
    expect(await idsOf({ operator: alice.name, kind: kindA })).toEqual([ids[5], ids[3], ids[0]]);
    expect(await idsOf({ operator: alice.name, from: '2026-03-02', to: '2026-03-02' })).toEqual([
      ids[3],
      ids[2],
    ]);
    expect(await idsOf({ kind: kindA, from: '2026-03-01', to: '2026-03-01' })).toEqual([
      ids[1],
      ids[0],
    ]);
    expect(await idsOf({ kind: kindA, from: '2026-03-02' })).toEqual([ids[5], ids[3]]);
    expect(await idsOf({ kind: kindB, to: '2026-03-02' })).toEqual([ids[2]]);
    expect(await idsOf({ kind: kindA, from: '2026-03-04' })).toEqual([]);
    const { kinds } = await log(mod, { operator: alice.name });
    expect(kinds).toEqual(expect.arrayContaining([kindA, kindB]));
  });

  it("filters by part of an operator's name, in any case; % and _ match only themselves", async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const tag = uniqueName('pt').toLowerCase();
    const names = [`cli:Ann_${tag}`, `cli:annx${tag}`, `Joanne_${tag}`, `cli:bob%${tag}`];
    const ids = new Map<string, number>();
    for (const name of names) {
      ids.set(
        name,
        await recordDecision(
          t.app.deps.db,
          { id: null, name, address: 'cli' },
          { kind: 'part', targetType: 'member', targetId: 1, targetLabel: name, reason: 'seeded' },
          day('2026-04-01'),
        ),
      );
    }
    const found = async (operator: string) =>
      (await log(mod, { operator, from: '2026-04-01', to: '2026-04-01' })).entries
        .map((e) => e.id)
        .filter((id) => [...ids.values()].includes(id))
        .sort((a, b) => a - b);
    const idsOf = (...of: string[]) => of.map((name) => ids.get(name)!).sort((a, b) => a - b);
    expect(await found(`ANN_${tag.toUpperCase()}`)).toEqual(idsOf(`cli:Ann_${tag}`));
    expect(await found('oAnNe')).toEqual(idsOf(`Joanne_${tag}`));
    expect(await found(tag)).toEqual(idsOf(...names));
    // `_` is itself here, not LIKE's "any one character" (annx would match that).
    expect(await found('ann_')).toEqual(idsOf(`cli:Ann_${tag}`));
    // `%` is itself here, not "anything" (Ann_ and annx would match that).
    expect(await found(`ann%${tag}`)).toEqual([]);
    expect(await found(`b%${tag}`)).toEqual(idsOf(`cli:bob%${tag}`));
  });

  it('pages with a next cursor: every row once, in order, and null on the last page', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    const { alice, ids } = await seed();
    const pages: number[][] = [];
    let before: number | null = null;
    do {
      const page: Awaited<ReturnType<typeof log>> = await log(mod, {
        operator: alice.name,
        limit: 3,
        ...(before === null ? {} : { before }),
      });
      pages.push(page.entries.map((e) => e.id));
      before = page.next;
    } while (before !== null && pages.length < 10);
    expect(pages).toEqual([[ids[5], ids[3], ids[2]], [ids[0]]]);
    // A page that ends exactly on the last row says there is no next one.
    const exact = await log(mod, { operator: alice.name, limit: 4 });
    expect(exact.entries).toHaveLength(4);
    expect(exact.next).toBeNull();
    // Paging and the date filter together.
    const first = await log(mod, { operator: alice.name, to: '2026-03-02', limit: 1 });
    expect(first.entries.map((e) => e.id)).toEqual([ids[3]]);
    const second = await log(mod, {
      operator: alice.name,
      to: '2026-03-02',
      limit: 1,
      before: first.next!,
    });
    expect(second.entries.map((e) => e.id)).toEqual([ids[2]]);
  });

  it('refuses a bad filter with 400', async () => {
    const mod = await operator(t, 'moderator', { passkey: true });
    for (const query of [
      'from=2026-03-02&to=2026-03-01',
      'from=2026-02-30',
      'to=2026-3-1',
      'from=yesterday',
      'from=1700000000000',
      'to=1999-12-31',
      'from=2100-01-01',
      'limit=0',
      'limit=101',
      'before=-5',
      'before=abc',
      `kind=${'k'.repeat(65)}`,
    ]) {
      const res = await mod.client.request('GET', `${consolePaths.log}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toEqual(expect.any(String));
    }
    const same = await mod.client.request(
      'GET',
      `${consolePaths.log}?from=2026-03-01&to=2026-03-01`,
    );
    expect(same.statusCode).toBe(200);
  });
});
