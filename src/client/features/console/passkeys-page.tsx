import { useMutation, useQueryClient } from '@tanstack/react-query';
import { listPasskeysEndpoint, removePasskeyEndpoint } from '#shared/api/admin.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { consoleKeys, errorText, useConsoleQuery } from './console-api.ts';
import { when } from './format.ts';

/** The operator's own passkeys, each removable (a lost one is reset from the CLI). */
export function PasskeysPage() {
  const passkeys = useConsoleQuery(['passkeys'], listPasskeysEndpoint);
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (id: number) => callEndpoint(removePasskeyEndpoint, { params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: consoleKeys.all }),
    onError: (error) =>
      toast({ title: 'Not removed', description: errorText(error), variant: 'destructive' }),
  });
  return (
    <section>
      <h1 className="mb-3 text-xl font-bold">Your passkeys</h1>
      {passkeys.isError && <p role="alert">{errorText(passkeys.error)}</p>}
      <ul className="space-y-2">
        {passkeys.data?.passkeys.map((p) => (
          <li
            key={p.id}
            className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-slate-800 p-3"
          >
            <span className="text-sm">
              Passkey #{p.id} · added {when(p.createdAt)} · last used{' '}
              {p.lastUsedAt ? when(p.lastUsedAt) : 'never'}
            </span>
            <Button
              variant="secondary"
              size="sm"
              disabled={remove.isPending}
              onClick={() => remove.mutate(p.id)}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
    </section>
  );
}
