import { lazy, Suspense, useState, type ReactNode } from 'react';
import { shortAddress } from '#shared/siws.ts';
import { useSession } from '#client/lib/session.ts';
import { Button } from '#client/ui/button.tsx';
import { useMemberWallet } from './wallet-api.ts';

// The wallet UI and the Wallet Standard code load only when a member asks to link.
const WalletLinkDialog = lazy(() => import('./wallet-link-dialog.tsx'));

export const VISITOR_PRIZE_TEXT = 'The prize goes to members with a linked Solana wallet.';

/** The prize box's line about who can be paid: static for visitors, the member's own status. */
export function PrizeEligibility() {
  const session = useSession();
  if (!session.isAuthenticated) {
    return (
      <p className="mt-2 text-xs text-slate-300" data-testid="prize-eligibility">
        {VISITOR_PRIZE_TEXT}
      </p>
    );
  }
  return <MemberEligibility />;
}

function MemberEligibility() {
  const wallet = useMemberWallet(true);
  const [open, setOpen] = useState(false);
  const address = wallet.data?.wallet?.address;

  let status: ReactNode;
  if (wallet.isPending) status = 'Checking your prize wallet…';
  else if (wallet.isError) status = 'Your prize wallet could not be checked.';
  else if (address) {
    status = (
      <>
        You are eligible: the prize is paid to{' '}
        <span className="font-mono whitespace-nowrap">{shortAddress(address)}</span>.
      </>
    );
  } else status = 'Link a Solana wallet to be eligible for the prize.';

  return (
    <div className="mt-3 space-y-2" data-testid="prize-eligibility">
      <p className="text-xs text-slate-200" title={address}>
        {status}
      </p>
      {!wallet.isPending && !wallet.isError ? (
        <Button size="sm" variant={address ? 'secondary' : 'primary'} onClick={() => setOpen(true)}>
          {address ? 'Change wallet' : 'Link wallet'}
        </Button>
      ) : null}
      {open ? (
        <Suspense fallback={null}>
          <WalletLinkDialog open={open} onOpenChange={setOpen} current={address} />
        </Suspense>
      ) : null}
    </div>
  );
}
