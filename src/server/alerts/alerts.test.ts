import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { suiteApp } from '#test-support/test-app.ts';
import { databaseKinds } from '#test-support/test-database.ts';
import {
  fakeHttpService,
  fakeSmtpRelay,
  type FakeService,
} from '#test-support/fake-alert-services.ts';
import { loadConfig, ConfigError, type AlertsConfig } from '../config.ts';
import { switchRaid } from '../raid/service.ts';
import { cliOperator } from '../db/operator-log.ts';
import { backoffMs } from './outbox.ts';
import { deliverers, sendDueAlerts } from './sender.ts';

describe('alert channels at start', () => {
  it('refuses a Telegram token without its chat, and an SMTP relay without its addresses', () => {
    expect(() => loadConfig({ TELEGRAM_BOT_TOKEN: '123:abcdefghijklmnopqrstuvwxyz' })).toThrow(
      ConfigError,
    );
    expect(() => loadConfig({ ALERT_SMTP_URL: 'smtp://127.0.0.1:25' })).toThrow(/ALERT_EMAIL_FROM/);
    expect(() => loadConfig({ DISCORD_WEBHOOK_URL: 'discord.com/api/webhooks/1' })).toThrow(
      /DISCORD_WEBHOOK_URL/,
    );
  });
});

const services: { discord?: FakeService; telegram?: FakeService; smtp?: FakeService } = {};
beforeAll(async () => {
  [services.discord, services.telegram, services.smtp] = await Promise.all([
    fakeHttpService(),
    fakeHttpService(),
    fakeSmtpRelay(),
  ]);
});
afterAll(async () => {
  await Promise.all(Object.values(services).map((s) => s?.close()));
});

describe.each(databaseKinds)('alerts from the outbox on %s', (kind) => {
  const alerts = (): AlertsConfig => ({
    discord: { webhookUrl: `${services.discord!.url}/api/webhooks/1/token` },
    telegram: { apiUrl: services.telegram!.url, botToken: '123:abc', chatId: '-100' },
    email: { smtpUrl: services.smtp!.url, from: 'site@example.org', to: ['mods@example.org'] },
    queueSize: 25,
  });
  const t = suiteApp(kind);

  it('raid mode entered reaches Discord, Telegram and email; a failure is retried after its backoff', async () => {
    const deps = { ...t.app.deps, config: { ...t.config, alerts: alerts() } };
    services.discord!.failNext(1);
    await switchRaid(
      deps,
      cliOperator(),
      { active: true, reason: 'a crowd arrived' },
      t.clock.now(),
    );
    const send = deliverers(deps.config.alerts);
    expect(await sendDueAlerts(t.app.deps.db, send, () => t.clock.now())).toBe(2);
    expect(services.telegram!.received.at(-1)).toMatchObject({ path: '/bot123:abc/sendMessage' });
    expect(JSON.parse(services.telegram!.received.at(-1)!.body).text).toContain('Raid mode ON');
    expect(services.smtp!.received.at(-1)!.body).toContain('Subject: Raid mode ON');
    // Discord failed once: nothing more is sent before the backoff.
    expect(await sendDueAlerts(t.app.deps.db, send, () => t.clock.now())).toBe(0);
    t.clock.advance(backoffMs(1));
    expect(await sendDueAlerts(t.app.deps.db, send, () => t.clock.now())).toBe(1);
    expect(JSON.parse(services.discord!.received.at(-1)!.body).content).toContain('Raid mode ON');
    const rows = await t.app.deps.db.selectFrom('alert_outbox').selectAll().execute();
    expect(rows.every((r) => r.sent_at !== null)).toBe(true);
    expect(rows.find((r) => r.channel === 'discord')).toMatchObject({
      attempts: 1,
      last_error: expect.stringContaining('500'),
    });
    await switchRaid(deps, cliOperator(), { active: false, reason: 'quiet again' }, t.clock.now());
  });
});
