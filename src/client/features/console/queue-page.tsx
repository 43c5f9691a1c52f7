import { useState } from 'react';
import {
  appealDecisionEndpoint,
  type AppealEntry,
  MEME_DECISIONS,
  memeDecisionEndpoint,
  type QueueEntry,
  reportsEndpoint,
} from '#shared/api/console/queue.ts';
import { REPORT_REASON_LABELS, type ReportReason } from '#shared/api/memes.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button, type ButtonVariant } from '#client/ui/button.tsx';
import { cn } from '#client/ui/cn.ts';
import { StandingBadge } from '#client/ui/standing-badge.tsx';
import type { Standing } from '#shared/standing.ts';
import { consoleCall, errorText, useConsoleAction, useConsoleQuery } from './console-api.ts';
import { when } from './format.ts';
import { ReasonInput, reasonGiven } from './reason-input.tsx';

type Decision = (typeof MEME_DECISIONS)[number];
const LABELS: Record<Decision, string> = {
  hide: 'Hide',
  unhide: 'Unhide',
  delete: 'Delete',
  dismiss: 'Dismiss reports',
};

/**
 * A reason and a button for each decision: the decision goes with the reason, and a toast says it
 * was done to `subject`.
 */
function DecisionButtons<D extends string>({
  decisions,
  labels,
  variantOf,
  reasonLabel,
  placeholder,
  subject,
  send,
}: {
  decisions: readonly D[];
  labels: Record<D, string>;
  variantOf: (decision: D) => ButtonVariant;
  reasonLabel: string;
  placeholder?: string;
  subject: string;
  send: (decision: D, reason: string) => Promise<unknown>;
}) {
  const [reason, setReason] = useState('');
  const decide = useConsoleAction({
    call: (decision: D) => send(decision, reason),
    onDone: (_result, decision) =>
      toast({ title: `${labels[decision]}: done`, description: subject }),
  });
  return (
    <>
      <ReasonInput
        label={reasonLabel}
        placeholder={placeholder}
        value={reason}
        onChange={setReason}
      />
      <div className="flex flex-wrap gap-2">
        {decisions.map((decision) => (
          <Button
            key={decision}
            size="sm"
            variant={variantOf(decision)}
            disabled={decide.isPending || !reasonGiven(reason)}
            onClick={() => decide.mutate(decision)}
          >
            {labels[decision]}
          </Button>
        ))}
      </div>
    </>
  );
}

function QueueCard({
  entry,
  resolved,
  standing,
}: {
  entry: QueueEntry;
  resolved: boolean;
  standing: Standing | undefined;
}) {
  const { meme } = entry;
  const reasons = Object.entries(entry.reasons)
    .sort((a, b) => b[1] - a[1])
    .map(([r, n]) => `${REPORT_REASON_LABELS[r as ReportReason] ?? r} ×${n}`)
    .join(', ');
  return (
    <li
      className="flex flex-col gap-3 rounded-xl border border-slate-800 bg-slate-900 p-3 sm:flex-row"
      data-testid="queue-entry"
    >
      {meme.thumbnailUrl ? (
        <a href={meme.imageUrl ?? undefined} target="_blank" rel="noreferrer" className="shrink-0">
          {/* A picture the classifier held is blurred; the full image is a click away. */}
          <img
            src={meme.thumbnailUrl}
            alt={meme.title}
            data-held={meme.held ? 'true' : undefined}
            className={cn('h-32 w-full rounded-lg object-cover sm:w-40', meme.held && 'blur-xl')}
          />
        </a>
      ) : (
        <div className="flex h-32 w-full shrink-0 items-center justify-center rounded-lg bg-slate-800 text-xs text-slate-400 sm:w-40">
          deleted
        </div>
      )}
      <div className="min-w-0 flex-1 space-y-1 text-sm">
        <h2 className="break-words text-base font-semibold text-slate-100">{meme.title}</h2>
        <p className="text-slate-400">
          #{meme.id} by {meme.uploader ?? '(deleted account)'}
          <StandingBadge standing={standing} /> ·{' '}
          {meme.deleted ? 'deleted' : meme.hidden ? 'hidden' : 'shown'}
        </p>
        {meme.held && (
          <p className="font-semibold text-amber-300" data-testid="held-note">
            {meme.heldBy === 'raid'
              ? 'Held when raid mode began (a new account posted it in the hour before)'
              : meme.heldBy === 'classifier'
                ? `Held by the image classifier${meme.screenScore != null ? ` (score ${meme.screenScore.toFixed(2)})` : ''}`
                : 'Held for review'}
            : shown to its owner only until you decide. Dismiss or unhide shows it.
          </p>
        )}
        {/* A held picture is in the queue before anyone reports it. */}
        {entry.reports > 0 ? (
          <>
            <p>
              <span className="font-semibold text-grind-300">{entry.reports} report(s)</span>:{' '}
              {reasons}
            </p>
            <p className="text-slate-400">Last report {when(entry.lastReportAt)}</p>
          </>
        ) : (
          <p className="text-slate-400">No reports</p>
        )}
        {entry.decision && (
          <p className="text-slate-300">
            {entry.decision.kind} by {entry.decision.operator ?? '?'}{' '}
            {when(entry.decision.decidedAt)}
            {entry.decision.reason ? `: “${entry.decision.reason}”` : ''}
          </p>
        )}
        {!meme.deleted && (
          <div className="space-y-2 pt-1">
            <DecisionButtons
              decisions={MEME_DECISIONS.filter((d) =>
                meme.hidden ? d !== 'hide' : d !== 'unhide' && !(resolved && d === 'dismiss'),
              )}
              labels={LABELS}
              variantOf={(decision) => (decision === 'delete' ? 'outline' : 'secondary')}
              reasonLabel={`Reason for meme ${meme.id}`}
              subject={meme.title}
              send={(decision, reason) =>
                consoleCall(memeDecisionEndpoint, {
                  params: { id: meme.id },
                  body: { decision, reason },
                })
              }
            />
          </div>
        )}
      </div>
    </li>
  );
}

const VERDICT_LABELS = { uphold: 'Uphold', lift: 'Lift suspension' } as const;

/** A suspended member's appeal: their text, the suspension, and uphold or lift with a reason. */
function AppealCard({ appeal, standing }: { appeal: AppealEntry; standing: Standing | undefined }) {
  const { suspension } = appeal;
  const ends = suspension.endsAt === null ? 'for good' : `until ${when(suspension.endsAt)}`;
  return (
    <li
      className="space-y-2 rounded-xl border border-amber-900/60 bg-slate-900 p-3 text-sm"
      data-testid="appeal-entry"
    >
      <h3 className="text-base font-semibold text-slate-100">
        Appeal from <span className="break-all">{appeal.member}</span>
        <StandingBadge standing={standing} />
      </h3>
      <p className="text-slate-400">
        {suspension.liftedAt !== null
          ? `Suspension lifted ${when(suspension.liftedAt)}`
          : `Suspended ${ends}`}
        : “{suspension.reason}” · appealed {when(appeal.createdAt)}
      </p>
      <blockquote className="border-l-2 border-slate-600 pl-3 break-words whitespace-pre-line text-slate-200">
        {appeal.text}
      </blockquote>
      <DecisionButtons
        decisions={['uphold', 'lift'] as const}
        labels={VERDICT_LABELS}
        variantOf={(verdict) => (verdict === 'lift' ? 'secondary' : 'outline')}
        reasonLabel={`Reason for the appeal of ${appeal.member}`}
        placeholder="Reason (logged, told to the member)"
        subject={appeal.member}
        send={(decision, reason) =>
          consoleCall(appealDecisionEndpoint, {
            params: { id: appeal.id },
            body: { decision, reason },
          })
        }
      />
    </li>
  );
}

const selectClass = 'h-9 rounded-lg border border-slate-700 bg-slate-900 px-2 text-sm';

/** Reported memes: open (to decide) or resolved (what was decided, by whom, why). */
export function QueuePage() {
  const [status, setStatus] = useState<'open' | 'resolved'>('open');
  const [sort, setSort] = useState<'most' | 'newest'>('most');
  const query = { status, sort };
  const queue = useConsoleQuery(['reports', query], reportsEndpoint, { query });
  return (
    <section>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-xl font-bold">
          Report queue
          {queue.data && (
            <span className="ml-2 text-sm font-normal text-slate-400">
              {queue.data.openReports} open report(s)
            </span>
          )}
        </h1>
        <div className="flex gap-2">
          <select
            aria-label="Status"
            className={selectClass}
            value={status}
            onChange={(e) => setStatus(e.target.value as 'open' | 'resolved')}
          >
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
          </select>
          <select
            aria-label="Sort"
            className={selectClass}
            value={sort}
            onChange={(e) => setSort(e.target.value as 'most' | 'newest')}
            disabled={status === 'resolved'}
          >
            <option value="most">Most reported</option>
            <option value="newest">Newest</option>
          </select>
        </div>
      </div>
      {queue.isError && <p role="alert">{errorText(queue.error)}</p>}
      {status === 'open' && queue.data && queue.data.appeals.length > 0 && (
        <section aria-labelledby="appeals-heading" className="mb-5">
          <h2 id="appeals-heading" className="mb-2 text-lg font-semibold">
            Appeals{' '}
            <span className="text-sm font-normal text-slate-400">
              {queue.data.appeals.length} waiting
            </span>
          </h2>
          <ul className="space-y-3">
            {queue.data.appeals.map((appeal) => (
              <AppealCard
                key={appeal.id}
                appeal={appeal}
                standing={queue.data.standings[appeal.member]}
              />
            ))}
          </ul>
        </section>
      )}
      {queue.data && queue.data.entries.length === 0 && (
        <p className="text-slate-400">
          {status === 'open' ? 'No reported memes waiting.' : 'No decisions yet.'}
        </p>
      )}
      <ul className="space-y-3">
        {queue.data?.entries.map((entry) => (
          <QueueCard
            key={`${entry.meme.id}-${entry.decision?.decidedAt ?? 'open'}`}
            entry={entry}
            resolved={status === 'resolved'}
            standing={entry.meme.uploader ? queue.data?.standings[entry.meme.uploader] : undefined}
          />
        ))}
      </ul>
    </section>
  );
}
