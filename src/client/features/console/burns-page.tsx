import { useState } from 'react';
import { burnsEndpoint, recordBurnEndpoint } from '#shared/api/chain.ts';
import { formatTokenUnits } from '#shared/format-units.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Input } from '#client/ui/input.tsx';
import { consoleCall, errorText, useConsoleAction, useConsoleQuery } from './console-api.ts';
import { when } from './format.ts';

/**
 * Token burns (admins): a burn is recorded by its transaction signature only; the server reads
 * the amount, mint and time from the finalized transaction, so nothing typed here is trusted
 * beyond which transaction to look at.
 */
export function BurnsPage() {
  const burns = useConsoleQuery(['burns'], burnsEndpoint);
  const [signature, setSignature] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const record = useConsoleAction({
    call: () => consoleCall(recordBurnEndpoint, { body: { signature } }),
    onDone: (burn) => {
      setSignature('');
      setRefusal(null);
      toast({
        title: 'Burn recorded',
        description: `${formatTokenUnits(burn.amount, burn.decimals)} tokens, verified at finalized`,
      });
    },
    onRefused: (error) => setRefusal(errorText(error)),
  });
  return (
    <section className="space-y-4">
      <h1 className="text-xl font-bold">Token burns</h1>
      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          record.mutate();
        }}
      >
        <label className="block text-sm text-slate-300">
          Burn transaction signature
          <Input
            className="mt-1 font-mono"
            value={signature}
            onChange={(event) => setSignature(event.target.value)}
            placeholder="The burn's signature, as the explorer shows it"
            aria-invalid={refusal !== null}
          />
        </label>
        <p className="text-sm text-slate-400">
          The server records it only when it is a finalized burn of the site&apos;s token, and takes
          the amount and time from the transaction.
        </p>
        {refusal && (
          <p role="alert" className="break-all text-sm text-red-300">
            {refusal}
          </p>
        )}
        <Button type="submit" disabled={signature.trim() === '' || record.isPending}>
          {record.isPending ? 'Verifying…' : 'Record the burn'}
        </Button>
      </form>
      {burns.isError && <p role="alert">{errorText(burns.error)}</p>}
      {burns.data && (
        <div className="space-y-2">
          <p className="text-sm text-slate-300" data-testid="burns-total">
            {burns.data.totalBurned === null || burns.data.decimals === null
              ? 'No verified burn yet.'
              : `Total burned: ${formatTokenUnits(burns.data.totalBurned, burns.data.decimals)} tokens`}
          </p>
          <ul className="space-y-2">
            {burns.data.burns.map((burn) => (
              <li
                key={burn.signature}
                data-testid="burn-entry"
                className="flex flex-wrap items-baseline justify-between gap-2 rounded-lg border border-slate-800 p-3 text-sm"
              >
                <span className="tabular-nums">
                  {formatTokenUnits(burn.amount, burn.decimals)} tokens ·{' '}
                  {when(Date.parse(burn.burnedAt))} · slot {burn.slot}
                </span>
                <a className="underline" href={burn.explorerUrl} target="_blank" rel="noreferrer">
                  View the transaction
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
