import { afterEach, beforeEach } from 'vitest';
import type { AppConfig } from '#server/config.ts';
import { createTestApp, uniqueName, type TestApp } from './test-app.ts';
import { TestClient } from './test-client.ts';
import type { DatabaseKind } from './test-database.ts';

/** What each test of a block gets: its own app and the browser of a member registered on it. */
export interface AppWithMember {
  t: TestApp;
  member: TestClient;
  memberId: number;
  /** The app's origin when it listens on a real socket (`http`), else undefined. */
  origin: string | undefined;
}

export interface AppWithMemberOptions {
  /** The member's name starts with this. */
  prefix: string;
  /** Listen on a loopback port and talk real HTTP, rather than Fastify's inject. */
  http?: boolean;
  /** Config for each test's app, read when the test starts (e.g. a fresh bucket). */
  config?: () => Partial<AppConfig> | Promise<Partial<AppConfig>>;
}

/**
 * A fresh app on a fresh database of `kind` before each test of the block, with one member
 * registered, handed to `take`; closed after the test. The block's own beforeEach hooks run
 * after this one, so they can use it.
 */
export function appWithMemberPerTest(
  kind: DatabaseKind,
  { prefix, http = false, config }: AppWithMemberOptions,
  take: (fresh: AppWithMember) => void,
): void {
  let t: TestApp | undefined;
  beforeEach(async () => {
    t = await createTestApp(kind, (await config?.()) ?? {});
    const origin = http ? await t.listen() : undefined;
    const member = origin ? TestClient.http(origin) : TestClient.inject(t.app);
    const memberId = (await member.register(uniqueName(prefix))).id;
    take({ t, member, memberId, origin });
  });
  afterEach(async () => t?.close());
}
