import { describe, expect, it } from 'vitest';
import type { PurchaseResponse, UserProfile } from '#shared/api/shop.ts';
import { characters, getCharacter, type CharacterKey } from '#shared/characters.ts';
import { suiteApp } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { coinsOf, memberWithCoins } from '#test-support/coins.ts';
import { creditCoins, ledgerEntries, ledgerSum } from './ledger.ts';
import { authPaths, shopPaths, pathTo } from '#shared/api/paths.ts';

const paid = characters.filter((c) => c.price > 0);
const price = (key: CharacterKey) => getCharacter(key).price;

describe.each(databaseKinds)('shop API on %s', (kind) => {
  const t = suiteApp(kind);

  const db = () => t.app.deps.db;
  const member = (coins = 0) => memberWithCoins(t, coins, 'shopper');
  const balance = (userId: number) => coinsOf(db(), userId);

  /** Everything a refused purchase or selection must leave untouched. */
  async function state(userId: number) {
    const [user, ledger, owned] = await Promise.all([
      db()
        .selectFrom('users')
        .select(['coins', 'selected_character_key'])
        .where('id', '=', userId)
        .executeTakeFirstOrThrow(),
      ledgerEntries(db(), userId),
      db()
        .selectFrom('owned_characters')
        .select('character_key')
        .where('user_id', '=', userId)
        .orderBy('character_key')
        .execute(),
    ]);
    return { user, ledger, owned };
  }

  /** The economy's invariant, checked from the database itself. */
  async function expectBalanced(userId: number) {
    const coins = await balance(userId);
    expect(coins).toBeGreaterThanOrEqual(0);
    expect(await ledgerSum(db(), userId)).toBe(coins);
    const entries = await ledgerEntries(db(), userId);
    let running = 0;
    for (const entry of entries) {
      running += entry.delta;
      expect(entry.balance_after).toBe(running);
    }
    return coins;
  }

  /** A purchase or selection refused with `status` and `answer`, leaving the member untouched. */
  async function expectRefused(
    client: TestClient,
    userId: number,
    url: string,
    status: number,
    answer: { message: string; code: string },
  ) {
    const before = await state(userId);
    const res = await client.request('POST', url);
    expect(res.statusCode, url).toBe(status);
    expect(res.json()).toEqual(answer);
    expect(await state(userId)).toEqual(before);
  }

  it('answers 401 with a clear message to visitors on every route, and writes nothing', async () => {
    const visitor = TestClient.inject(t.app);
    const cases = [
      ['GET', shopPaths.profile, 'Please log in to view your profile.'],
      ['GET', shopPaths.characters, 'Please log in to view your characters.'],
      [
        'POST',
        pathTo(shopPaths.purchase, { key: 'hardhat' }),
        'Please log in to purchase characters.',
      ],
      ['POST', pathTo(shopPaths.select, { key: 'hardhat' }), 'Please log in to select characters.'],
    ] as const;
    for (const [method, url, message] of cases) {
      const res = await visitor.request(method, url);
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ message, code: 'UNAUTHORIZED' });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect(await db().selectFrom('owned_characters').selectAll().execute()).toEqual([]);
  });

  it('gives a new member a profile with no coins, the default character selected and owned', async () => {
    const { client, user } = await member();
    const profile = await client.request('GET', shopPaths.profile);
    expect(profile.statusCode).toBe(200);
    expect(profile.json()).toEqual({
      username: user.username,
      coins: 0,
      selectedCharacterKey: 'default',
    });
    const owned = await client.request('GET', shopPaths.characters);
    expect(owned.statusCode).toBe(200);
    expect(owned.json()).toEqual([{ characterKey: 'default' }]);
  });

  it('sells a character: one debit, one ledger row, the new profile and collection in the answer', async () => {
    const { client, user } = await member(120);
    const res = await client.request('POST', pathTo(shopPaths.purchase, { key: 'hardhat' }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<PurchaseResponse>()).toEqual({
      profile: { username: user.username, coins: 70, selectedCharacterKey: 'default' },
      characters: [{ characterKey: 'default' }, { characterKey: 'hardhat' }],
    });
    const entries = await ledgerEntries(db(), user.id);
    expect(entries.map((e) => [e.reason, e.delta, e.balance_after, e.character_key])).toEqual([
      ['grant', 120, 120, null],
      ['purchase', -50, 70, 'hardhat'],
    ]);
    expect(await expectBalanced(user.id)).toBe(70);
    // The reads agree with the purchase's answer.
    expect((await client.request('GET', shopPaths.profile)).json<UserProfile>().coins).toBe(70);
    expect((await client.request('GET', shopPaths.characters)).json()).toEqual([
      { characterKey: 'default' },
      { characterKey: 'hardhat' },
    ]);
  });

  it('refuses a purchase the balance does not cover with the numbers, and changes nothing', async () => {
    const { client, user } = await member(300);
    await expectRefused(client, user.id, pathTo(shopPaths.purchase, { key: 'pilot' }), 400, {
      message: 'Not enough coins: Pilot costs 750 and you have 300 (450 more needed)',
      code: 'NOT_ENOUGH_COINS',
    });
  });

  it('never sells the same character twice, and the default is owned already', async () => {
    const { client, user } = await member(500);
    expect(
      (await client.request('POST', pathTo(shopPaths.purchase, { key: 'suit' }))).statusCode,
    ).toBe(200);
    for (const [key, name] of [
      ['suit', 'Executive'],
      ['default', 'Office Worker'],
    ] as const) {
      await expectRefused(client, user.id, pathTo(shopPaths.purchase, { key }), 409, {
        message: `You already own ${name}`,
        code: 'ALREADY_OWNED',
      });
    }
    expect(await expectBalanced(user.id)).toBe(300);
  });

  it('answers 404 for a character the catalogue does not have', async () => {
    const { client, user } = await member(5000);
    for (const key of [
      'dragon',
      'DEFAULT',
      'Pudge',
      '__proto__',
      'constructor',
      '%20',
      '..%2F..',
    ]) {
      for (const action of ['purchase', 'select']) {
        await expectRefused(client, user.id, `/api/characters/${key}/${action}`, 404, {
          message: 'Character not found',
          code: 'UNKNOWN_CHARACTER',
        });
      }
    }
  });

  it('selects only an owned character and answers the new profile', async () => {
    const { client, user } = await member(2000);
    await expectRefused(client, user.id, pathTo(shopPaths.select, { key: 'pudge' }), 403, {
      message: "You don't own Pudge - Official Mascot yet. Purchase it first.",
      code: 'NOT_OWNED',
    });

    expect(
      (await client.request('POST', pathTo(shopPaths.purchase, { key: 'pudge' }))).statusCode,
    ).toBe(200);
    const selected = await client.request('POST', pathTo(shopPaths.select, { key: 'pudge' }));
    expect(selected.statusCode).toBe(200);
    expect(selected.json()).toEqual({
      username: user.username,
      coins: 0,
      selectedCharacterKey: 'pudge',
    });
    expect(
      (await client.request('GET', shopPaths.profile)).json<UserProfile>().selectedCharacterKey,
    ).toBe('pudge');

    // Selecting again is harmless; the default can always be selected.
    expect(
      (await client.request('POST', pathTo(shopPaths.select, { key: 'pudge' }))).statusCode,
    ).toBe(200);
    const back = await client.request('POST', pathTo(shopPaths.select, { key: 'default' }));
    expect(back.json<UserProfile>().selectedCharacterKey).toBe('default');
  });

  it("keeps one member's purchases and selection away from another's", async () => {
    const a = await member(100);
    const b = await member(0);
    expect(
      (await a.client.request('POST', pathTo(shopPaths.purchase, { key: 'hoodie' }))).statusCode,
    ).toBe(200);
    expect(
      (await b.client.request('POST', pathTo(shopPaths.select, { key: 'hoodie' }))).statusCode,
    ).toBe(403);
    expect((await b.client.request('GET', shopPaths.characters)).json()).toEqual([
      { characterKey: 'default' },
    ]);
    expect(await balance(b.user.id)).toBe(0);
  });

  it('needs the CSRF token to buy or select', async () => {
    const { client, user } = await member(100);
    const before = await state(user.id);
    for (const action of ['purchase', 'select'] as const) {
      const res = await client.request('POST', pathTo(shopPaths[action], { key: 'hardhat' }), {
        csrf: false,
      });
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('CSRF');
    }
    expect(await state(user.id)).toEqual(before);
  });

  it('answers 401 once the member has logged out', async () => {
    const { client, user } = await member(100);
    expect((await client.request('POST', authPaths.logout)).statusCode).toBe(200);
    expect((await client.request('GET', shopPaths.profile)).statusCode).toBe(401);
    expect(
      (await client.request('POST', pathTo(shopPaths.purchase, { key: 'hardhat' }))).statusCode,
    ).toBe(401);
    expect(await balance(user.id)).toBe(100);
  });

  it('falls back to the default for a selection or ownership the catalogue no longer has', async () => {
    const { client, user } = await member();
    await db()
      .insertInto('owned_characters')
      .values({ user_id: user.id, character_key: 'retired', acquired_at: 1 })
      .execute();
    await db()
      .updateTable('users')
      .set({ selected_character_key: 'retired' })
      .where('id', '=', user.id)
      .execute();
    expect(
      (await client.request('GET', shopPaths.profile)).json<UserProfile>().selectedCharacterKey,
    ).toBe('default');
    expect((await client.request('GET', shopPaths.characters)).json()).toEqual([
      { characterKey: 'default' },
    ]);
  });

  it('sells a character once when 50 purchases of it arrive at once, and charges once', async () => {
    const { client, user } = await member(2000);
    await client.token();
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        client.request('POST', pathTo(shopPaths.purchase, { key: 'scientist' })),
      ),
    );
    const statuses = results.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json()).toEqual({ message: 'You already own Scientist', code: 'ALREADY_OWNED' });
    }
    const winner = results.find((r) => r.statusCode === 200)!.json<PurchaseResponse>();
    expect(winner.profile.coins).toBe(1000);
    expect(await expectBalanced(user.id)).toBe(1000);
    const purchases = (await ledgerEntries(db(), user.id)).filter((e) => e.reason === 'purchase');
    expect(purchases.map((e) => [e.character_key, e.delta])).toEqual([['scientist', -1000]]);
  });

  it('sells exactly what the balance covers when 50 purchases of different characters race', async () => {
    const granted = 1500;
    const { client, user } = await member(granted);
    await client.token();
    // Five requests for each of the ten paid characters, shuffled so no key leads.
    const keys = paid.flatMap((c) => Array.from({ length: 5 }, () => c.key));
    let seed = 7;
    for (let i = keys.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      const j = seed % (i + 1);
      [keys[i], keys[j]] = [keys[j]!, keys[i]!];
    }
    const results = await Promise.all(
      keys.map(async (key) => ({
        key,
        res: await client.request('POST', pathTo(shopPaths.purchase, { key })),
      })),
    );

    const coins = await expectBalanced(user.id);
    const owned = new Set(
      (
        await db()
          .selectFrom('owned_characters')
          .select('character_key')
          .where('user_id', '=', user.id)
          .execute()
      ).map((r) => r.character_key as CharacterKey),
    );
    const sold = results.filter((r) => r.res.statusCode === 200);
    expect(new Set(sold.map((r) => r.key))).toEqual(owned);
    expect(sold).toHaveLength(owned.size);
    expect(owned.size).toBeGreaterThan(0);
    // Charged exactly the prices of what was sold, once each.
    expect(granted - coins).toBe([...owned].reduce((sum, key) => sum + price(key), 0));
    const purchases = (await ledgerEntries(db(), user.id)).filter((e) => e.reason === 'purchase');
    expect(purchases.map((e) => e.character_key).sort()).toEqual([...owned].sort());
    // Refusals are only "owned already" for sold keys and "not enough coins" for the others,
    // and nothing unsold was affordable at the end (the balance only went down).
    for (const { key, res } of results.filter((r) => r.res.statusCode !== 200)) {
      if (owned.has(key)) expect(res.statusCode, key).toBe(409);
      else {
        expect(res.statusCode, key).toBe(400);
        expect(res.json<{ code: string }>().code).toBe('NOT_ENOUGH_COINS');
        expect(price(key)).toBeGreaterThan(coins);
      }
    }
    // Every answer showed a balance this sequence of debits actually passed through.
    const balances = new Set((await ledgerEntries(db(), user.id)).map((e) => e.balance_after));
    for (const r of sold)
      expect(balances.has(r.res.json<PurchaseResponse>().profile.coins)).toBe(true);
  });

  it('keeps balances exact when two members buy while coins are credited at the same time', async () => {
    const a = await member(1000);
    const b = await member(1000);
    await Promise.all([a.client.token(), b.client.token()]);
    await Promise.all([
      ...paid
        .slice(0, 6)
        .map((c) => a.client.request('POST', pathTo(shopPaths.purchase, { key: c.key }))),
      ...paid
        .slice(0, 6)
        .map((c) => b.client.request('POST', pathTo(shopPaths.purchase, { key: c.key }))),
      ...Array.from({ length: 10 }, (_, i) =>
        creditCoins(db(), {
          userId: i % 2 ? a.user.id : b.user.id,
          amount: 25,
          reason: 'grant',
          now: t.clock.now(),
        }),
      ),
    ]);
    await expectBalanced(a.user.id);
    await expectBalanced(b.user.id);
  });
});
