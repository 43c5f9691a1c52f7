import { walletPaths } from '#shared/api/paths.ts';
import { useQuery } from '@tanstack/react-query';
import { walletEndpoint, type WalletResponse } from '#shared/api/wallet.ts';
import { callEndpoint } from '#client/lib/api-call.ts';

export const walletQueryKey = [walletPaths.wallet] as const;

function fetchWallet(): Promise<WalletResponse> {
  return callEndpoint(walletEndpoint);
}

/** The member's proven wallet (null until linked). */
export function useMemberWallet(enabled: boolean) {
  return useQuery({ queryKey: walletQueryKey, queryFn: fetchWallet, enabled, retry: false });
}
