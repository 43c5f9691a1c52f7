import { walletPaths } from '#shared/api/paths.ts';
import { useQuery } from '@tanstack/react-query';
import { walletResponseSchema, type WalletResponse } from '#shared/api/wallet.ts';
import { ApiError } from '#client/lib/api-client.ts';

export const walletQueryKey = [walletPaths.wallet] as const;

async function fetchWallet(): Promise<WalletResponse> {
  const res = await fetch(walletPaths.wallet, { credentials: 'include' });
  if (!res.ok) throw new ApiError(res.status, await res.text(), res.statusText);
  return walletResponseSchema.parse(await res.json());
}

/** The member's proven wallet (null until linked). */
export function useMemberWallet(enabled: boolean) {
  return useQuery({ queryKey: walletQueryKey, queryFn: fetchWallet, enabled, retry: false });
}
