import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { Wallet } from '@wallet-standard/base';
import {
  linkWalletEndpoint,
  walletChallengeEndpoint,
  type LinkWalletBody,
} from '#shared/api/wallet.ts';
import { shortAddress } from '#shared/siws.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { useStandardWallets } from '#client/lib/standard-wallets.ts';
import { useWalletRequest } from '#client/lib/wallet-request.ts';
import { canSignMessages, signChallenge } from '#client/lib/wallet-signing.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Dialog } from '#client/ui/dialog.tsx';
import { Input } from '#client/ui/input.tsx';
import { NoWalletFound, WalletButton } from '#client/ui/wallet-button.tsx';
import { walletQueryKey } from './wallet-api.ts';

/** Links (or changes) the member's prize wallet with any Wallet Standard wallet. */
export default function WalletLinkDialog({
  open,
  onOpenChange,
  current,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  current: string | undefined;
}) {
  const wallets = useStandardWallets(canSignMessages);
  const queryClient = useQueryClient();
  const { busy, ask } = useWalletRequest('Wallet not linked');
  // Asked again here: a session alone must not be able to move the prize to another wallet.
  const [password, setPassword] = useState('');

  async function link(wallet: Wallet) {
    const challenge = await callEndpoint(walletChallengeEndpoint);
    const body: LinkWalletBody = { ...(await signChallenge(wallet, challenge)), password };
    const linked = await callEndpoint(linkWalletEndpoint, { body });
    setPassword('');
    queryClient.setQueryData(walletQueryKey, linked);
    toast({
      title: 'Wallet linked',
      description: `The weekly prize will be paid to ${shortAddress(linked.wallet!.address)}.`,
    });
    onOpenChange(false);
  }

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={current ? 'Change your prize wallet' : 'Link your prize wallet'}
      description="Your wallet signs a message from this site to prove the address is yours. It is not a transaction and costs nothing."
    >
      {current ? (
        <p className="mb-3 text-sm text-slate-300">
          Linked now: <span className="font-mono break-all text-slate-100">{current}</span>
        </p>
      ) : null}
      <label className="mb-3 block text-sm text-slate-300">
        Your password
        <Input
          type="password"
          autoComplete="current-password"
          className="mt-1"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          data-testid="wallet-password"
        />
      </label>
      {wallets.length === 0 ? (
        <NoWalletFound testId="no-wallets" />
      ) : (
        <ul className="space-y-2">
          {wallets.map((wallet) => (
            <li key={wallet.name}>
              <WalletButton
                wallet={wallet}
                action="Sign with"
                busy={busy}
                disabled={busy !== null || password === ''}
                onClick={() => void ask(wallet, () => link(wallet))}
              />
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
