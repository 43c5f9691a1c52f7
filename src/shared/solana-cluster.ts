/**
 * The Solana cluster a site pays prizes and records burns on (SOLANA_CLUSTER, decision 030):
 * which chain the console asks a wallet for, where explorer links point, and whether a page says
 * its money is not real. Data and plain functions only: the page's first load imports it.
 */

export const SOLANA_CLUSTERS = ['mainnet-beta', 'devnet', 'testnet', 'localnet'] as const;
export type SolanaCluster = (typeof SOLANA_CLUSTERS)[number];

/** Where `npm run chain:local` (and solana-test-validator) listens. */
export const LOCALNET_RPC_URL = 'http://127.0.0.1:8899';

/** The chain as the Wallet Standard names it (`solana:mainnet`, `solana:devnet`, ...). */
export function walletChain(cluster: SolanaCluster): `solana:${string}` {
  return cluster === 'mainnet-beta' ? 'solana:mainnet' : `solana:${cluster}`;
}

/** The cluster in a sentence ("devnet", "the local chain"). */
export function clusterName(cluster: SolanaCluster): string {
  return cluster === 'localnet' ? 'the local chain' : cluster;
}
