import { useState, type FormEvent } from 'react';
import type { Wallet } from '@wallet-standard/base';
import { usernameSchema, type User } from '#shared/api/auth.ts';
import type { SignedWalletMessage } from '#shared/api/wallet.ts';
import {
  walletLoginEndpoint,
  walletRegisterEndpoint,
  walletSignInChallengeEndpoint,
} from '#shared/api/wallet-sign-in.ts';
import { NEVER_A_TRANSACTION } from '#shared/holders.ts';
import { ApiError, errorMessage } from '#client/lib/api-client.ts';
import { callEndpoint } from '#client/lib/api-call.ts';
import { checkField } from '#client/lib/check-field.ts';
import { signUpProof } from '#client/lib/raid-proof.ts';
import { recheckSession, setSessionUser } from '#client/lib/session.ts';
import { useStandardWallets } from '#client/lib/standard-wallets.ts';
import { toast } from '#client/lib/toast-store.ts';
import { useWalletRequest } from '#client/lib/wallet-request.ts';
import { canSignMessages, isSolanaWallet, signChallenge } from '#client/lib/wallet-signing.ts';
import { Button } from '#client/ui/button.tsx';
import { Field } from '#client/ui/field.tsx';
import { Input } from '#client/ui/input.tsx';
import { NoWalletFound, WalletButton } from '#client/ui/wallet-button.tsx';

function signedIn(user: User) {
  setSessionUser(user);
  void recheckSession();
}

/**
 * "Sign in with wallet" (docs/decisions/029-holders-at-home.md): the wallet signs the site's
 * Sign In With Solana message; a wallet a member proved signs them in, an unknown one may open
 * an account under a name the visitor picks, with the same signature. Loaded when asked for.
 */
export default function WalletSignIn({ onDone }: { onDone: () => void }) {
  const wallets = useStandardWallets(isSolanaWallet);
  const { busy, setBusy, ask } = useWalletRequest('Login failed');
  // A signature no member's wallet matched: it opens an account once a name is chosen.
  const [unknown, setUnknown] = useState<SignedWalletMessage | null>(null);
  const [username, setUsername] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();

  async function signIn(wallet: Wallet) {
    const signed = await signChallenge(wallet, await callEndpoint(walletSignInChallengeEndpoint));
    try {
      const { user } = await callEndpoint(walletLoginEndpoint, { body: signed });
      signedIn(user);
      toast({
        title: 'Welcome back!',
        description: `Hello ${user.username}, you're now logged in.`,
      });
      onDone();
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'WALLET_UNKNOWN')) throw error;
      setUnknown(signed);
    }
  }

  async function openAccount(event: FormEvent) {
    event.preventDefault();
    const name = checkField(usernameSchema, username, setNameError);
    if (name === undefined) return;
    setBusy('register');
    try {
      const altcha = await signUpProof();
      const { user } = await callEndpoint(walletRegisterEndpoint, {
        body: { ...unknown!, username: name, ...(altcha && { altcha }) },
      });
      signedIn(user);
      toast({
        title: 'Welcome to the Grind!',
        description: `Account created successfully. Welcome ${user.username}!`,
      });
      onDone();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'USERNAME_TAKEN') {
        setNameError(error.serverMessage);
      } else {
        // The message may have expired or been used: the visitor signs a new one.
        setUnknown(null);
        toast({
          title: 'Registration failed',
          description: errorMessage(error) ?? 'Please try again with different credentials.',
          variant: 'destructive',
        });
      }
    } finally {
      setBusy(null);
    }
  }

  if (unknown) {
    return (
      <form onSubmit={(event) => void openAccount(event)} noValidate className="grid gap-3">
        <p className="text-sm text-slate-300">
          No account has proven this wallet yet. Choose a username to create one with it; you can
          add a password later.
        </p>
        <Field id="wallet-username" label="Choose a username" error={nameError}>
          {(control) => (
            <Input
              {...control}
              autoComplete="username"
              value={username}
              onChange={(event) => setUsername(event.target.value)}
            />
          )}
        </Field>
        <Button type="submit" size="lg" disabled={busy !== null}>
          {busy ? 'Joining...' : 'Join with this wallet'}
        </Button>
      </form>
    );
  }

  return (
    <div className="grid gap-2" data-testid="wallet-sign-in">
      {wallets.length === 0 ? (
        <NoWalletFound />
      ) : (
        wallets.map((wallet) =>
          canSignMessages(wallet) ? (
            <WalletButton
              key={wallet.name}
              wallet={wallet}
              action="Sign in with"
              busy={busy}
              disabled={busy !== null}
              onClick={() => void ask(wallet, () => signIn(wallet))}
            />
          ) : (
            <p key={wallet.name} className="text-sm text-slate-300">
              {wallet.name} cannot sign messages, so it cannot sign you in here. Use another wallet
              or your password.
            </p>
          ),
        )
      )}
      <p className="text-xs text-slate-400">{NEVER_A_TRANSACTION}</p>
    </div>
  );
}
