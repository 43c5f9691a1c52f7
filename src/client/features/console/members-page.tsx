import { useState, type ReactNode } from 'react';
import {
  endSessionsEndpoint,
  liftEndpoint,
  memberEndpoint,
  membersEndpoint,
  suspendEndpoint,
  SUSPENSION_LENGTHS,
  type SuspensionLength,
} from '#shared/api/console/members.ts';
import { memberPaths, pathTo } from '#shared/api/paths.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Input } from '#client/ui/input.tsx';
import { StandingBadge } from '#client/ui/standing-badge.tsx';
import { StandingExplainer } from '#client/ui/standing-explainer.tsx';
import { consoleCall, errorText, useConsoleAction, useConsoleQuery } from './console-api.ts';
import { when } from './format.ts';
import { ReasonInput, reasonGiven } from './reason-input.tsx';

const LENGTH_LABELS: Record<SuspensionLength, string> = {
  day: 'a day',
  week: 'a week',
  month: 'a month',
  forever: 'for good',
};

function Checkbox({
  checked,
  onChange,
  children,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className="flex items-center gap-1 text-sm">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {children}
    </label>
  );
}

function MemberActions({ username, suspended }: { username: string; suspended: boolean }) {
  const [reason, setReason] = useState('');
  const [length, setLength] = useState<SuspensionLength>('day');
  // One decision may also clean up after a spammer, and a lift undo it (docs/decisions/027).
  const [cleanUp, setCleanUp] = useState(true);
  const [restore, setRestore] = useState(true);
  const done = (title: string) => {
    toast({ title, description: username });
    setReason('');
  };
  const params = { username };
  const suspend = useConsoleAction({
    call: () => consoleCall(suspendEndpoint, { params, body: { length, reason, cleanUp } }),
    onDone: (r) =>
      done(
        r.cleanedUp
          ? `Suspended; hid ${r.cleanedUp.memes} meme(s), removed ${r.cleanedUp.votes} vote(s) and ${r.cleanedUp.reports} report(s)`
          : 'Suspended',
      ),
  });
  const lift = useConsoleAction({
    call: () => consoleCall(liftEndpoint, { params, body: { reason, restore } }),
    onDone: (r) =>
      done(
        r.restored
          ? `Suspension lifted; restored ${r.restored.memes} meme(s), ${r.restored.votes} vote(s), ${r.restored.reports} report(s)`
          : 'Suspension lifted',
      ),
  });
  const end = useConsoleAction({
    call: () => consoleCall(endSessionsEndpoint, { params, body: { reason } }),
    onDone: (r) => done(`Ended ${r.ended} session(s)`),
  });
  const busy = suspend.isPending || lift.isPending || end.isPending;
  const noReason = !reasonGiven(reason);
  return (
    <div className="space-y-2 rounded-lg border border-slate-800 p-3">
      <ReasonInput
        label="Reason"
        placeholder="Reason (kept in the log, shown to the member)"
        value={reason}
        onChange={setReason}
      />
      <div className="flex flex-wrap items-center gap-2">
        {suspended ? (
          <>
            <Checkbox checked={restore} onChange={setRestore}>
              Restore what the clean-up took
            </Checkbox>
            <Button size="sm" disabled={busy || noReason} onClick={() => lift.mutate()}>
              Lift suspension
            </Button>
          </>
        ) : (
          <>
            <select
              aria-label="Length"
              value={length}
              onChange={(e) => setLength(e.target.value as SuspensionLength)}
              className="h-8 rounded-lg border border-slate-700 bg-slate-900 px-2 text-sm"
            >
              {SUSPENSION_LENGTHS.map((l) => (
                <option key={l} value={l}>
                  {LENGTH_LABELS[l]}
                </option>
              ))}
            </select>
            <Checkbox checked={cleanUp} onChange={setCleanUp}>
              Also hide their memes and remove their votes and reports
            </Checkbox>
            <Button size="sm" disabled={busy || noReason} onClick={() => suspend.mutate()}>
              Suspend
            </Button>
          </>
        )}
        <Button
          size="sm"
          variant="secondary"
          disabled={busy || noReason}
          onClick={() => end.mutate()}
        >
          End sessions
        </Button>
      </div>
    </div>
  );
}

/** One of a member's histories: a heading and its lines. */
function History({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div>
      <h3 className="mb-1 font-semibold">{title}</h3>
      <ul className="space-y-1">{children}</ul>
    </div>
  );
}

function MemberView({ username }: { username: string }) {
  const detail = useConsoleQuery(['member', username], memberEndpoint, { params: { username } });
  if (detail.isError) return <p role="alert">{errorText(detail.error)}</p>;
  if (!detail.data) return <p className="text-slate-400">Loading…</p>;
  const { member, memes, runs, reportsAgainst, suspensions, decisions } = detail.data;
  const active = suspensions.find((s) => s.active);
  return (
    <div className="space-y-4 text-sm">
      <div>
        <h2 className="text-lg font-bold">
          {member.username}
          <StandingBadge standing={detail.data.standing} />
          <a
            href={pathTo(memberPaths.page, { username: member.username })}
            target="_blank"
            rel="noopener"
            className="ml-2 text-sm font-normal text-grind-300 hover:underline"
          >
            Their page
          </a>
        </h2>
        <p className="text-slate-400">
          #{member.id} · {member.role} · joined {when(member.createdAt)} · {member.coins} coins ·{' '}
          {member.sessions} session(s) · wallet {member.wallet ?? 'none'} · {reportsAgainst}{' '}
          report(s) against their memes
        </p>
        {active && (
          <p className="mt-1 text-red-300">
            Suspended {active.endsAt ? `until ${when(active.endsAt)}` : 'for good'}: {active.reason}
          </p>
        )}
      </div>
      <MemberActions username={member.username} suspended={active !== undefined} />
      <div className="grid gap-4 md:grid-cols-2">
        <History title={`Memes (${memes.length})`}>
          {memes.map((m) => (
            <li key={m.id} className="break-words">
              #{m.id} {m.title} · ▲{m.upvotes} ▼{m.downvotes} {m.hidden ? '· hidden' : ''}
            </li>
          ))}
        </History>
        <History title="Recent runs">
          {runs.map((r) => (
            <li key={r.at}>
              {r.score} points · {r.coins ?? 0} coins · {when(r.at)}
            </li>
          ))}
        </History>
      </div>
      <History title="Past decisions">
        {decisions.map((d) => (
          <li key={d.id}>
            {when(d.createdAt)} · {d.kind} by {d.operatorName}: “{d.reason}”
          </li>
        ))}
      </History>
    </div>
  );
}

/** Find a member by name; see what they did and what was decided; suspend, lift, sign out. */
export function MembersPage() {
  const [q, setQ] = useState('');
  const [selected, setSelected] = useState<string | null>(null);
  const found = useConsoleQuery(['members', q], membersEndpoint, { query: { q: q || '-' } });
  return (
    <section className="space-y-4">
      <h1 className="text-xl font-bold">Members</h1>
      <Input
        aria-label="Find a member"
        placeholder="Name starts with…"
        value={q}
        onChange={(e) => setQ(e.target.value.trim())}
      />
      {q && (
        <ul className="flex flex-wrap gap-2">
          {found.data?.members.map((m) => (
            <li key={m.id}>
              <Button
                size="sm"
                variant={selected === m.username ? 'primary' : 'secondary'}
                onClick={() => setSelected(m.username)}
              >
                {m.username}
                <StandingBadge standing={found.data.standings[m.username]} />
              </Button>
            </li>
          ))}
        </ul>
      )}
      {selected && <MemberView username={selected} />}
      <details className="rounded-lg border border-slate-800 p-3">
        <summary className="cursor-pointer text-sm font-semibold">What standings mean</summary>
        <div className="pt-2">
          <StandingExplainer />
        </div>
      </details>
    </section>
  );
}
