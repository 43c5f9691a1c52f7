import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { LayoutDashboard, LogOut, Settings, ShieldCheck, UserRound } from 'lucide-react';
import { Link } from 'wouter';
import { useState } from 'react';
import { logoutEndpoint } from '#shared/api/auth.ts';
import { CONSOLE_PAGE, memberPaths, pathTo } from '#shared/api/paths.ts';
import { myStandingEndpoint } from '#shared/api/raid.ts';
import { STANDING_LABELS, type Standing } from '#shared/standing.ts';
import { Dialog } from '#client/ui/dialog.tsx';
import { StandingExplainer } from '#client/ui/standing-explainer.tsx';
import { callEndpoint } from '#client/lib/api-call.ts';
import { setSessionUser, type OperatorRole } from '#client/lib/session.ts';
import { toast } from '#client/lib/toast-store.ts';

async function logOut() {
  try {
    await callEndpoint(logoutEndpoint);
  } catch {
    toast({ title: 'Logout failed', description: 'Please try again.', variant: 'destructive' });
    return;
  }
  setSessionUser(null);
  toast({ title: 'Logged out', description: 'You have been successfully logged out.' });
}

/**
 * The signed-in member's avatar and menu. Loaded only for members: the menu's positioning code
 * is a good share of a first load that most visitors, who are not signed in, never need.
 */
export default function AccountMenu({
  username,
  operator,
}: {
  username: string;
  /** A moderator's or an admin's role: the menu links them to the console. */
  operator: OperatorRole | null;
}) {
  // The member's standing (docs/decisions/027), read when the menu opens.
  const [standing, setStanding] = useState<Standing | null>(null);
  const [explained, setExplained] = useState(false);
  const readStanding = (open: boolean) => {
    if (!open) return;
    callEndpoint(myStandingEndpoint).then(
      (answer) => setStanding(answer.standing),
      () => setStanding(null),
    );
  };
  return (
    <>
      <Dialog
        open={explained}
        onOpenChange={setExplained}
        title="Standing"
        description={
          standing
            ? `Yours: ${STANDING_LABELS[standing.level]}${standing.provenWallet ? ', with a proven wallet' : ''}. What you do here raises it.`
            : 'What you do here raises it.'
        }
        wide
      >
        <StandingExplainer current={standing ?? undefined} />
      </Dialog>
      <DropdownMenu.Root onOpenChange={readStanding}>
        <DropdownMenu.Trigger
          aria-label="Account menu"
          className="flex h-9 w-9 items-center justify-center rounded-full bg-grind-500 font-bold text-slate-950 uppercase"
        >
          <span data-testid="avatar-letter">{username.charAt(0)}</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content
            align="end"
            sideOffset={8}
            className="z-50 min-w-44 rounded-xl border border-slate-700 bg-slate-900 p-1 text-sm shadow-xl"
          >
            <DropdownMenu.Label className="px-3 py-2 font-semibold text-slate-200">
              {username}
            </DropdownMenu.Label>
            <DropdownMenu.Separator className="my-1 h-px bg-slate-700" />
            <DropdownMenu.Item
              onSelect={() => setExplained(true)}
              className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-slate-100 outline-none data-[highlighted]:bg-slate-800"
            >
              <ShieldCheck className="h-4 w-4" aria-hidden /> Standing:{' '}
              <span data-testid="my-standing">
                {standing ? STANDING_LABELS[standing.level] : '…'}
              </span>
            </DropdownMenu.Item>
            <DropdownMenu.Item
              asChild
              className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-slate-100 outline-none data-[highlighted]:bg-slate-800"
            >
              <Link href={pathTo(memberPaths.page, { username })}>
                <UserRound className="h-4 w-4" aria-hidden /> My page
              </Link>
            </DropdownMenu.Item>
            {operator && (
              <DropdownMenu.Item
                asChild
                className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-slate-100 outline-none data-[highlighted]:bg-slate-800"
              >
                <a href={CONSOLE_PAGE}>
                  <LayoutDashboard className="h-4 w-4" aria-hidden /> Operator console
                </a>
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Item
              disabled
              className="flex items-center gap-2 rounded-md px-3 py-2 text-slate-500 outline-none data-[disabled]:cursor-not-allowed"
            >
              <Settings className="h-4 w-4" aria-hidden /> Settings
            </DropdownMenu.Item>
            <DropdownMenu.Item
              onSelect={() => void logOut()}
              className="flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-slate-100 outline-none data-[highlighted]:bg-slate-800"
            >
              <LogOut className="h-4 w-4" aria-hidden /> Logout
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
    </>
  );
}
