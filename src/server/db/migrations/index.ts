import type { Migration } from 'kysely';
import * as m001 from './001-accounts.ts';

/** Every migration, in order. A new one is a numbered file plus one line here. */
export const migrations: Record<string, Migration> = {
  '001-accounts': m001,
};
