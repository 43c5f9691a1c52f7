import { useMutation } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import {
  approveRunEndpoint,
  disqualifyRunEndpoint,
  prizeWeekEndpoint,
  replayOpenedEndpoint,
  replayWatchedEndpoint,
  withdrawApprovalEndpoint,
} from '#shared/api/console/prize-week.ts';
import type { EndpointResponse } from '#shared/api/endpoint.ts';
import {
  consoleCall,
  errorText,
  toastRefusal,
  useConsoleAction,
  useConsoleQuery,
} from '#client/features/console/console-api.ts';
import { reasonGiven } from '#client/features/console/reason-input.tsx';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { cn } from '#client/ui/cn.ts';

const ReplayViewer = lazy(() => import('#client/features/replay/replay-viewer.tsx'));
// The wallet code (Wallet Standard, @solana/kit) loads only here, once a week is approved.
const PrizePayment = lazy(() => import('#client/features/console/prize-payment.tsx'));

type Week = EndpointResponse<typeof prizeWeekEndpoint>;
type Entry = Week['entries'][number];

const STAT_LABELS: Record<string, string> = {
  jumps: 'Jumps',
  jumpIntervalMedianMs: 'Interval median (ms)',
  jumpIntervalCv: 'Interval spread (CV)',
  aimSpreadPx: 'Aim spread (px)',
  edgeMarginMinPx: 'Edge margin min (px)',
  reactionMedianMs: 'Reaction median (ms)',
  topSpeed: 'Top speed',
};

function minutes(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** One of the week's best runs: its figures, replay, statistics, and the admin's actions. */
function RunCard({ entry, week }: { entry: Entry; week: Week }) {
  const [open, setOpen] = useState(false);
  const done = (title: string) => toast({ title, description: entry.playerName });
  const failed = toastRefusal('Not done');
  const params = { runId: entry.runId };
  // A wallet changed since the review: the refusal names it, and the admin confirms it by name.
  const [newWallet, setNewWallet] = useState<string | null>(null);
  // Only a mark on the server's clock: nothing on the page changes, so nothing is read again.
  const opened = useMutation({
    mutationFn: () => consoleCall(replayOpenedEndpoint, { params }),
    onError: failed,
  });
  const watched = useConsoleAction({
    call: () => consoleCall(replayWatchedEndpoint, { params }),
    onDone: () => done('Replay watched to its end'),
  });
  const approve = useConsoleAction({
    call: (confirmWallet?: string) =>
      consoleCall(approveRunEndpoint, { params, body: confirmWallet ? { confirmWallet } : {} }),
    onDone: () => {
      setNewWallet(null);
      done('Approved');
    },
    onRefused: (error) => {
      setNewWallet(/wallet is now (\S+),/.exec(errorText(error))?.[1] ?? null);
      failed(error);
    },
  });
  const disqualify = useConsoleAction({
    call: (reason: string) => consoleCall(disqualifyRunEndpoint, { params, body: { reason } }),
    onDone: (result) =>
      done(result.withdrewApproval ? 'Disqualified; its approval is withdrawn' : 'Disqualified'),
  });
  const canApprove = entry.watched && entry.payable && !week.open && week.approved === null;
  return (
    <li
      className="rounded-xl border border-slate-800 bg-slate-900 p-3"
      data-testid="prize-run"
      data-run={entry.runId}
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-lg font-bold tabular-nums">#{entry.rank}</span>
        <span className="font-semibold">{entry.playerName}</span>
        <span className="tabular-nums text-slate-300">
          {entry.score} points · level {entry.level} · {entry.tasks} tasks · {entry.powerUps}{' '}
          power-ups · {minutes(entry.gameTime)}
        </span>
        <span className={cn('break-all', entry.payable ? 'text-emerald-400' : 'text-amber-400')}>
          {entry.payable ? `payable: ${entry.wallet}` : `not payable: ${entry.why}`}
        </span>
      </div>
      {entry.statistics && (
        <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-sm sm:grid-cols-4">
          {Object.entries(STAT_LABELS).map(([key, label]) => (
            <div key={key} className="flex justify-between gap-2">
              <dt className="text-slate-400">{label}</dt>
              <dd className="tabular-nums">{entry.statistics![key]}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="mt-1 text-sm text-slate-400">
        Machine-like signs: {entry.signs.length === 0 ? 'none' : entry.signs.join('; ')}
      </p>
      <div className="mt-3">
        {open ? (
          <Suspense fallback={<div className="aspect-[7/4] w-full rounded-lg bg-slate-800/60" />}>
            <ReplayViewer
              entryId={entry.entryId}
              onWatched={() => {
                if (!entry.watched && !watched.isPending) watched.mutate();
              }}
            />
          </Suspense>
        ) : (
          <Button
            variant="secondary"
            onClick={() => {
              setOpen(true);
              // "Watched to its end" is timed from here on the server.
              opened.mutate();
            }}
          >
            Watch the replay
          </Button>
        )}
      </div>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <Button
          disabled={!canApprove || approve.isPending}
          onClick={() => approve.mutate(undefined)}
          title={entry.watched ? undefined : 'Watch the replay to its end first'}
        >
          Approve
        </Button>
        <span className="text-sm text-slate-400" data-testid="watch-state">
          {entry.watched
            ? 'Replay watched to its end.'
            : 'Approve after watching the replay to its end (any speed).'}
        </span>
        {newWallet && (
          <Button
            variant="outline"
            disabled={approve.isPending}
            onClick={() => approve.mutate(newWallet)}
          >
            Confirm {newWallet.slice(0, 4)}…{newWallet.slice(-4)} and approve
          </Button>
        )}
      </div>
      {entry.paidTo ? (
        <p className="mt-3 text-sm text-slate-400" data-testid="paid-run">
          The week was paid to this run: it cannot be disqualified.
        </p>
      ) : (
        <ReasonForm
          label="Public reason"
          placeholder="Public reason to disqualify"
          action="Disqualify"
          send={disqualify}
        />
      )}
    </li>
  );
}

/** A reason the log keeps (as long as the server asks) and the button that sends it with `send`. */
function ReasonForm(props: {
  label: string;
  placeholder: string;
  action: string;
  send: { isPending: boolean; mutate: (reason: string) => void };
}) {
  const [reason, setReason] = useState('');
  return (
    <form
      className="mt-3 flex flex-wrap items-center gap-2"
      onSubmit={(event) => {
        event.preventDefault();
        props.send.mutate(reason);
      }}
    >
      <input
        aria-label={props.label}
        placeholder={props.placeholder}
        className="min-w-0 flex-1 rounded-md border border-slate-700 bg-slate-800 px-2 py-1 text-sm"
        value={reason}
        onChange={(event) => setReason(event.target.value)}
      />
      <Button
        type="submit"
        variant="outline"
        disabled={!reasonGiven(reason) || props.send.isPending}
      >
        {props.action}
      </Button>
    </form>
  );
}

/** Withdraws the week's approval with a reason (refused once paid or while a payment may land). */
function WithdrawForm() {
  const withdraw = useConsoleAction({
    call: (reason: string) => consoleCall(withdrawApprovalEndpoint, { body: { reason } }),
    onDone: () =>
      toast({ title: 'Approval withdrawn', description: 'The week is back in review.' }),
  });
  return (
    <ReasonForm
      label="Reason to withdraw"
      placeholder="Reason to withdraw the approval"
      action="Withdraw approval"
      send={withdraw}
    />
  );
}

/** The console's Prize week (/admin/prize-week, admins): the closed week, as prize:review. */
export default function PrizeWeekPage() {
  const week = useConsoleQuery(['prize-week'], prizeWeekEndpoint);
  if (week.isPending) return <p className="text-slate-400">Loading the week…</p>;
  if (week.isError) return <p role="alert">{errorText(week.error)}</p>;
  const data = week.data;
  return (
    <section aria-labelledby="prize-week-title" className="space-y-4">
      <h1 id="prize-week-title" className="text-xl font-bold">
        Prize week {data.week}
      </h1>
      {data.open && (
        <p className="text-amber-400">This week is still open: approve after it ends.</p>
      )}
      {data.approved && (
        <div className="rounded-xl border border-emerald-700 bg-emerald-950/40 p-3">
          <p className="break-all">
            Approved: {data.approved.playerName} (run {data.approved.runId}), wallet{' '}
            {data.approved.wallet}.{data.paid ? ' Paid.' : ''}
          </p>
          <div className="mt-2">
            <Suspense fallback={<p className="text-sm text-slate-400">Loading the payment…</p>}>
              <PrizePayment week={data.week} />
            </Suspense>
          </div>
          {!data.paid && <WithdrawForm />}
        </div>
      )}
      {data.entries.length === 0 ? (
        <p className="text-slate-400">No scores that week.</p>
      ) : (
        <ol className="space-y-3">
          {data.entries.map((entry) => (
            <RunCard key={entry.runId} entry={entry} week={data} />
          ))}
        </ol>
      )}
    </section>
  );
}
