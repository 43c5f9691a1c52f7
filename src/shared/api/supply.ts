import { z } from 'zod';
import { defineEndpoint, endpointGroup } from './endpoint.ts';
import type { ErrorCode } from './error-codes.ts';
import { supplyPaths } from './paths.ts';

/**
 * A supply figure as listing sites (CoinGecko, CoinMarketCap) read it: a plain-text number of
 * whole tokens, no JSON, no separators (docs/decisions/029-holders-at-home.md).
 */
export const supplyFigureSchema = z.string().regex(/^\d+$/);

/** The chain did not answer (or not in a shape the site reads): try again later. */
const SUPPLY_UNAVAILABLE = [
  'UNAVAILABLE',
  'CHAIN_UNAVAILABLE',
  'CHAIN_BAD_ANSWER',
] as const satisfies readonly ErrorCode[];

/** This site has no supply to report: no token yet, or no chain to read it from. */
const NO_SUPPLY = [
  'NO_CONTRACT_ADDRESS',
  'CHAIN_NOT_CONFIGURED',
] as const satisfies readonly ErrorCode[];

/** A supply figure: public, as plain text, refused as the chain or the site's token allows. */
const supplyFigure = endpointGroup({
  tag: 'supply',
  access: 'public',
  produces: 'text/plain',
  response: supplyFigureSchema,
  errors: { 404: NO_SUPPLY, 503: SUPPLY_UNAVAILABLE },
});

export const totalSupplyEndpoint = defineEndpoint(supplyFigure, {
  method: 'GET',
  path: supplyPaths.total,
  id: 'getTotalSupply',
  summary:
    "The token's total supply at finalized, in whole tokens, as plain text (cached a minute; 503 rather than a figure older than an hour)",
});

export const circulatingSupplyEndpoint = defineEndpoint(supplyFigure, {
  method: 'GET',
  path: supplyPaths.circulating,
  id: 'getCirculatingSupply',
  summary:
    'The total supply less the balances of the wallets SITE_CONFIG lists as not circulating, in whole tokens, as plain text (cached a minute; 503 rather than a figure older than an hour)',
});
