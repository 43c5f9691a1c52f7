import type { Generated } from 'kysely';
import type { Role } from '#shared/api/console/common.ts';
import type { SolanaCluster } from '#shared/solana-cluster.ts';

/**
 * Every table, as Kysely sees it. Times are epoch milliseconds (bigint in PostgreSQL, parsed to
 * number by create-database.ts), so both engines compare and sort them the same way.
 * Each domain adds its tables here next to its migration.
 */
interface UsersTable {
  id: Generated<number>;
  username: string;
  username_lower: string;
  /** nameSkeleton(username), unique (migration 012); null only for rows written outside the app. */
  username_skeleton: string | null;
  password_hash: string;
  coins: Generated<number>;
  selected_character_key: Generated<string>;
  created_at: number;
  /** What the member may do in the operator console (migration 016). */
  role: Generated<Role>;
  /** 1: the member's page shows their wallet, shortened (migration 024). */
  show_wallet: Generated<number>;
}

/** The WebAuthn ceremony a session's challenge was made for (migration 021). */
export type PasskeyCeremony = 'registration' | 'authentication';

interface SessionsTable {
  id_hash: string;
  user_id: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  /** The session's last passkey sign-in or console request after one (migration 016). */
  passkey_at: number | null;
  passkey_challenge: string | null;
  passkey_challenge_expires_at: number | null;
  /** The ceremony the challenge was made for (migration 021): it is good for that one alone. */
  passkey_challenge_kind: PasskeyCeremony | null;
  /** The session's passkey sign-in itself (migration 021): the step-up's absolute limit. */
  passkey_signed_in_at: number | null;
}

interface RateLimitsTable {
  key: string;
  window_start: number;
  count: number;
}

interface UploadsTable {
  key: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  consumed_at: number | null;
}

interface MemeImagesTable {
  id: Generated<number>;
  user_id: number;
  image_key: string;
  thumbnail_key: string;
  thumbnail_width: number;
  thumbnail_height: number;
  created_at: number;
  /** Perceptual hash, 16 hex digits (uploads/perceptual-hash.ts). */
  phash: string | null;
  /** The display image's size (null before migration 011). */
  image_width: number | null;
  image_height: number | null;
  /** The NSFW classifier's score, 0 to 1 (migration 023; null when it could not score). */
  screen_score: Generated<number | null>;
}

export interface MemesTable {
  id: Generated<number>;
  user_id: number | null;
  title: string;
  category: string;
  image_key: string;
  thumbnail_key: string;
  thumbnail_width: number;
  thumbnail_height: number;
  upvotes: Generated<number>;
  downvotes: Generated<number>;
  /** 0 or 1 (portable boolean). */
  hidden: Generated<number>;
  created_at: number;
  phash: string | null;
  image_width: number | null;
  image_height: number | null;
  screen_score: Generated<number | null>;
  /** 1 while held for review (hidden too; migration 023). */
  held: Generated<number>;
  /** Who held it: the classifier at upload or raid mode's entry (migration 029). */
  held_by: Generated<'classifier' | 'raid' | null>;
}

interface MemeReportsTable {
  meme_id: number;
  reporter: string;
  /**
   * What the hiding threshold counts: `n:<HMAC of the network>` for anyone (migration 015,
   * memes/moderation.ts); older rows hold `u:<id>` for a member, `ip:<address>` for a visitor.
   */
  reporter_identity: string;
  /** 1 when the report counts towards hiding, 0 for a new or idle account's (migration 015). */
  counts_to_hide: Generated<number>;
  reason: string;
  created_at: number;
  decision_id: number | null;
}

interface MemeDecisionsTable {
  id: Generated<number>;
  meme_id: number;
  meme_title: string;
  decision: 'dismiss' | 'hide' | 'delete' | 'unhide';
  open_reports: number;
  decided_at: number;
  /** A deleted meme's perceptual hash, so the picture stays refused (migration 015). */
  phash: string | null;
  /** Whose meme it was (migration 023): a hide or delete on reports counts against their standing. */
  uploader_id: Generated<number | null>;
}

interface MemeListSnapshotsTable {
  id: Generated<number>;
  list_key: string;
  /** JSON array of meme ids in list order. */
  meme_ids: string;
  created_at: number;
}

interface MemeVotesTable {
  meme_id: number;
  /** `u:<user id>` for a member, `v:<visitor id>` for a visitor's signed cookie. */
  voter: string;
  vote_type: 'up' | 'down';
  /** A visitor's network as an HMAC (memes/voter.ts); null for members and older votes. */
  network: string | null;
  created_at: number;
}

export interface GameRunsTable {
  /** 128 random bits, base64url; the client's proof that it was handed this round. */
  id: string;
  seed: number;
  user_id: number | null;
  issued_at: number;
  verified_at: number | null;
  steps: number | null;
  score: number | null;
  coins: number | null;
  obstacles_passed: number | null;
  score_submitted_at: number | null;
  coins_credited: number | null;
  coins_credited_at: number | null;
  /** Progress reported while the round ran (migration 009): the step reached. */
  progress_step: Generated<number>;
  progress_at: number | null;
  /** How many jumps `run_jumps` holds for the run (migration 013). */
  jump_count: Generated<number>;
  /** The caller's network while the run may still report; null once verified or refused. */
  network: string | null;
  /** A refused run keeps its answer: sending it again is answered from these. */
  refused_at: number | null;
  refusal_code: string | null;
  refusal_message: string | null;
  /** The character the round was played with, for its replay. */
  character_key: Generated<string>;
}

/**
 * A run's jumps (migration 013): chunks of comma-separated step numbers, in step order by
 * `first_step`; each report appends one, and the verified log is one chunk from step 0.
 */
interface RunJumpsTable {
  run_id: string;
  first_step: number;
  jumps: string;
}

/** A ranked run's replay figures for the reviewer (see src/shared/game/run-statistics.ts). */
export interface GameRunStatisticsTable {
  run_id: string;
  jumps: number;
  jump_interval_median_ms: number;
  jump_interval_cv: number;
  aim_spread_px: number;
  edge_margin_min_px: number;
  edge_margin_median_px: number;
  reaction_median_ms: number;
  fast_reaction_share: number;
  top_speed: number;
  computed_at: number;
}

export interface GameScoresTable {
  id: Generated<number>;
  run_id: string;
  user_id: number | null;
  /** `u:<user id>` for a member, `n:<lower-cased name>` for a visitor. */
  player_key: string;
  player_name: string;
  score: number;
  level: number;
  tasks_completed: number;
  power_ups_collected: number;
  game_time: number;
  /** Monday 00:00 UTC of the entry's leaderboard week. */
  week_start: number;
  created_at: number;
}

/**
 * A Sign In With Solana message the server issued (wallet/siws-checks.ts), as both nonce tables
 * keep it: spent once, short-lived.
 */
export interface IssuedMessageColumns {
  nonce: string;
  domain: string;
  uri: string;
  issued_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A wallet-link message issued to a member. */
export interface WalletNoncesTable extends IssuedMessageColumns {
  user_id: number;
}

export interface UserWalletsTable {
  user_id: number;
  /** Base58 ed25519 public key. */
  address: string;
  /** The Sign In With Solana message that proved it, and its signature (base58). */
  message: string;
  signature: string;
  linked_at: number;
}

/** `pending` and `expired`: a payment prepared with its reference, and one that never landed. */
type PrizeStep = 'reviewed' | 'approved' | 'pending' | 'expired' | 'paid';

/** Append-only (db/append-only.ts): no row is ever updated, deleted or replaced. */
export interface PrizeEventsTable {
  id: Generated<number>;
  week_id: string;
  step: PrizeStep;
  run_id: string | null;
  user_id: number | null;
  player_name: string;
  score: number | null;
  wallet_address: string | null;
  prize: string | null;
  tx_signature: string | null;
  tx_url: string | null;
  created_at: number;
  /** A payment's reference key (pending, paid), memo and amount in lamports (migration 017). */
  reference: string | null;
  memo: string | null;
  lamports: number | null;
  /** A verified payment's slot and block time (epoch ms). */
  slot: number | null;
  block_time: number | null;
  /** Why a pending payment expired. */
  reason: string | null;
  /** A console payment's blockhash and the last block height it can land at (migration 020). */
  blockhash: string | null;
  last_valid_block_height: number | null;
  /** The week's nth prepared payment, unique per week (migration 020). */
  attempt: number | null;
  /**
   * A paid step's cluster, the one it was verified on (migration 025); null on every other step,
   * and on a payment recorded before it, which was mainnet-beta's.
   */
  cluster: Generated<SolanaCluster | null>;
}

/** Append-only: each token burn verified on chain (migration 017). */
export interface TokenBurnsTable {
  id: Generated<number>;
  signature: string;
  slot: number;
  block_time: number;
  mint: string;
  token_program: string;
  /** Base units as a decimal string (a u64). */
  amount: string;
  decimals: number;
  authority: string;
  recorded_at: number;
  /** The cluster it was verified on (migration 025; mainnet-beta before it). */
  cluster: Generated<SolanaCluster>;
}

/** The demo members rehearsal:week made (migration 025); their runs are the rehearsal's. */
interface RehearsalMembersTable {
  user_id: number;
  created_at: number;
}

/** Append-only (db/append-only.ts): each wallet a member proved, with its proof (migration 014). */
export interface WalletChangesTable {
  id: Generated<number>;
  user_id: number;
  /** Null for the member's first wallet. */
  old_address: string | null;
  new_address: string;
  message: string;
  signature: string;
  changed_at: number;
}

export interface CoinLedgerTable {
  id: Generated<number>;
  user_id: number;
  delta: number;
  balance_after: number;
  reason: 'game-run' | 'purchase' | 'grant';
  run_id: string | null;
  character_key: string | null;
  note: string | null;
  created_at: number;
}

interface OwnedCharactersTable {
  user_id: number;
  character_key: string;
  acquired_at: number;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  rate_limits: RateLimitsTable;
  game_runs: GameRunsTable;
  run_jumps: RunJumpsTable;
  game_run_statistics: GameRunStatisticsTable;
  game_scores: GameScoresTable;
  wallet_nonces: WalletNoncesTable;
  user_wallets: UserWalletsTable;
  prize_events: PrizeEventsTable;
  wallet_changes: WalletChangesTable;
  token_burns: TokenBurnsTable;
  rehearsal_members: RehearsalMembersTable;
  coin_ledger: CoinLedgerTable;
  owned_characters: OwnedCharactersTable;
  uploads: UploadsTable;
  meme_images: MemeImagesTable;
  memes: MemesTable;
  meme_votes: MemeVotesTable;
  meme_reports: MemeReportsTable;
  meme_decisions: MemeDecisionsTable;
  meme_list_snapshots: MemeListSnapshotsTable;
  passkeys: PasskeysTable;
  operator_log: OperatorLogTable;
  suspensions: SuspensionsTable;
  appeals: AppealsTable;
  replay_watches: ReplayWatchesTable;
  run_disqualifications: RunDisqualificationsTable;
  prize_withdrawals: PrizeWithdrawalsTable;
  replay_opens: ReplayOpensTable;
  raid_mode: RaidModeTable;
  spent_challenges: SpentChallengesTable;
  phash_blocklist: PhashBlocklistTable;
  suspension_cleanups: SuspensionCleanupsTable;
  alert_outbox: AlertOutboxTable;
  wallet_sign_in_nonces: WalletSignInNoncesTable;
  holder_balances: HolderBalancesTable;
  deleted_accounts: DeletedAccountsTable;
  meme_activity: MemeActivityTable;
}

/** A sign-in message issued to a visitor (migration 024). */
export type WalletSignInNoncesTable = IssuedMessageColumns;

/** A member's last read of their proven wallet's balance of the site's token (migration 024). */
export interface HolderBalancesTable {
  user_id: number;
  address: string;
  /** Base units as a decimal string (a u64). */
  amount: string;
  decimals: number;
  tier: 'holder' | 'whale' | null;
  checked_at: number;
  next_check_at: number;
}

/** A deleted member's name (migration 024): their page says the account is gone. */
interface DeletedAccountsTable {
  username_lower: string;
  deleted_at: number;
}

/** A member's WebAuthn credential (migration 016); keys and ids base64url. */
interface PasskeysTable {
  id: Generated<number>;
  user_id: number;
  credential_id: string;
  public_key: string;
  counter: number;
  /** JSON array of AuthenticatorTransport names. */
  transports: string;
  created_at: number;
  last_used_at: number | null;
  /** The operator's name for it (migration 028); null for one added before. */
  name: string | null;
}

/** Append-only (db/append-only.ts): every operator decision, console or CLI (migration 016). */
/** The raid switch and its thresholds: one row (migration 023, docs/decisions/027). */
interface RaidModeTable {
  id: number;
  active: number;
  since: number | null;
  automatic: number;
  signups_per_hour: number;
  new_posts_per_hour: number;
  reports_per_hour: number;
  quiet_minutes: number;
  updated_at: number;
}

interface SpentChallengesTable {
  signature: string;
  expires_at: number;
}

interface PhashBlocklistTable {
  id: Generated<number>;
  phash: string;
  /** `deleted` for a meme a moderator deleted, else the community the list came from. */
  source: string;
  note: string | null;
  added_at: number;
}

interface SuspensionCleanupsTable {
  id: Generated<number>;
  suspension_id: number;
  kind: 'meme' | 'vote' | 'report';
  meme_id: number;
  vote_type: 'up' | 'down' | null;
  voter: string | null;
  reporter_identity: string | null;
  counts_to_hide: number | null;
  reason: string | null;
  created_at: number;
  restored_at: number | null;
}

export type AlertChannel = 'discord' | 'telegram' | 'email';

interface AlertOutboxTable {
  id: Generated<number>;
  kind: string;
  channel: AlertChannel;
  subject: string;
  body: string;
  created_at: number;
  attempts: Generated<number>;
  next_attempt_at: number;
  sent_at: number | null;
  failed_at: number | null;
  last_error: string | null;
}

interface OperatorLogTable {
  id: Generated<number>;
  /** Null for the CLI. */
  operator_id: number | null;
  operator_name: string;
  /** The operator's address, or `cli`. */
  operator_address: string;
  kind: string;
  target_type: string;
  target_id: string;
  target_label: string;
  reason: string;
  /** JSON object. */
  details: string;
  created_at: number;
}

interface SuspensionsTable {
  id: Generated<number>;
  user_id: number;
  reason: string;
  starts_at: number;
  /** Null: for good. */
  ends_at: number | null;
  operator_id: number | null;
  lifted_at: number | null;
  lifted_by: number | null;
}

interface AppealsTable {
  id: Generated<number>;
  suspension_id: number;
  user_id: number;
  text: string;
  created_at: number;
  decision: 'upheld' | 'lifted' | null;
  decision_note: string | null;
  decided_at: number | null;
  decided_by: number | null;
  /** When the member was shown the decision (at their next sign-in). */
  told_at: number | null;
}

interface ReplayWatchesTable {
  id: Generated<number>;
  operator_id: number;
  run_id: string;
  watched_at: number;
}

/** A withdrawn approval (migration 022); append-only: it strikes out prize_events' approval row. */
interface PrizeWithdrawalsTable {
  id: Generated<number>;
  week_id: string;
  approval_id: number;
  reason: string;
  operator_id: number | null;
  operator_name: string;
  created_at: number;
}

/** When an operator opened a run's replay in the console (migration 022). */
interface ReplayOpensTable {
  id: Generated<number>;
  operator_id: number;
  run_id: string;
  opened_at: number;
}

interface RunDisqualificationsTable {
  run_id: string;
  /** Public: the player and the board show it. */
  reason: string;
  operator_id: number | null;
  created_at: number;
}

/**
 * Append-only (migration 028): one row per meme posted, vote cast and report filed, as it
 * happened; the overview counts these, which deleting a meme or withdrawing a vote leaves alone.
 */
interface MemeActivityTable {
  id: Generated<number>;
  kind: MemeActivityKind;
  created_at: number;
}

export type MemeActivityKind = 'meme' | 'vote' | 'report';
