import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import type { ErrorCode } from './error-codes.ts';
import { supplyPaths } from './paths.ts';

/**
 * A supply figure as listing sites (CoinGecko, CoinMarketCap) read it: a plain-text number of
 * whole tokens, no JSON, no separators (docs/decisions/029-holders-at-home.md).
 */
export const supplyFigureSchema = z.string().regex(/^\d+$/);

const SUPPLY_UNAVAILABLE = [
  'UNAVAILABLE',
  'CHAIN_NOT_CONFIGURED',
  'CHAIN_UNAVAILABLE',
  'CHAIN_BAD_ANSWER',
  'NO_CONTRACT_ADDRESS',
] as const satisfies readonly ErrorCode[];

export const totalSupplyEndpoint = defineEndpoint({
  method: 'GET',
  path: supplyPaths.total,
  id: 'getTotalSupply',
  summary:
    "The token's total supply at finalized, in whole tokens, as plain text (cached a minute; 503 rather than a figure older than an hour)",
  tag: 'supply',
  access: 'public',
  produces: 'text/plain',
  response: supplyFigureSchema,
  errors: { 503: SUPPLY_UNAVAILABLE },
});

export const circulatingSupplyEndpoint = defineEndpoint({
  method: 'GET',
  path: supplyPaths.circulating,
  id: 'getCirculatingSupply',
  summary:
    'The total supply less the balances of the wallets SITE_CONFIG lists as not circulating, in whole tokens, as plain text (cached a minute; 503 rather than a figure older than an hour)',
  tag: 'supply',
  access: 'public',
  produces: 'text/plain',
  response: supplyFigureSchema,
  errors: { 503: SUPPLY_UNAVAILABLE },
});
