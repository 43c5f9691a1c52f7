import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { AlertsConfig } from '../config.ts';
import type { AlertChannel, Database } from '../db/database.ts';
import type { Kysely } from 'kysely';
import { dueAlerts, markFailedAttempt, markSent } from './outbox.ts';

/** One delivery may take this long before it counts as failed and is retried later. */
const DELIVERY_TIMEOUT_MS = 10_000;

type Deliver = (message: { subject: string; body: string }) => Promise<void>;

async function postJson(url: string, body: unknown): Promise<void> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
  });
  if (!res.ok) throw new Error(`${res.status} ${(await res.text()).slice(0, 200)}`);
}

/** The channels as functions; a channel not configured is absent. */
export function deliverers(config: AlertsConfig): Partial<Record<AlertChannel, Deliver>> {
  const out: Partial<Record<AlertChannel, Deliver>> = {};
  const { discord, telegram, email } = config;
  if (discord) {
    // Discord's webhook: `content` at most 2,000 characters; no mentions are parsed.
    out.discord = ({ subject, body }) =>
      postJson(discord.webhookUrl, {
        content: `**${subject}**\n${body}`.slice(0, 2000),
        allowed_mentions: { parse: [] },
      });
  }
  if (telegram) {
    out.telegram = ({ subject, body }) =>
      postJson(`${telegram.apiUrl}/bot${telegram.botToken}/sendMessage`, {
        chat_id: telegram.chatId,
        text: `${subject}\n${body}`.slice(0, 4096),
        disable_web_page_preview: true,
      });
  }
  if (email) {
    const transport = nodemailer.createTransport({
      url: email.smtpUrl,
      connectionTimeout: DELIVERY_TIMEOUT_MS,
      greetingTimeout: DELIVERY_TIMEOUT_MS,
      socketTimeout: DELIVERY_TIMEOUT_MS,
    } as SMTPTransport.Options);
    out.email = async ({ subject, body }) => {
      await transport.sendMail({ from: email.from, to: email.to, subject, text: body });
    };
  }
  return out;
}

/**
 * Delivers the alerts that are due, one at a time; a failure is kept with its error and tried
 * again after a backoff (outbox.ts). Answers how many were sent.
 */
export async function sendDueAlerts(
  db: Kysely<Database>,
  send: Partial<Record<AlertChannel, Deliver>>,
  now: () => number,
): Promise<number> {
  let sent = 0;
  for (const row of await dueAlerts(db, now())) {
    const deliver = send[row.channel];
    try {
      if (!deliver) throw new Error(`the ${row.channel} channel is no longer configured`);
      await deliver({ subject: row.subject, body: row.body });
      await markSent(db, row.id, now());
      sent++;
    } catch (error) {
      await markFailedAttempt(
        db,
        row,
        error instanceof Error ? error.message : String(error),
        now(),
      );
    }
  }
  return sent;
}
