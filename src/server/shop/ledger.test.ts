import { describe, expect, it } from 'vitest';
import { suiteApp, uniqueName } from '#test-support/test-app.ts';
import { TestClient } from '#test-support/test-client.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import { coinsOf } from '#test-support/coins.ts';
import { creditCoins, ledgerSum } from './ledger.ts';

describe.each(databaseKinds)('coin ledger on %s', (kind) => {
  const t = suiteApp(kind);

  it('credits a run once, even when the same run is claimed concurrently', async () => {
    const user = await TestClient.inject(t.app).register(uniqueName());
    const claims = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        creditCoins(t.app.deps.db, {
          userId: user.id,
          amount: 7,
          reason: 'game-run',
          runId: `run-${user.id}`,
          now: 1,
        }),
      ),
    );
    expect(claims.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    expect(await coinsOf(t.app.deps.db, user.id)).toBe(7);
    expect(await ledgerSum(t.app.deps.db, user.id)).toBe(7);
  });

  it('refuses non-positive or fractional amounts and changes nothing', async () => {
    const user = await TestClient.inject(t.app).register(uniqueName());
    for (const amount of [0, -5, 1.5, Number.NaN]) {
      await expect(
        creditCoins(t.app.deps.db, { userId: user.id, amount, reason: 'grant', now: 1 }),
      ).rejects.toMatchObject({ statusCode: 400 });
    }
    expect(await ledgerSum(t.app.deps.db, user.id)).toBe(0);
  });
});
