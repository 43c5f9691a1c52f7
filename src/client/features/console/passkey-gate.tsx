import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import {
  authenticationEndpoint,
  authenticationOptionsEndpoint,
  registrationEndpoint,
  registrationOptionsEndpoint,
} from '#shared/api/admin.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { openAuthDialog } from '#client/lib/auth-dialog-store.ts';
import { Button } from '#client/ui/button.tsx';
import { Input } from '#client/ui/input.tsx';
import { consoleKeys, errorCode, errorText, useOperator } from './console-api.ts';

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
    <div className="mx-3 mt-10 max-w-md rounded-xl sm:mx-auto border border-slate-800 bg-slate-900 p-6">
      <h1 className="mb-3 text-xl font-bold text-slate-100">{title}</h1>
      <div className="space-y-3 text-sm text-slate-300">{children}</div>
    </div>
  );
}

/**
 * The console's door: a signed-in member with a role, and a passkey sign-in made in this
 * session, used within 15 minutes and at most 12 hours old. Asks for what is missing (sign in,
 * add a passkey with the password again, or use the passkey), then shows `children`.
 */
export function PasskeyGate({ children }: { children: ReactNode }) {
  const me = useOperator();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const ipProblem = ipHostProblem();

  if (me.isPending) return <Panel title="Operator console">Checking who you are…</Panel>;
  if (me.isError) {
    const code = errorCode(me.error);
    if (code === 'UNAUTHORIZED') {
      return (
        <Panel title="Operator console">
          <p>Sign in with your account first.</p>
          <Button onClick={() => openAuthDialog('login')}>Sign in</Button>
        </Panel>
      );
    }
    return (
      <Panel title="Operator console">
        <p>
          {code === 'NOT_OPERATOR'
            ? 'The console is for moderators and admins.'
            : errorText(me.error)}
        </p>
      </Panel>
    );
  }
  const operator = me.data;
  const hostProblem = operator.hostProblem ?? ipProblem;
  if (hostProblem) {
    return (
      <Panel title="Passkeys cannot work here">
        <p role="alert">{hostProblem}</p>
      </Panel>
    );
  }
  if (operator.passkeyFresh) return <>{children}</>;

  const refresh = () => queryClient.invalidateQueries({ queryKey: consoleKeys.all });
  const run = async (step: () => Promise<void>) => {
    setBusy(true);
    setProblem(null);
    try {
      await step();
      await refresh();
    } catch (error) {
      setProblem(
        error instanceof Error && error.name === 'NotAllowedError'
          ? 'The passkey prompt was closed or timed out. Try again.'
          : errorText(error),
      );
    } finally {
      setBusy(false);
    }
  };

  const addPasskey = (event: FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const options = await callEndpoint(registrationOptionsEndpoint, { body: { password } });
      const response = await startRegistration({ optionsJSON: options as never });
      await callEndpoint(registrationEndpoint, { body: { response: response as never } });
      setPassword('');
    });
  };
  const signIn = () =>
    run(async () => {
      const options = await callEndpoint(authenticationOptionsEndpoint);
      const response = await startAuthentication({ optionsJSON: options as never });
      await callEndpoint(authenticationEndpoint, { body: { response: response as never } });
    });

  if (operator.passkeys === 0) {
    return (
      <Panel title="Add a passkey">
        <p>
          Every operator signs in to the console with a passkey. Enter your password again to add
          one on this device.
        </p>
        <form onSubmit={addPasskey} className="space-y-3">
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
          <Button type="submit" disabled={busy || password === ''}>
            Add a passkey
          </Button>
        </form>
        {problem && (
          <p role="alert" className="text-red-400">
            {problem}
          </p>
        )}
      </Panel>
    );
  }
  return (
    <Panel title="Sign in with your passkey">
      <p>The console needs a passkey sign-in after 15 minutes of inactivity, and every 12 hours.</p>
      <Button onClick={() => void signIn()} disabled={busy}>
        Use my passkey
      </Button>
      {problem && (
        <p role="alert" className="text-red-400">
          {problem}
        </p>
      )}
    </Panel>
  );
}
