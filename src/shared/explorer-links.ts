/**
 * Links to a blockchain explorer on the site's cluster (SOLANA_CLUSTER, decision 030). Apart from
 * site.ts, so the page's first load does not carry them.
 */
import type { SiteConfig } from './site.ts';
import { LOCALNET_RPC_URL, type SolanaCluster } from './solana-cluster.ts';

/**
 * A path (`/tx/<signature>`, `/address/<key>`) on an explorer, for `cluster`. Mainnet, devnet and
 * testnet use `explorerOrigin` (Solscan by default) with Solana Explorer's `?cluster=` query,
 * which Solscan reads too. A local chain has no public explorer: Solana Explorer reads it
 * through its custom-RPC setting, in the browser of whoever opens the link.
 */
function explorerUrl(
  explorerOrigin: string,
  path: string,
  cluster: SolanaCluster,
  localRpcUrl: string = LOCALNET_RPC_URL,
): string {
  if (cluster === 'localnet') {
    return `https://explorer.solana.com${path}?cluster=custom&customUrl=${encodeURIComponent(localRpcUrl)}`;
  }
  const url = `${explorerOrigin}${path}`;
  return cluster === 'mainnet-beta' ? url : `${url}?cluster=${cluster}`;
}

type ExplorerFacts = Pick<SiteConfig, 'links' | 'solana'>;

/**
 * A transaction on the site's blockchain explorer (the origin of its explorer link), on the
 * cluster it was recorded on (the site's by default).
 */
export function explorerTxUrl(
  site: ExplorerFacts,
  signature: string,
  cluster: SolanaCluster = site.solana.cluster,
): string {
  return explorerUrl(
    new URL(site.links.solscan).origin,
    `/tx/${signature}`,
    cluster,
    site.solana.localRpcUrl ?? undefined,
  );
}

/** The token's page on the explorer: the operator's link on mainnet, the cluster's view otherwise. */
export function explorerTokenUrl(
  site: ExplorerFacts & Pick<SiteConfig, 'contractAddress'>,
): string {
  const { cluster, localRpcUrl } = site.solana;
  if (cluster === 'mainnet-beta' || site.contractAddress === '') return site.links.solscan;
  return explorerUrl(
    new URL(site.links.solscan).origin,
    `/${cluster === 'localnet' ? 'address' : 'token'}/${site.contractAddress}`,
    cluster,
    localRpcUrl ?? undefined,
  );
}
