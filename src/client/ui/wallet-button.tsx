import type { Wallet } from '@wallet-standard/base';
import { Button } from './button.tsx';

/** A wallet to sign with: its icon and "`action` `name`", or that it waits for that wallet. */
export function WalletButton({
  wallet,
  action,
  busy,
  disabled,
  onClick,
}: {
  wallet: Wallet;
  action: string;
  /** The wallet being waited for, if any. */
  busy: string | null;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      variant="secondary"
      className="w-full justify-start gap-3"
      disabled={disabled}
      onClick={onClick}
    >
      <img src={wallet.icon} alt="" className="h-6 w-6 rounded" />
      {busy === wallet.name ? `Waiting for ${wallet.name}…` : `${action} ${wallet.name}`}
    </Button>
  );
}

export function NoWalletFound({ testId }: { testId?: string }) {
  return (
    <p className="text-sm text-slate-300" data-testid={testId}>
      No Solana wallet found in this browser. Install a wallet such as Phantom, Solflare or
      Backpack, then try again.
    </p>
  );
}
