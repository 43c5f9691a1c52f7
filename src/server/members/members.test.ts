import { afterAll, describe, expect, it } from 'vitest';
import type { MemberPage } from '#shared/api/members.ts';
import type { Meme } from '#shared/api/memes.ts';
import { accountPaths, memberPaths, memePaths, pathTo } from '#shared/api/paths.ts';
import { NEVER_A_TRANSACTION } from '#shared/holders.ts';
import { shortAddress } from '#shared/siws.ts';
import { weekStartUtc } from '#shared/time.ts';
import { runAdminIn } from '#test-support/admin-cli.ts';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { TestWallet, fakeTransactionSignature } from '#test-support/test-wallet.ts';
import { appendPrizeEvent } from '../prize/repository.ts';
import { scratchClientDist } from '#test-support/scratch.ts';

const { distDir, remove } = scratchClientDist('grind-members-');
afterAll(remove);

const THUMB = `/objects/memes/${'a'.repeat(64)}.jpg`;

/**
 * A page per member (issue 45): `/api/members/:username` and `/u/:username`, served as a meme's
 * page is, with its card tags and what it says in the HTML.
 */
describe.each(databaseKinds)('member pages on %s', (kind) => {
  const t = suiteApp(kind, { clientDistDir: distDir, publicOrigin: 'https://grind.example' });
  const db = () => t.app.deps.db;
  const pageOf = (name: string) =>
    TestClient.inject(t.app).request('GET', pathTo(memberPaths.member, { username: name }));

  /** A member with a meme or two, a ranked run, a paid week and a wallet holding a tier. */
  async function busyMember() {
    const client = TestClient.inject(t.app);
    const name = uniqueName('busy');
    const user = await client.register(name);
    const now = t.clock.now();
    const meme = (title: string, hidden: number, upvotes: number, downvotes: number) =>
      db()
        .insertInto('memes')
        .values({
          user_id: user.id,
          title,
          category: 'coffee-culture',
          image_key: 'memes/x.jpg',
          thumbnail_key: `memes/${'a'.repeat(64)}.jpg`,
          thumbnail_width: 320,
          thumbnail_height: 240,
          upvotes,
          downvotes,
          hidden,
          created_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const shown = await meme('Mondays <b>again</b>', 0, 3, 1);
    await meme('Hidden by moderation', 1, 9, 0);
    const run = async (id: string, score: number) => {
      await db()
        .insertInto('game_runs')
        .values({ id, seed: 7, user_id: user.id, issued_at: now, steps: 1200, score })
        .execute();
      return (
        await db()
          .insertInto('game_scores')
          .values({
            run_id: id,
            user_id: user.id,
            player_key: `u:${user.id}`,
            player_name: name,
            score,
            level: Math.floor(score / 10) + 1,
            tasks_completed: score,
            power_ups_collected: 0,
            game_time: 60,
            week_start: weekStartUtc(now),
            created_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    };
    const best = await run(`${name}-best`, 150);
    await run(`${name}-dq`, 990);
    await db()
      .insertInto('run_disqualifications')
      .values({ run_id: `${name}-dq`, reason: 'bot', operator_id: null, created_at: now })
      .execute();
    const wallet = new TestWallet();
    await db()
      .insertInto('user_wallets')
      .values({
        user_id: user.id,
        address: wallet.address,
        message: 'm',
        signature: 's',
        linked_at: now,
      })
      .execute();
    await db()
      .insertInto('holder_balances')
      .values({
        user_id: user.id,
        address: wallet.address,
        amount: '5000000',
        decimals: 6,
        tier: 'holder',
        checked_at: now,
        next_check_at: now + 1,
      })
      .execute();
    const signature = fakeTransactionSignature();
    const week = `2026-W${String(10 + (user.id % 40)).padStart(2, '0')}`;
    await appendPrizeEvent(db(), {
      week_id: week,
      step: 'paid',
      run_id: `${name}-best`,
      user_id: user.id,
      player_name: name,
      score: 150,
      wallet_address: wallet.address,
      prize: '1 SOL',
      tx_signature: signature,
      lamports: 1_000_000_000,
      slot: 4242,
      block_time: now - 1000,
      created_at: now,
    });
    return { client, name, user, wallet, shown, best, signature, week, now };
  }

  it("shows a member's character, memes with votes, best runs with replays, prize weeks and holder badge; the wallet only when they choose", async () => {
    const m = await busyMember();
    const res = await pageOf(m.name.toUpperCase());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    const iso = new Date(m.now).toISOString();
    expect(res.json<MemberPage>()).toEqual({
      status: 'active',
      username: m.name,
      memberSince: iso,
      standing: 'new',
      character: 'default',
      holder: { tier: 'holder', label: 'Holder' },
      wallet: null,
      memes: [
        {
          id: m.shown.id,
          title: 'Mondays <b>again</b>',
          category: 'coffee-culture',
          thumbnailUrl: THUMB,
          thumbnailWidth: 320,
          thumbnailHeight: 240,
          upvotes: 3,
          downvotes: 1,
          createdAt: iso,
        },
      ],
      bestRuns: [
        {
          entryId: m.best,
          score: 150,
          level: 16,
          week: expect.stringMatching(/^\d{4}-W\d{2}$/),
          createdAt: iso,
          replay: `/#replay-${m.best}`,
        },
      ],
      prizeWeeks: [
        {
          week: m.week,
          prize: '1 SOL',
          signature: m.signature,
          txUrl: `https://solscan.io/tx/${m.signature}`,
          amount: '1000000000',
          paidAt: new Date(m.now - 1000).toISOString(),
        },
      ],
    });

    // The gallery names the author, with their badge, and a hidden meme stays hidden.
    const listed = (await TestClient.inject(t.app).request('GET', memePaths.list)).json<Meme[]>();
    expect(listed.find((meme) => meme.id === m.shown.id)?.author).toEqual({
      username: m.name,
      holder: 'holder',
    });

    // The member shows their wallet; then turns it off again.
    const shown = await m.client.request('PUT', accountPaths.settings, {
      body: { showWallet: true },
    });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({ showWallet: true, wallet: m.wallet.address });
    expect((await pageOf(m.name)).json().wallet).toBe(m.wallet.address);

    // The page itself: the member's card tags and, without scripts, what it says.
    const html = await t.app.inject({ method: 'GET', url: `/u/${m.name}` });
    expect(html.statusCode).toBe(200);
    expect(html.headers['content-type']).toBe('text/html; charset=utf-8');
    const body = html.body;
    expect(body).toContain(`<title>${m.name} - Daily Grind</title>`);
    expect(body).toContain(
      `<meta property="og:url" content="https://grind.example/u/${m.name}" />`,
    );
    expect(body).toContain('<meta property="og:type" content="profile" />');
    expect(body).toMatch(
      new RegExp(
        `<meta property="og:description" content="${m.name} on Daily Grind: Member since [A-Z][a-z]+ \\d{4}, Holder of the token, 1 meme, best score 150, won 1 weekly prize\\." />`,
      ),
    );
    expect(body).not.toContain('<title>x</title>');
    expect(body).toMatch(/Standing: New\. Plays as Office Worker\./);
    expect(body).toContain(
      `<a href="/memes/${m.shown.id}">Mondays &lt;b&gt;again&lt;/b&gt;</a> (3 up, 1 down)`,
    );
    expect(body).not.toContain('Hidden by moderation');
    expect(body).toContain(`<a href="/#replay-${m.best}">watch the replay</a>`);
    expect(body).toContain(`<a href="https://solscan.io/tx/${m.signature}">`);
    expect(body).toContain(shortAddress(m.wallet.address));
    expect(body).toContain(NEVER_A_TRANSACTION);

    await m.client.request('PUT', accountPaths.settings, { body: { showWallet: false } });
    expect((await pageOf(m.name)).json().wallet).toBeNull();
    expect((await t.app.inject({ method: 'GET', url: `/u/${m.name}` })).body).not.toContain(
      shortAddress(m.wallet.address),
    );
  });

  /**
   * A closed account's page: the API gives only its `status`, the HTML answers `statusCode` and
   * `says` so; gives the HTML.
   */
  async function closedPage(
    name: string,
    status: 'suspended' | 'deleted',
    statusCode: number,
    says: string,
  ): Promise<string> {
    expect((await pageOf(name)).json()).toEqual({ status, username: name });
    const html = await t.app.inject({ method: 'GET', url: `/u/${name}` });
    expect(html.statusCode).toBe(statusCode);
    expect(html.body).toContain(says);
    return html.body;
  }

  it("says a suspended or deleted member's page is so and nothing more; an unknown name is not found", async () => {
    const suspended = await busyMember();
    await db()
      .insertInto('suspensions')
      .values({
        user_id: suspended.user.id,
        reason: 'posted a secret reason',
        starts_at: suspended.now,
        ends_at: null,
        operator_id: null,
        lifted_at: null,
        lifted_by: null,
      })
      .execute();
    const suspendedHtml = await closedPage(
      suspended.name,
      'suspended',
      200,
      'This account is suspended.',
    );
    expect(suspendedHtml).toContain('<meta name="robots" content="noindex" />');
    for (const detail of ['secret reason', 'Mondays', 'replay', suspended.signature]) {
      expect(suspendedHtml).not.toContain(detail);
    }

    const deleted = await busyMember();
    const gone = await runAdminIn(t, ['users:delete', deleted.name]);
    expect(gone.code, gone.text).toBe(0);
    const deletedHtml = await closedPage(deleted.name, 'deleted', 410, 'This account was deleted.');
    expect(deletedHtml).not.toContain(deleted.signature);

    for (const name of [uniqueName('nobody'), 'bad name!', 'x'.repeat(40)]) {
      const res = await pageOf(name);
      expect(res.statusCode, name).toBe(404);
      expect(res.json().code).toBe('MEMBER_UNKNOWN');
    }
    const unknownHtml = await t.app.inject({ method: 'GET', url: `/u/${uniqueName('nobody')}` });
    expect(unknownHtml.statusCode).toBe(404);
    expect(unknownHtml.body).not.toContain('og:type" content="profile');
  });
});
