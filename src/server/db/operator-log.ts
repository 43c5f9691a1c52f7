import os from 'node:os';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { LogEntry } from '#shared/api/console/log.ts';
import type { Database } from '../db/database.ts';

type Db = Kysely<Database> | Transaction<Database>;

/** Who made a decision: a console operator (id, name, address) or the CLI. */
export interface Operator {
  id: number | null;
  name: string;
  address: string;
}

/** The CLI as an operator: the shell user's name, `cli` as the address. */
export function cliOperator(): Operator {
  let user = 'unknown';
  try {
    user = os.userInfo().username;
  } catch {
    // No passwd entry (some containers): the log still says it came from the CLI.
  }
  return { id: null, name: `cli:${user}`, address: 'cli' };
}

export interface Decision {
  kind: string;
  targetType: string;
  targetId: string | number;
  targetLabel: string;
  reason: string;
  details?: Record<string, unknown>;
}

/**
 * Appends one decision to the operator log (append-only: migration 016). Called inside the
 * transaction that makes the decision, so a decision and its row land together or not at all.
 */
export async function recordDecision(
  db: Db,
  operator: Operator,
  decision: Decision,
  now: number,
): Promise<number> {
  const { id } = await db
    .insertInto('operator_log')
    .values({
      operator_id: operator.id,
      operator_name: operator.name,
      operator_address: operator.address,
      kind: decision.kind,
      target_type: decision.targetType,
      target_id: String(decision.targetId),
      target_label: decision.targetLabel,
      reason: decision.reason,
      details: JSON.stringify(decision.details ?? {}),
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

export interface LogFilter {
  operator?: string | undefined;
  kind?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  before?: number | undefined;
  limit: number;
}

/** Log rows, newest first, filtered. */
export async function listDecisions(db: Db, filter: LogFilter): Promise<LogEntry[]> {
  let query = db.selectFrom('operator_log').selectAll();
  if (filter.operator) {
    // Part of the name, in any case: "ali" finds Alice and cli:alice. LIKE's own wildcards in
    // the text (`_` is common in usernames) are escaped, so they match themselves.
    const pattern = `%${filter.operator.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
    query = query.where(sql<boolean>`lower(operator_name) like ${pattern} escape '\\'`);
  }
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('created_at', '<', filter.to);
  if (filter.targetType) query = query.where('target_type', '=', filter.targetType);
  if (filter.targetId) query = query.where('target_id', '=', filter.targetId);
  if (filter.before !== undefined) query = query.where('id', '<', filter.before);
  const rows = await query.orderBy('id', 'desc').limit(filter.limit).execute();
  return rows.map((row) => ({
    id: row.id,
    operatorId: row.operator_id,
    operatorName: row.operator_name,
    operatorAddress: row.operator_address,
    kind: row.kind,
    targetType: row.target_type,
    targetId: row.target_id,
    targetLabel: row.target_label,
    reason: row.reason,
    details: JSON.parse(row.details) as Record<string, unknown>,
    createdAt: row.created_at,
  }));
}

/** Every kind the log holds, for the log page's filter. */
export async function decisionKinds(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('operator_log')
    .select('kind')
    .distinct()
    .orderBy('kind')
    .execute();
  return rows.map((r) => r.kind);
}
