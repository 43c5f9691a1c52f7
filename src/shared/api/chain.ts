import { z } from 'zod';
import { admins } from './console/common.ts';
import { defineEndpoint, endpointGroup } from './endpoint.ts';
import { weekIdSchema } from './game.ts';

/** Routes of payments and burns verified on chain (docs/decisions/023-prize-paid-on-chain.md). */
export const chainPaths = {
  payment: '/api/admin/prize/:week/payment',
  confirmPayment: '/api/admin/prize/:week/payment/confirm',
  recordBurn: '/api/admin/burns',
  burns: '/api/burns',
} as const;

const signatureSchema = z
  .string({ error: 'signature is required' })
  .trim()
  .regex(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/, 'signature must be a transaction signature (base58)');

export const weekParamsSchema = z.object({ week: weekIdSchema });

/**
 * Where a week's payment stands: `approved` (nothing prepared), `pending` (prepared: the
 * transfer must carry `reference` and `memo`), `expired` (it never landed; prepare again),
 * `paid` (verified at finalized).
 */
export const paymentStatusSchema = z.object({
  week: weekIdSchema,
  state: z.enum(['approved', 'pending', 'expired', 'paid']),
  recipient: z.string(),
  playerName: z.string(),
  prize: z.string(),
  /** The prize in lamports, a decimal string (u64). */
  lamports: z.string(),
  reference: z.string().nullable(),
  memo: z.string().nullable(),
  /** What the server last saw: a refusal's reason, why it expired, or what it waits for. */
  detail: z.string().nullable(),
  signature: z.string().nullable(),
  slot: z.string().nullable(),
  blockTime: z.iso.datetime().nullable(),
  explorerUrl: z.url().nullable(),
});
export type PaymentStatus = z.infer<typeof paymentStatusSchema>;

/** The chain cannot be read: none configured, or its RPC does not answer as it should. */
const CHAIN_REFUSALS = ['CHAIN_NOT_CONFIGURED', 'CHAIN_UNAVAILABLE', 'CHAIN_BAD_ANSWER'] as const;

/** A week's payment, by the week in the path, with its refusals beside an admin endpoint's. */
const weekPayment = endpointGroup(admins, {
  params: weekParamsSchema,
  errors: {
    404: ['NOT_FOUND'],
    409: [
      'PRIZE_NOT_APPROVED',
      'PRIZE_ALREADY_PAID',
      'PRIZE_NOT_SOL',
      'NO_PENDING_PAYMENT',
      'PAYMENT_STILL_OPEN',
    ],
    503: CHAIN_REFUSALS,
  },
});

/**
 * A prepared payment and what the console's transfer is built on: a recent blockhash from the
 * server's RPC, so the browser never talks to an RPC of its own.
 */
export const preparedPaymentSchema = paymentStatusSchema.extend({
  lifetime: z.object({ blockhash: z.string(), lastValidBlockHeight: z.string() }),
});
export type PreparedPayment = z.infer<typeof preparedPaymentSchema>;

export const preparePaymentEndpoint = defineEndpoint(weekPayment, {
  method: 'POST',
  path: chainPaths.payment,
  id: 'preparePrizePayment',
  summary:
    "Prepares the week's payment: a fresh reference key and the memo the transfer must carry (the open one while it is pending), and a recent blockhash to build it on",
  response: preparedPaymentSchema,
});

export const paymentStatusEndpoint = defineEndpoint(weekPayment, {
  method: 'GET',
  path: chainPaths.payment,
  id: 'prizePaymentStatus',
  summary: "Where the week's payment stands",
  response: paymentStatusSchema,
});

export const confirmPaymentBodySchema = z.object({
  /**
   * The signature the wallet answered: checked first and directly; the server also searches every
   * transaction naming the payment's reference.
   */
  signature: signatureSchema.optional(),
});

export const confirmPaymentEndpoint = defineEndpoint(weekPayment, {
  method: 'POST',
  path: chainPaths.confirmPayment,
  id: 'confirmPrizePayment',
  summary:
    "Checks the signature the wallet answered, then every transaction naming the week's references, and records the week paid once one is verified at finalized",
  body: confirmPaymentBodySchema,
  response: paymentStatusSchema,
  errors: {
    409: ['TX_ALREADY_RECORDED'],
    422: [
      'TX_FAILED',
      'TX_NO_REFERENCE',
      'TX_NO_MEMO',
      'TX_WRONG_RECIPIENT',
      'TX_SHORT_AMOUNT',
      'TX_WRONG_PAYER',
      'TX_NO_BLOCK_TIME',
    ],
  },
});

export const burnSchema = z.object({
  signature: z.string(),
  slot: z.string(),
  /** Base units (a decimal string) and the mint's decimals. */
  amount: z.string(),
  decimals: z.number().int(),
  mint: z.string(),
  burnedAt: z.iso.datetime(),
  explorerUrl: z.url(),
});
export type Burn = z.infer<typeof burnSchema>;

export const burnsResponseSchema = z.object({
  /** Newest first. */
  burns: z.array(burnSchema),
  /** Base units, decimal strings; null before the first verified burn. */
  totalBurned: z.string().nullable(),
  decimals: z.number().int().nullable(),
});
export type BurnsResponse = z.infer<typeof burnsResponseSchema>;

export const burnsEndpoint = defineEndpoint({
  method: 'GET',
  path: chainPaths.burns,
  id: 'listBurns',
  summary: "The site's token burns, each verified on chain (signature, slot, amount, time)",
  tag: 'giveaway',
  access: 'public',
  response: burnsResponseSchema,
});

export const recordBurnEndpoint = defineEndpoint(admins, {
  method: 'POST',
  path: chainPaths.recordBurn,
  id: 'recordBurn',
  summary: "Records a burn by its signature once verified as a finalized burn of the site's mint",
  body: z.object({ signature: signatureSchema }),
  status: 201,
  response: burnSchema,
  errors: {
    409: ['TX_ALREADY_RECORDED', 'TX_NOT_FINALIZED', 'NO_CONTRACT_ADDRESS'],
    404: ['TX_NOT_FOUND'],
    422: [
      'TX_FAILED',
      'TX_NOT_A_BURN',
      'TX_WRONG_MINT',
      'TX_NO_BLOCK_TIME',
      'TX_BURN_ZERO',
      'TX_BURN_TOO_LARGE',
    ],
    503: CHAIN_REFUSALS,
  },
});
