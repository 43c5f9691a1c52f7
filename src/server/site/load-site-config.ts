import fs from 'node:fs';
import { defaultSite, type SiteConfig } from '#shared/site.ts';
import { mergeSiteConfig, SiteConfigError } from '#shared/site-schema.ts';
import { LOCALNET_RPC_URL } from '#shared/solana-cluster.ts';
import { ConfigError, type AppConfig } from '../config.ts';

/**
 * Reads the operator's SITE_CONFIG file (when set) and merges it over the defaults, with the
 * cluster the environment names (SOLANA_CLUSTER). Anything wrong stops start-up with one line
 * naming the file and every bad field.
 */
export function loadSiteConfig(
  file: string | undefined,
  chain: Pick<AppConfig['solana'], 'cluster' | 'rpcUrl'>,
): SiteConfig {
  const site = readSiteFile(file);
  if (chain.cluster === site.solana.cluster) return site;
  return {
    ...site,
    solana: {
      cluster: chain.cluster,
      // Only a local chain's RPC goes into the page (explorer links read it); a hosted RPC's
      // URL often carries its API key.
      localRpcUrl: chain.cluster === 'localnet' ? (chain.rpcUrl ?? LOCALNET_RPC_URL) : null,
    },
  };
}

function readSiteFile(file: string | undefined): SiteConfig {
  if (!file) return defaultSite;
  const fail = (reason: string) => new ConfigError(`Invalid SITE_CONFIG (${file}): ${reason}`);

  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw fail(
      `cannot read the file (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw fail(`not valid JSON (${(error as Error).message.replace(/\s+/g, ' ')})`);
  }
  try {
    return mergeSiteConfig(json);
  } catch (error) {
    if (error instanceof SiteConfigError) throw fail(error.problems.join('; '));
    throw error;
  }
}
