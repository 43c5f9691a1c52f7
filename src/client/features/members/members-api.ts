import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  accountSettingsEndpoint,
  addPasswordEndpoint,
  holderCheckEndpoint,
  memberPageEndpoint,
  type Account,
} from '#shared/api/members.ts';
import { memberPaths } from '#shared/api/paths.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { accountQuery, accountQueryKey } from '#client/lib/query-keys.ts';

export function useMemberPage(username: string) {
  return useQuery({
    queryKey: [memberPaths.member, username],
    queryFn: () => callEndpoint(memberPageEndpoint, { params: { username } }),
    retry: false,
  });
}

/** The signed-in member's own account, when the page is theirs. */
export function useAccount(enabled: boolean) {
  return useQuery({ ...accountQuery, enabled, retry: false });
}

/** A change to the account: its answer is the account, and the member's page is read again. */
function useAccountChange<V>(change: (input: V) => Promise<Account>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: (account) => {
      queryClient.setQueryData(accountQueryKey, account);
      return queryClient.invalidateQueries({ queryKey: [memberPaths.member] });
    },
  });
}

export const useShowWallet = () =>
  useAccountChange((showWallet: boolean) =>
    callEndpoint(accountSettingsEndpoint, { body: { showWallet } }),
  );

export const useAddPassword = () =>
  useAccountChange((password: string) => callEndpoint(addPasswordEndpoint, { body: { password } }));

export const useHolderCheck = () =>
  useAccountChange((_: void) => callEndpoint(holderCheckEndpoint));
