import { useState, type ReactNode } from 'react';
import { logEndpoint, logQuerySchema } from '#shared/api/console/log.ts';
import { formatTokenUnits } from '#shared/format-units.ts';
import { Button } from '#client/ui/button.tsx';
import { Input } from '#client/ui/input.tsx';
import { errorText, useConsoleQuery } from './console-api.ts';
import { when } from './format.ts';

const PAGE_SIZE = 50;

/** What a money line on the log carries (payments and burns): amount, wallets, the transaction. */
export interface MoneyDetails {
  amount?: string;
  wallet?: string;
  payer?: string;
  /** Only an https address: the link opens the transaction on the site's explorer. */
  explorerUrl?: string;
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/** A log entry's money details, or null for a decision that moved none. */
export function moneyDetails(details: Record<string, unknown>): MoneyDetails | null {
  const amount = text(details.amount);
  const money: MoneyDetails = {
    amount:
      amount && /^\d+$/.test(amount) && typeof details.decimals === 'number'
        ? formatTokenUnits(amount, details.decimals)
        : amount,
    wallet: text(details.wallet),
    payer: text(details.payer),
    explorerUrl: text(details.explorerUrl)?.startsWith('https://')
      ? text(details.explorerUrl)
      : undefined,
  };
  return Object.values(money).some((v) => v !== undefined) ? money : null;
}

function MoneyLine({ money }: { money: MoneyDetails }) {
  return (
    <div className="flex flex-wrap gap-x-3 break-all text-slate-300">
      {money.amount && <span>{money.amount}</span>}
      {money.wallet && <span>wallet {money.wallet}</span>}
      {money.payer && <span>paid from {money.payer}</span>}
      {money.explorerUrl && (
        <a className="underline" href={money.explorerUrl} target="_blank" rel="noreferrer">
          View the transaction
        </a>
      )}
    </div>
  );
}

/** A labelled filter; a `wide` one takes a whole row until the filters fit on one line. */
function Filter({ label, wide, children }: { label: string; wide?: true; children: ReactNode }) {
  return (
    <label className={wide ? 'col-span-2 text-sm lg:col-span-1' : 'text-sm'}>
      <span className="mb-1 block text-slate-400">{label}</span>
      {children}
    </label>
  );
}

/**
 * Every operator decision, console and CLI, newest first; filtered by part of an operator's
 * name, kind and a range of UTC days, a page at a time (the server's `next` cursor).
 */
export function LogPage() {
  const [operator, setOperator] = useState('');
  const [kind, setKind] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  // The cursors of the pages walked through: the last is the page shown.
  const [cursors, setCursors] = useState<number[]>([]);
  const filters = {
    operator: operator.trim() || undefined,
    kind: kind || undefined,
    from: from || undefined,
    to: to || undefined,
  };
  const checked = logQuerySchema.safeParse(filters);
  const problem = checked.success
    ? null
    : (checked.error.issues[0]?.message ?? 'Check the filters');
  const query = { ...filters, limit: PAGE_SIZE, before: cursors.at(-1) };
  const log = useConsoleQuery(['log', query], logEndpoint, { query }, problem === null);
  // A new filter starts again at the newest page.
  const filter = (set: (value: string) => void) => (e: { target: { value: string } }) => {
    set(e.target.value);
    setCursors([]);
  };
  return (
    <section>
      <h1 className="mb-3 text-xl font-bold">Operator log</h1>
      <div className="mb-4 grid grid-cols-2 gap-2 lg:grid-cols-4">
        <Filter label="Operator" wide>
          <Input
            value={operator}
            onChange={filter(setOperator)}
            placeholder="part of a name, any case"
          />
        </Filter>
        <Filter label="Kind" wide>
          <select
            value={kind}
            onChange={filter(setKind)}
            className="h-10 w-full rounded-lg border border-slate-700 bg-slate-900 px-2 text-sm"
          >
            <option value="">All kinds</option>
            {log.data?.kinds.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </Filter>
        <Filter label="From (UTC day)">
          <Input type="date" value={from} max={to || undefined} onChange={filter(setFrom)} />
        </Filter>
        <Filter label="To (UTC day)">
          <Input type="date" value={to} min={from || undefined} onChange={filter(setTo)} />
        </Filter>
      </div>
      {problem && (
        <p role="alert" className="mb-3 text-red-300">
          {problem}
        </p>
      )}
      {!problem && log.isError && <p role="alert">{errorText(log.error)}</p>}
      {log.data && log.data.entries.length === 0 && (
        <p className="text-slate-400">No decisions match.</p>
      )}
      <ol className="space-y-2">
        {log.data?.entries.map((e) => (
          <li
            key={e.id}
            className="rounded-lg border border-slate-800 p-3 text-sm"
            data-testid="log-entry"
          >
            <div className="flex flex-wrap gap-x-3 text-slate-400">
              <span>{when(e.createdAt)}</span>
              <span className="font-medium text-slate-200">{e.operatorName}</span>
              <span>{e.operatorAddress}</span>
            </div>
            <div>
              <span className="font-semibold text-grind-300">{e.kind}</span> {e.targetType}{' '}
              <span className="break-all">{e.targetLabel}</span>
            </div>
            {e.reason && <div className="text-slate-300">“{e.reason}”</div>}
            {moneyDetails(e.details) && <MoneyLine money={moneyDetails(e.details)!} />}
          </li>
        ))}
      </ol>
      {(cursors.length > 0 || log.data?.next) && (
        <nav aria-label="Log pages" className="mt-4 flex items-center gap-2">
          <Button
            size="sm"
            variant="secondary"
            disabled={cursors.length === 0}
            onClick={() => setCursors(cursors.slice(0, -1))}
          >
            Newer
          </Button>
          <span className="text-sm text-slate-400">Page {cursors.length + 1}</span>
          <Button
            size="sm"
            variant="secondary"
            disabled={!log.data?.next}
            onClick={() => log.data?.next && setCursors([...cursors, log.data.next])}
          >
            Older
          </Button>
        </nav>
      )}
    </section>
  );
}
