import { useState } from 'react';
import {
  blocklistExportEndpoint,
  blocklistImportEndpoint,
  raidAdminEndpoint,
  raidSwitchEndpoint,
  raidThresholdsEndpoint,
  type RaidAdmin,
} from '#shared/api/raid.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Input } from '#client/ui/input.tsx';
import {
  consoleCall,
  errorText,
  toastRefusal,
  useConsoleAction,
  useConsoleQuery,
  useOperator,
} from './console-api.ts';
import { when } from './format.ts';
import { ReasonInput, reasonGiven } from './reason-input.tsx';

type Thresholds = RaidAdmin['thresholds'];
const FIELDS: { key: keyof Thresholds; label: string }[] = [
  { key: 'signupsPerHour', label: 'Sign-ups an hour' },
  { key: 'newPostsPerHour', label: 'Memes from new accounts an hour' },
  { key: 'reportsPerHour', label: 'Reports an hour' },
  { key: 'quietMinutes', label: 'Quiet minutes before it ends' },
];

function ThresholdsForm({ current }: { current: Thresholds }) {
  const [values, setValues] = useState<Thresholds>(current);
  const [reason, setReason] = useState('');
  const save = useConsoleAction({
    call: () => consoleCall(raidThresholdsEndpoint, { body: { ...values, reason } }),
    onDone: () => {
      toast({ title: 'Thresholds saved' });
      setReason('');
    },
    onRefused: toastRefusal('Not saved'),
  });
  return (
    <form
      className="space-y-2"
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate();
      }}
    >
      <div className="grid gap-2 sm:grid-cols-2">
        {FIELDS.map(({ key, label }) => (
          <label key={key} className="text-sm">
            {label}
            <Input
              type="number"
              min={1}
              value={values[key]}
              onChange={(e) => setValues({ ...values, [key]: Number(e.target.value) })}
            />
          </label>
        ))}
      </div>
      <ReasonInput label="Reason for the thresholds" value={reason} onChange={setReason} />
      <Button size="sm" type="submit" disabled={save.isPending || !reasonGiven(reason)}>
        Save thresholds
      </Button>
    </form>
  );
}

function Blocklist() {
  const [source, setSource] = useState('');
  const [text, setText] = useState('');
  const [reason, setReason] = useState('');
  const exported = useConsoleQuery(['blocklist'], blocklistExportEndpoint);
  const add = useConsoleAction({
    call: () => consoleCall(blocklistImportEndpoint, { body: { source, text, reason } }),
    onDone: (r) => {
      toast({ title: `Added ${r.added} picture(s)`, description: `${r.known} known already` });
      setText('');
    },
    onRefused: toastRefusal('Not imported'),
  });
  const download = exported.data
    ? `data:text/plain;charset=utf-8,${encodeURIComponent(exported.data.text)}`
    : undefined;
  return (
    <section className="space-y-2 rounded-xl border border-slate-800 p-3">
      <h2 className="text-lg font-semibold">Picture blocklist</h2>
      <p className="text-sm text-slate-400">
        Deleted memes&apos; pictures and lists from other communities: an upload of one is refused.
        {exported.data && ` ${exported.data.count} picture(s).`}{' '}
        {download && (
          <a className="underline" href={download} download="phash-blocklist.txt">
            Export
          </a>
        )}
      </p>
      <Input
        aria-label="Source community"
        placeholder="Community the list comes from"
        value={source}
        onChange={(e) => setSource(e.target.value)}
      />
      <textarea
        aria-label="Blocklist to import"
        placeholder="One picture a line: 16 hex digits, then a note"
        className="h-24 w-full rounded-lg border border-slate-700 bg-slate-900 p-2 font-mono text-xs"
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <ReasonInput label="Reason for the import" value={reason} onChange={setReason} />
      <Button
        size="sm"
        disabled={add.isPending || !source || !text.trim() || !reasonGiven(reason)}
        onClick={() => add.mutate()}
      >
        Import
      </Button>
    </section>
  );
}

/** Raid mode (docs/decisions/027-raid-day.md): its state and counts; admins switch it. */
export function RaidPage() {
  const raid = useConsoleQuery(['raid'], raidAdminEndpoint);
  const isAdmin = useOperator().data?.role === 'admin';
  const [reason, setReason] = useState('');
  const flip = useConsoleAction({
    call: (active: boolean) => consoleCall(raidSwitchEndpoint, { body: { active, reason } }),
    onDone: (r) => {
      toast({ title: r.active ? 'Raid mode is on' : 'Raid mode is off' });
      setReason('');
    },
  });
  if (raid.isError) return <p role="alert">{errorText(raid.error)}</p>;
  if (!raid.data) return <p className="text-slate-400">Loading…</p>;
  const { active, since, automatic, thresholds, lastHour } = raid.data;
  return (
    <section className="space-y-4">
      <h1 className="text-xl font-bold">Raid mode</h1>
      <p data-testid="raid-state" className={active ? 'text-amber-300' : 'text-slate-300'}>
        {active
          ? `On since ${when(since!)} (${automatic ? 'by the thresholds' : 'by hand'}): new accounts cannot post, vote or report, sign-ups need a proof of work, visitor votes are paused.`
          : 'Off.'}
      </p>
      <p className="text-sm text-slate-400">
        Last hour: {lastHour.signups}/{thresholds.signupsPerHour} sign-ups, {lastHour.newPosts}/
        {thresholds.newPostsPerHour} memes from new accounts, {lastHour.reports}/
        {thresholds.reportsPerHour} reports. It ends after {thresholds.quietMinutes} quiet minutes.
      </p>
      {isAdmin && (
        <div className="space-y-2 rounded-xl border border-slate-800 p-3">
          <ReasonInput label="Reason for raid mode" value={reason} onChange={setReason} />
          <Button
            size="sm"
            disabled={flip.isPending || !reasonGiven(reason)}
            onClick={() => flip.mutate(!active)}
          >
            {active ? 'Turn raid mode off' : 'Turn raid mode on'}
          </Button>
        </div>
      )}
      {isAdmin && <ThresholdsForm key={JSON.stringify(thresholds)} current={thresholds} />}
      {isAdmin && <Blocklist />}
    </section>
  );
}
