import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  listPasskeysEndpoint,
  type Passkey,
  PASSKEY_NAME_MAX,
  passkeyNameSchema,
  removePasskeyEndpoint,
  renamePasskeyEndpoint,
} from '#shared/api/console/passkeys.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Input } from '#client/ui/input.tsx';
import {
  consoleCall,
  consoleKeys,
  errorText,
  toastRefusal,
  useConsoleAction,
  useConsoleQuery,
} from './console-api.ts';
import { when } from './format.ts';
import { addPasskey, ceremonyProblem } from './passkey-ceremonies.ts';

const nameOf = (p: Passkey) => p.name ?? `Passkey #${p.id}`;

/** One passkey: its name (renamed in place), when it was added and used, and Remove, asked first. */
function PasskeyRow({ passkey, only }: { passkey: Passkey; only: boolean }) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const rename = useConsoleAction({
    call: (name: string) =>
      consoleCall(renamePasskeyEndpoint, { params: { id: passkey.id }, body: { name } }),
    onDone: () => setRenaming(null),
    onRefused: toastRefusal('Not renamed'),
  });
  const remove = useConsoleAction({
    call: () => consoleCall(removePasskeyEndpoint, { params: { id: passkey.id } }),
    onDone: () => toast({ title: 'Passkey removed', description: nameOf(passkey) }),
    onRefused: toastRefusal('Not removed'),
  });
  const checked = renaming === null ? null : passkeyNameSchema.safeParse(renaming);
  return (
    <li className="space-y-2 rounded-lg border border-slate-800 p-3" data-testid="passkey">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <div className="min-w-0 text-sm">
          <p className="font-semibold break-words text-slate-100">{nameOf(passkey)}</p>
          <p className="text-slate-400">
            added {when(passkey.createdAt)} · last used{' '}
            {passkey.lastUsedAt ? when(passkey.lastUsedAt) : 'never'}
          </p>
        </div>
        {renaming === null && !confirming && (
          <div className="flex gap-2">
            <Button variant="secondary" size="sm" onClick={() => setRenaming(passkey.name ?? '')}>
              Rename
            </Button>
            <Button variant="outline" size="sm" onClick={() => setConfirming(true)}>
              Remove
            </Button>
          </div>
        )}
      </div>
      {renaming !== null && (
        <form
          className="flex flex-wrap items-center gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (checked?.success) rename.mutate(checked.data);
          }}
        >
          <Input
            aria-label={`New name for ${nameOf(passkey)}`}
            className="min-w-0 flex-1"
            value={renaming}
            maxLength={PASSKEY_NAME_MAX}
            onChange={(e) => setRenaming(e.target.value)}
            autoFocus
          />
          <Button type="submit" size="sm" disabled={!checked?.success || rename.isPending}>
            Save
          </Button>
          <Button variant="secondary" size="sm" onClick={() => setRenaming(null)}>
            Cancel
          </Button>
        </form>
      )}
      {confirming && (
        <div
          role="alertdialog"
          aria-label={`Remove ${nameOf(passkey)}?`}
          className="space-y-2 rounded-md border border-amber-800 bg-amber-950/30 p-3 text-sm"
        >
          <p className="text-amber-200">
            Remove “{nameOf(passkey)}”? It will no longer open the console, and your other sessions
            are signed out.
            {only &&
              ' It is your only passkey: you will need your password to add another before you can use the console again.'}
          </p>
          <div className="flex gap-2">
            <Button
              variant="outline"
              size="sm"
              disabled={remove.isPending}
              onClick={() => remove.mutate()}
            >
              Remove it
            </Button>
            <Button variant="secondary" size="sm" onClick={() => setConfirming(false)}>
              Keep it
            </Button>
          </div>
        </div>
      )}
    </li>
  );
}

/** A backup: another device or security key, named, after the password again. */
function AddBackup() {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const checked = passkeyNameSchema.safeParse(name);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!checked.success) return;
    setBusy(true);
    setProblem(null);
    try {
      const passkey = await addPasskey(password, checked.data);
      setName('');
      setPassword('');
      toast({ title: 'Passkey added', description: nameOf(passkey) });
      await queryClient.invalidateQueries({ queryKey: consoleKeys.all });
    } catch (error) {
      setProblem(ceremonyProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={(e) => void submit(e)}
      className="space-y-3 rounded-xl border border-slate-800 bg-slate-900 p-3 text-sm"
      aria-labelledby="add-backup"
    >
      <h2 id="add-backup" className="text-base font-semibold">
        Add a backup passkey
      </h2>
      <p className="text-slate-400">
        A second device or a security key, so that losing one does not lock you out. Adding one
        signs your other sessions out.
      </p>
      <div className="grid gap-2 sm:grid-cols-2">
        <label className="block">
          <span className="mb-1 block text-slate-400">Name</span>
          <Input
            value={name}
            maxLength={PASSKEY_NAME_MAX}
            placeholder="YubiKey, work laptop…"
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <label className="block">
          <span className="mb-1 block text-slate-400">Your password</span>
          <Input
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
      </div>
      <Button type="submit" disabled={busy || !checked.success || password === ''}>
        {busy ? 'Waiting for the passkey…' : 'Add the passkey'}
      </Button>
      {problem && (
        <p role="alert" className="text-red-400">
          {problem}
        </p>
      )}
    </form>
  );
}

/** The operator's own passkeys: named, a backup added, each removable once confirmed. */
export function PasskeysPage() {
  const passkeys = useConsoleQuery(['passkeys'], listPasskeysEndpoint);
  const list = passkeys.data?.passkeys ?? [];
  return (
    <section className="space-y-4">
      <h1 className="text-xl font-bold">Your passkeys</h1>
      {passkeys.isError && <p role="alert">{errorText(passkeys.error)}</p>}
      {list.length === 1 && (
        <p className="text-amber-300">
          You have one passkey. If you lose it, only someone with a shell on the server can let you
          back in (users:passkeys:reset): add a backup.
        </p>
      )}
      <ul className="space-y-2">
        {list.map((p) => (
          <PasskeyRow key={p.id} passkey={p} only={list.length === 1} />
        ))}
      </ul>
      <AddBackup />
    </section>
  );
}
