import { Crown, Eye, Medal, Trophy } from 'lucide-react';
import { useEffect, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import {
  LEADERBOARD_DEFAULT_LIMIT,
  LEADERBOARD_MAX_LIMIT,
  type LeaderboardEntry,
} from '#shared/api/game.ts';
import { memberPaths, pathTo } from '#shared/api/paths.ts';
import { tiedScores } from '#shared/leaderboard-ties.ts';
import { countdownParts, nextWeekStartUtc, pad2, relativeDayLabel } from '#shared/time.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { cn } from '#client/ui/cn.ts';
import { Dialog } from '#client/ui/dialog.tsx';
import { HolderBadge } from '#client/ui/holder-badge.tsx';
import { useLeaderboard } from './leaderboard-api.ts';
import { useServerNow } from '#client/lib/server-clock.ts';
import { useSite } from '#client/lib/site-config.ts';
import { openReplay } from '#client/lib/replay-address.ts';
import { withQueryClient } from '#client/lib/query-client.tsx';
import { leaderboardQueryRoot } from '#client/lib/query-keys.ts';
import { useLiveEvent } from '#client/lib/use-live-event.ts';
import { useQueryClient } from '@tanstack/react-query';

/** This week's top five, the weekly prize and its countdown, and the full list on demand. */
export interface LeaderboardPanelProps {
  /** Under the weekly prize: who can be paid it (the page composes the wallet feature's box). */
  prizeBox?: ReactNode;
}

function LeaderboardPanel({ prizeBox }: LeaderboardPanelProps) {
  const top = useLeaderboard(LEADERBOARD_DEFAULT_LIMIT);
  const [fullOpen, setFullOpen] = useState(false);
  const now = useServerNow();
  const queryClient = useQueryClient();
  // A score anywhere on the site: the board is read again in place (the rows keep their height).
  // Spread over half a second, so a thousand open pages do not ask in the same millisecond.
  useLiveEvent('leaderboard', () => {
    setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: leaderboardQueryRoot }),
      Math.random() * 500,
    );
  });

  useEffect(() => {
    if (top.isError) {
      toast({
        title: 'Failed to load leaderboard',
        description: 'Please try refreshing the page',
        variant: 'destructive',
      });
    }
  }, [top.isError]);

  return (
    <div
      className="rounded-xl border border-slate-800 bg-slate-900 p-5"
      aria-labelledby="leaderboard-title"
      role="region"
    >
      <div className="flex items-center justify-between">
        <h3 id="leaderboard-title" className="flex items-center gap-2 font-bold text-slate-100">
          <Trophy className="h-5 w-5 text-grind-400" aria-hidden /> Weekly Leaderboard
        </h3>
        <span className="text-xs text-slate-400">Top {LEADERBOARD_DEFAULT_LIMIT}</span>
      </div>

      <div className="mt-4">
        {top.isPending ? (
          <LeaderboardSkeleton rows={LEADERBOARD_DEFAULT_LIMIT} />
        ) : top.isError ? (
          <p className="py-6 text-center text-sm text-slate-400">
            The leaderboard could not be loaded.
          </p>
        ) : (
          <EntryList entries={top.data} now={now} testId="leaderboard-top" />
        )}
      </div>

      <WeeklyPrize now={now} prizeBox={prizeBox} />

      <Button variant="outline" className="mt-4 w-full" onClick={() => setFullOpen(true)}>
        View Full Leaderboard
      </Button>
      <FullLeaderboardDialog open={fullOpen} onOpenChange={setFullOpen} now={now} />
    </div>
  );
}

function EntryList({
  entries,
  now,
  testId,
}: {
  entries: LeaderboardEntry[];
  now: number;
  testId: string;
}) {
  if (entries.length === 0) {
    return (
      <p className="py-6 text-center text-sm text-slate-400" data-testid={testId}>
        No scores yet this week. Be the first!
      </p>
    );
  }
  const tied = tiedScores(entries);
  return (
    <ol className="space-y-2" data-testid={testId}>
      {entries.map((entry, index) => (
        <li
          key={entry.id}
          className={cn(
            'flex items-center gap-3 rounded-lg px-3 py-2',
            index === 0 ? 'bg-grind-500/15 ring-1 ring-grind-500/40' : 'bg-slate-800/60',
          )}
        >
          <RankBadge rank={index + 1} />
          <div className="min-w-0 flex-1">
            <p className="flex min-w-0 items-center gap-1.5 font-semibold text-slate-100">
              {entry.member ? (
                <Link
                  href={pathTo(memberPaths.page, { username: entry.playerName })}
                  className="truncate hover:underline"
                >
                  {entry.playerName}
                </Link>
              ) : (
                <span className="truncate">{entry.playerName}</span>
              )}
              <HolderBadge tier={entry.holder} />
            </p>
            <p className="text-xs text-slate-400">
              Level {entry.level} · {relativeDayLabel(Date.parse(entry.createdAt), now)}
            </p>
          </div>
          {tied.has(entry.score) && (
            <span
              className="rounded bg-slate-700 px-1.5 py-0.5 text-[10px] font-semibold tracking-wide text-slate-100 uppercase"
              title="Same score: the earlier run ranks first"
            >
              Tied
            </span>
          )}
          <span className="font-bold text-grind-300 tabular-nums">{entry.score}</span>
          <Button
            variant="ghost"
            size="sm"
            className="px-2"
            aria-label={`Watch ${entry.playerName}'s run`}
            // The replay's address opens the viewer (home page), so it can be copied.
            onClick={() => openReplay(entry.id)}
          >
            <Eye className="h-4 w-4" aria-hidden /> Watch
          </Button>
        </li>
      ))}
    </ol>
  );
}

function RankBadge({ rank }: { rank: number }) {
  const label = `Rank ${rank}`;
  if (rank === 1) return <Crown className="h-5 w-5 shrink-0 text-grind-400" aria-label={label} />;
  if (rank <= 3) {
    return (
      <Medal
        className={cn('h-5 w-5 shrink-0', rank === 2 ? 'text-slate-300' : 'text-amber-700')}
        aria-label={label}
      />
    );
  }
  return (
    <span className="w-5 shrink-0 text-center text-sm font-bold text-slate-400" aria-label={label}>
      {rank}
    </span>
  );
}

function LeaderboardSkeleton({ rows }: { rows: number }) {
  return (
    <div className="space-y-2" aria-busy="true" aria-label="Loading leaderboard">
      {Array.from({ length: rows }, (_, i) => (
        <div key={i} className="h-12 animate-pulse rounded-lg bg-slate-800/60" />
      ))}
    </div>
  );
}

function WeeklyPrize({ now, prizeBox }: { now: number; prizeBox: ReactNode }) {
  const left = countdownParts(nextWeekStartUtc(now), now);
  const { prize } = useSite().weeklyChallenge;
  return (
    <div className="mt-5 rounded-xl border border-grind-500/40 bg-gradient-to-br from-grind-500/20 to-grind-700/10 p-4 text-center">
      <p className="text-xs font-semibold tracking-wide text-grind-100 uppercase">
        Weekly Challenge Prize
      </p>
      <p className="mt-1 text-3xl font-black text-grind-300">{prize}</p>
      <p className="text-xs text-slate-300">to the top player of the week</p>
      {prizeBox}
      <p className="mt-2 text-sm text-slate-200" data-testid="weekly-countdown">
        Resets in{' '}
        <span className="font-mono font-semibold text-grind-100">
          {left.days}d {pad2(left.hours)}:{pad2(left.minutes)}:{pad2(left.seconds)}
        </span>
      </p>
    </div>
  );
}

function FullLeaderboardDialog({
  open,
  onOpenChange,
  now,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  now: number;
}) {
  const full = useLeaderboard(LEADERBOARD_MAX_LIMIT, open);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Full Leaderboard"
      description={`This week's best score per player, top ${LEADERBOARD_MAX_LIMIT}.`}
    >
      <div className="max-h-[60vh] overflow-y-auto pr-1">
        {full.isPending ? (
          <LeaderboardSkeleton rows={5} />
        ) : full.isError ? (
          <p className="py-6 text-center text-sm text-slate-400">
            The leaderboard could not be loaded. Please try refreshing the page.
          </p>
        ) : (
          <EntryList entries={full.data} now={now} testId="leaderboard-full" />
        )}
      </div>
    </Dialog>
  );
}

export default withQueryClient(LeaderboardPanel);
