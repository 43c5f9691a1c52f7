import { useState, type FormEvent } from 'react';
import { newPasswordSchema } from '#shared/api/auth.ts';
import { shortAddress } from '#shared/siws.ts';
import { errorMessage } from '#client/lib/api-client.ts';
import { checkField } from '#client/lib/check-field.ts';
import { useSite } from '#client/lib/site-config.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Field } from '#client/ui/field.tsx';
import { HolderBadge } from '#client/ui/holder-badge.tsx';
import { Input } from '#client/ui/input.tsx';
import { useAccount, useAddPassword, useHolderCheck, useShowWallet } from './members-api.ts';

const failed = (title: string) => (error: unknown) =>
  toast({ title, description: errorMessage(error) ?? 'Please try again.', variant: 'destructive' });

/**
 * The member's own controls on their page: their holder status and a check now, whether the page
 * shows their wallet, and a first password for an account opened with a wallet.
 */
export function AccountPanel() {
  const site = useSite();
  const account = useAccount(true);
  const showWallet = useShowWallet();
  const check = useHolderCheck();
  if (!account.data) return null;
  const { wallet, holder } = account.data;

  return (
    <section
      aria-labelledby="your-account"
      className="mt-6 grid gap-4 rounded-2xl border border-slate-800 bg-slate-900 p-5"
      data-testid="account-panel"
    >
      <h2 id="your-account" className="text-lg font-bold text-slate-100">
        Your account
      </h2>
      <div className="grid gap-2 text-sm text-slate-300">
        <h3 className="font-semibold text-slate-100">Holder perks</h3>
        {!wallet ? (
          <p>
            Link a Solana wallet (from the prize box in the game section) and the site reads what it
            holds of {site.ticker}: holders get a badge and the shop&apos;s Holders row.
          </p>
        ) : (
          <>
            <p data-testid="holder-status">
              {holder ? (
                <>
                  Your wallet <span className="font-mono">{shortAddress(wallet)}</span> held{' '}
                  {holder.balance} {site.ticker} at its last check
                  {holder.badge ? (
                    <>
                      {' '}
                      <HolderBadge tier={holder.badge.tier} />
                    </>
                  ) : (
                    `, under the ${site.holders.tiers.holder.minTokens.toLocaleString('en-US')} ${site.ticker} a holder holds`
                  )}
                  .
                </>
              ) : (
                <>
                  Your wallet <span className="font-mono">{shortAddress(wallet)}</span> has not been
                  checked yet.
                </>
              )}{' '}
              The site checks again every six hours.
            </p>
            <div>
              <Button
                size="sm"
                variant="secondary"
                disabled={check.isPending}
                onClick={() => check.mutate(undefined, { onError: failed('Not checked') })}
              >
                {check.isPending ? 'Checking…' : 'Check my wallet now'}
              </Button>
            </div>
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={account.data.showWallet}
                disabled={showWallet.isPending}
                onChange={(event) =>
                  showWallet.mutate(event.target.checked, { onError: failed('Not saved') })
                }
              />
              Show my wallet on my page (shortened)
            </label>
          </>
        )}
      </div>
      {account.data.hasPassword ? null : <AddPassword />}
    </section>
  );
}

function AddPassword() {
  const add = useAddPassword();
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const checked = checkField(newPasswordSchema, password, setError);
    if (checked === undefined) return;
    add.mutate(checked, {
      onSuccess: () => {
        setPassword('');
        toast({ title: 'Password added', description: 'You can sign in with it too now.' });
      },
      onError: failed('Password not added'),
    });
  }

  return (
    <form onSubmit={submit} noValidate className="grid gap-2 text-sm text-slate-300">
      <h3 className="font-semibold text-slate-100">Add a password</h3>
      <p>You signed up with your wallet. A password lets you sign in without it.</p>
      <Field id="add-password" label="New password" error={error}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        )}
      </Field>
      <div>
        <Button type="submit" size="sm" disabled={add.isPending}>
          {add.isPending ? 'Saving…' : 'Add password'}
        </Button>
      </div>
    </form>
  );
}
