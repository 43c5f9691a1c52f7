import { useState } from 'react';
import { logEndpoint } from '#shared/api/admin.ts';
import { Input } from '#client/ui/input.tsx';
import { errorText, useConsoleQuery } from './console-api.ts';
import { when } from './format.ts';

/** Every operator decision, console and CLI, newest first; filtered by operator, kind and date. */
export function LogPage() {
  const [operator, setOperator] = useState('');
  const [kind, setKind] = useState('');
  const [date, setDate] = useState('');
  const query = {
    operator: operator || undefined,
    kind: kind || undefined,
    from: date || undefined,
    to: date || undefined,
  };
  const log = useConsoleQuery(['log', query], logEndpoint, { query });
  return (
    <section>
      <h1 className="mb-3 text-xl font-bold">Operator log</h1>
      <div className="mb-4 grid gap-2 sm:grid-cols-3">
        <label className="text-sm">
          <span className="mb-1 block text-slate-400">Operator</span>
          <Input
            value={operator}
            onChange={(e) => setOperator(e.target.value)}
            placeholder="username or cli:…"
          />
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-slate-400">Kind</span>
          <select
            value={kind}
            onChange={(e) => setKind(e.target.value)}
            className="h-10 w-full rounded-lg border border-slate-700 bg-slate-900 px-2 text-sm"
          >
            <option value="">All kinds</option>
            {log.data?.kinds.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block text-slate-400">Day (UTC)</span>
          <Input type="date" value={date} onChange={(e) => setDate(e.target.value)} />
        </label>
      </div>
      {log.isError && <p role="alert">{errorText(log.error)}</p>}
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
          </li>
        ))}
      </ol>
    </section>
  );
}
