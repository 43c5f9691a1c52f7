import { gamePaths } from '#shared/api/paths.ts';
import { useQuery } from '@tanstack/react-query';
import { BadgeCheck, ExternalLink, Trophy } from 'lucide-react';
import { winnersEndpoint } from '#shared/api/game.ts';
import { shortAddress } from '#shared/siws.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { withQueryClient } from '#client/lib/query-client.tsx';
import { useLiveEvent } from '#client/lib/use-live-event.ts';
import { ClusterBadge } from '#client/ui/cluster-badge.tsx';
import { useQueryClient } from '@tanstack/react-query';

const NO_WINNERS_TEXT =
  'No winners yet! Be the first to join our weekly giveaway livestream.';

/**
 * Loaded on demand (it reads through its endpoint, with zod, which the first load goes without).
 * A failed load reads like an empty list: the section is an invitation either way.
 */
function WinnerList() {
  const winners = useQuery({
    queryKey: [gamePaths.winners],
    queryFn: () => callEndpoint(winnersEndpoint),
  });
  const queryClient = useQueryClient();
  // A prize recorded as paid (on the Sunday livestream): the list is read again in place.
  useLiveEvent(
    'winners',
    () => void queryClient.invalidateQueries({ queryKey: [gamePaths.winners] }),
  );

  if (winners.isPending) {
    return (
      <div
        className="h-24 animate-pulse rounded-xl bg-slate-800/60 motion-reduce:animate-none"
        aria-busy="true"
      />
    );
  }
  const list = winners.data ?? [];
  if (list.length === 0) {
    return (
      <p
        className="rounded-xl border border-dashed border-slate-700 p-6 text-center text-slate-400"
        data-testid="no-winners"
      >
        {NO_WINNERS_TEXT}
      </p>
    );
  }
  return (
    <ul className="divide-y divide-slate-800" data-testid="winners">
      {list.map((winner) => (
        <li key={winner.id} className="flex items-center justify-between gap-3 py-3">
          <span className="flex min-w-0 items-center gap-3">
            <Trophy className="h-5 w-5 shrink-0 text-grind-400" aria-hidden />
            <span className="min-w-0">
              <span className="block truncate font-semibold text-white">{winner.playerName}</span>
              <span className="block text-xs text-slate-400">
                {winner.prize} · week {winner.week}
                {winner.wallet ? (
                  <>
                    {' · to '}
                    <span className="font-mono" title={winner.wallet}>
                      {shortAddress(winner.wallet)}
                    </span>
                  </>
                ) : null}
              </span>
              <span
                className="mt-0.5 flex items-center gap-1 text-xs font-semibold text-emerald-300"
                title={`Verified on chain at finalized, slot ${winner.slot}`}
                data-testid="winner-verified"
              >
                <BadgeCheck className="h-3.5 w-3.5 shrink-0" aria-hidden />
                <span>Verified on chain</span>{' '}
                <span className="font-normal text-slate-500">· slot {winner.slot}</span>
              </span>
            </span>
          </span>
          <a
            href={winner.txUrl}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex shrink-0 items-center gap-1 rounded text-sm font-semibold text-grind-300 hover:text-grind-100"
          >
            Transaction <ExternalLink className="h-3.5 w-3.5" aria-hidden />
            <span className="sr-only">
              {' '}
              paying {winner.playerName}, on the explorer (opens in a new tab)
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The list, under a badge when the site's payments are not real money (a rehearsal). */
function RecentWinners() {
  return (
    <>
      <ClusterBadge className="mb-2" />
      <WinnerList />
    </>
  );
}

export default withQueryClient(RecentWinners);
