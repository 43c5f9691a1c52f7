import type { Migration } from 'kysely';
import * as m001 from './001-accounts.ts';
import * as m002 from './002-coins.ts';
import * as m003 from './003-game.ts';
import * as m004 from './004-gallery.ts';
import * as m005 from './005-winners.ts';
import * as m006 from './006-standings-index.ts';
import * as m008 from './008-drop-gallery-state.ts';
import * as m009 from './009-run-pacing.ts';
import * as m010 from './010-prize-wallets.ts';
import * as m011 from './011-gallery-community.ts';
import * as m012 from './012-name-skeletons.ts';
import * as m013 from './013-run-jumps.ts';
import * as m014 from './014-append-only-and-wallet-changes.ts';
import * as m015 from './015-reporters-and-visitor-votes.ts';
import * as m016 from './016-operator-console.ts';
import * as m017 from './017-payments-on-chain.ts';
import * as m018 from './018-live-events.ts';
import * as m019 from './019-appeals-by-member.ts';
import * as m020 from './020-payment-lifetimes.ts';
import * as m021 from './021-passkey-ceremonies.ts';
import * as m022 from './022-prize-withdrawals-and-replay-opens.ts';
import * as m023 from './023-raid-day.ts';
import * as m024 from './024-wallet-sign-in-and-holders.ts';
import * as m025 from './025-clusters-and-rehearsals.ts';
import * as m028 from './028-passkey-names-and-meme-activity.ts';
import * as m029 from './029-held-by.ts';
import * as m030 from './030-member-best-runs-index.ts';

/** Every migration, in order. A new one is a numbered file plus one line here. */
export const migrations: Record<string, Migration> = {
  '001-accounts': m001,
  '002-coins': m002,
  '003-game': m003,
  '004-gallery': m004,
  '005-winners': m005,
  '006-standings-index': m006,
  '008-drop-gallery-state': m008,
  '009-run-pacing': m009,
  '010-prize-wallets': m010,
  '011-gallery-community': m011,
  '012-name-skeletons': m012,
  '013-run-jumps': m013,
  '014-append-only-and-wallet-changes': m014,
  '015-reporters-and-visitor-votes': m015,
  '016-operator-console': m016,
  '017-payments-on-chain': m017,
  '018-live-events': m018,
  '019-appeals-by-member': m019,
  '020-payment-lifetimes': m020,
  '021-passkey-ceremonies': m021,
  '022-prize-withdrawals-and-replay-opens': m022,
  '023-raid-day': m023,
  '024-wallet-sign-in-and-holders': m024,
  '025-clusters-and-rehearsals': m025,
  '028-passkey-names-and-meme-activity': m028,
  '029-held-by': m029,
  '030-member-best-runs-index': m030,
};
