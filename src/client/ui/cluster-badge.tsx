import type { SolanaCluster } from '#shared/solana-cluster.ts';
import { useSite } from '#client/lib/site-config.ts';
import { cn } from './cn.ts';

/**
 * "Devnet: not real money": shown wherever payments appear while the site runs on a cluster
 * other than mainnet (SOLANA_CLUSTER, decision 030), so nobody takes a rehearsal for the real
 * thing. Nothing on mainnet.
 */
const BADGE: Record<SolanaCluster, string | null> = {
  'mainnet-beta': null,
  devnet: 'Devnet: not real money',
  testnet: 'Testnet: not real money',
  localnet: 'Local chain: not real money',
};

export function ClusterBadge({ className }: { className?: string }) {
  const text = BADGE[useSite().solana.cluster];
  if (text === null) return null;
  return (
    <p
      data-testid="cluster-badge"
      className={cn(
        'inline-flex items-center rounded-md border border-sky-400/60 bg-sky-950/60 px-2 py-0.5 text-xs font-semibold uppercase tracking-wide text-sky-200',
        className,
      )}
    >
      {text}
    </p>
  );
}
