import { useState } from 'react';
import type { Wallet } from '@wallet-standard/base';
import { errorMessage } from './api-client.ts';
import { toast } from './toast-store.ts';

/**
 * Asks one wallet at a time: `busy` names the wallet being waited for (or another step the caller
 * marks with `setBusy`), and whatever fails while it is asked is told in a toast titled
 * `failedTitle`, the wallet's refusal included.
 */
export function useWalletRequest(failedTitle: string) {
  const [busy, setBusy] = useState<string | null>(null);
  async function ask(wallet: Wallet, request: () => Promise<void>): Promise<void> {
    setBusy(wallet.name);
    try {
      await request();
    } catch (error) {
      toast({
        title: failedTitle,
        description: errorMessage(error) ?? 'The wallet did not sign the message.',
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  }
  return { busy, setBusy, ask };
}
