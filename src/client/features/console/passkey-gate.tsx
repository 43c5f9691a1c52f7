import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { PASSKEY_NAME_MAX } from '#shared/api/console/passkeys.ts';
import { openAuthDialog } from '#client/lib/auth-dialog-store.ts';
import { useSession } from '#client/lib/session.ts';
import { Button } from '#client/ui/button.tsx';
import { Dialog } from '#client/ui/dialog.tsx';
import { Input } from '#client/ui/input.tsx';
import { consoleKeys, errorCode, errorText, useOperator } from './console-api.ts';
import {
  addPasskey,
  ceremonyProblem,
  signInWithPasskey,
  suggestedPasskeyName,
} from './passkey-ceremonies.ts';
import { stepUpDeclined, stepUpDone, useStepUp } from './step-up.ts';

/** Browsers refuse an IP address as a passkey's site: said before anything is tried. */
function ipHostProblem(): string | null {
  const host = window.location.hostname;
  const isIp = /^[0-9.]+$/.test(host) || host.includes(':') || host.startsWith('[');
  if (!isIp) return null;
  const loopback = host === '127.0.0.1' || host === '[::1]' || host === '::1';
  const use = loopback
    ? `${window.location.protocol}//localhost${window.location.port ? `:${window.location.port}` : ''}/admin`
    : "the site's domain name";
  return `Passkeys do not work at an IP address (${host}): browsers refuse it. Open the console at ${use}.`;
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mx-3 mt-10 max-w-md rounded-xl border border-slate-800 bg-slate-900 p-6 sm:mx-auto">
      <h1 className="mb-3 text-xl font-bold text-slate-100">{title}</h1>
      <div className="space-y-3 text-sm text-slate-300">{children}</div>
    </div>
  );
}

const STEP_UP_RULE =
  'The console needs a passkey sign-in after 15 minutes of inactivity, and every 12 hours.';

/** A ceremony's button state: busy while the browser's prompt is open, and what went wrong. */
function useCeremony() {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await step();
    } catch (error) {
      setProblem(ceremonyProblem(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, problem, run };
}

function Problem({ text }: { text: string | null }) {
  return text ? (
    <p role="alert" className="text-red-400">
      {text}
    </p>
  ) : null;
}

/**
 * The passkey prompt over the page (step-up.ts): a console call was refused for want of a fresh
 * passkey sign-in; the page stays as it is, and what asked finishes once the operator signs in.
 */
function StepUpPrompt() {
  const { asking } = useStepUp();
  const queryClient = useQueryClient();
  const { busy, problem, run } = useCeremony();
  const signIn = () =>
    run(async () => {
      await signInWithPasskey();
      stepUpDone();
      await queryClient.invalidateQueries({ queryKey: consoleKeys.me });
    });
  return (
    <Dialog
      open={asking}
      onOpenChange={(open) => {
        if (!open && !busy) stepUpDeclined();
      }}
      title="Use your passkey again"
      description={`${STEP_UP_RULE} Your page stays as it is: what you asked for finishes once you are signed in.`}
    >
      <div className="space-y-3 text-sm">
        <Button onClick={() => void signIn()} disabled={busy} className="w-full">
          {busy ? 'Waiting for your passkey…' : 'Use my passkey'}
        </Button>
        <Problem text={problem} />
      </div>
    </Dialog>
  );
}

/** The first passkey: the password again, a name, then the browser's prompt. */
function AddFirstPasskey() {
  const queryClient = useQueryClient();
  const { busy, problem, run } = useCeremony();
  const [password, setPassword] = useState('');
  const [name, setName] = useState(suggestedPasskeyName);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await addPasskey(password, name.trim() || undefined);
      setPassword('');
      await queryClient.invalidateQueries({ queryKey: consoleKeys.all });
    });
  };
  return (
    <Panel title="Add a passkey">
      <p>
        Every operator signs in to the console with a passkey. Enter your password again to add one
        on this device; you can add a backup afterwards, on the Passkeys page.
      </p>
      <form onSubmit={submit} className="space-y-3">
        <label className="block">
          <span className="mb-1 block text-slate-400">Password</span>
          <Input
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
        </label>
        <label className="block">
          <span className="mb-1 block text-slate-400">Name it</span>
          <Input
            value={name}
            maxLength={PASSKEY_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
          />
        </label>
        <Button type="submit" disabled={busy || password === ''}>
          Add a passkey
        </Button>
      </form>
      <Problem text={problem} />
    </Panel>
  );
}

function SignInWithPasskey() {
  const queryClient = useQueryClient();
  const { busy, problem, run } = useCeremony();
  const signIn = () =>
    run(async () => {
      await signInWithPasskey();
      await queryClient.invalidateQueries({ queryKey: consoleKeys.all });
    });
  return (
    <Panel title="Sign in with your passkey">
      <p>{STEP_UP_RULE}</p>
      <Button onClick={() => void signIn()} disabled={busy}>
        Use my passkey
      </Button>
      <Problem text={problem} />
    </Panel>
  );
}

/**
 * The console's door: a signed-in member with a role, and a passkey sign-in made in this
 * session, used within 15 minutes and at most 12 hours old. Follows the session (a sign-in or a
 * logout in the page shows the right screen at once), asks for what is missing (sign in, add a
 * passkey with the password again, or use the passkey), then shows `children`, with the passkey
 * prompt ready over them for when the step-up lapses.
 */
export function PasskeyGate({ children }: { children: ReactNode }) {
  const session = useSession();
  const me = useOperator();
  const signedOut = !session.isLoading && session.user === null;
  // Calls waiting for a passkey sign-in have no one to make it once the member has left.
  useEffect(() => {
    if (signedOut) stepUpDeclined();
  }, [signedOut]);

  if (signedOut) {
    return (
      <Panel title="Operator console">
        <p>Sign in with your account first.</p>
        <Button onClick={() => openAuthDialog('login')}>Sign in</Button>
      </Panel>
    );
  }
  if (me.isPending) return <Panel title="Operator console">Checking who you are…</Panel>;
  if (me.isError) {
    const code = errorCode(me.error);
    return (
      <Panel title="Operator console">
        <p role="alert">
          {code === 'NOT_OPERATOR'
            ? 'The console is for moderators and admins.'
            : errorText(me.error)}
        </p>
      </Panel>
    );
  }
  const operator = me.data;
  const hostProblem = operator.hostProblem ?? ipHostProblem();
  if (hostProblem) {
    return (
      <Panel title="Passkeys cannot work here">
        <p role="alert">{hostProblem}</p>
      </Panel>
    );
  }
  if (operator.passkeys === 0) return <AddFirstPasskey />;
  if (!operator.passkeyFresh) return <SignInWithPasskey />;
  return (
    <>
      {children}
      <StepUpPrompt />
    </>
  );
}
