import { walletPaths } from '#shared/api/paths.ts';
import { useQuery } from '@tanstack/react-query';
import { walletResponseSchema, type WalletResponse } from '#shared/api/wallet.ts';
import { apiGet } from '#client/lib/api-client.ts';

export const walletQueryKey = [walletPaths.wallet] as const;

function fetchWallet(): Promise<WalletResponse> {
  return apiGet(walletPaths.wallet, walletResponseSchema);
}

/** The member's proven wallet (null until linked). */
export function useMemberWallet(enabled: boolean) {
  return useQuery({ queryKey: walletQueryKey, queryFn: fetchWallet, enabled, retry: false });
}
