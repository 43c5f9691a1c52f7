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
import { signUpProof } from '#client/lib/raid-proof.ts';
import { recheckSession, setSessionUser } from '#client/lib/session.ts';
import { useStandardWallets } from '#client/lib/standard-wallets.ts';
import { toast } from '#client/lib/toast-store.ts';
import { canSignMessages, isSolanaWallet, signChallenge } from '#client/lib/wallet-signing.ts';
import { Button } from '#client/ui/button.tsx';
import { FieldError } from '#client/ui/field-error.tsx';
import { Input } from '#client/ui/input.tsx';

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
  const [busy, setBusy] = useState<string | null>(null);
  // A signature no member's wallet matched: it opens an account once a name is chosen.
  const [unknown, setUnknown] = useState<SignedWalletMessage | null>(null);
  const [username, setUsername] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();

  async function signIn(wallet: Wallet) {
    setBusy(wallet.name);
    try {
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
    } catch (error) {
      toast({
        title: 'Login failed',
        description: errorMessage(error) ?? 'The wallet did not sign the message.',
        variant: 'destructive',
      });
    } finally {
      setBusy(null);
    }
  }

  async function openAccount(event: FormEvent) {
    event.preventDefault();
    const name = usernameSchema.safeParse(username);
    if (!name.success) {
      setNameError(name.error.issues[0]?.message);
      return;
    }
    setNameError(undefined);
    setBusy('register');
    try {
      const altcha = await signUpProof();
      const { user } = await callEndpoint(walletRegisterEndpoint, {
        body: { ...unknown!, username: name.data, ...(altcha && { altcha }) },
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
        <div>
          <label htmlFor="wallet-username" className="mb-1 block text-sm font-medium">
            Choose a username
          </label>
          <Input
            id="wallet-username"
            autoComplete="username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            aria-invalid={nameError ? true : undefined}
            aria-describedby={nameError ? 'wallet-username-error' : undefined}
          />
          <FieldError id="wallet-username-error" message={nameError} />
        </div>
        <Button type="submit" size="lg" disabled={busy !== null}>
          {busy ? 'Joining...' : 'Join with this wallet'}
        </Button>
      </form>
    );
  }

  return (
    <div className="grid gap-2" data-testid="wallet-sign-in">
      {wallets.length === 0 ? (
        <p className="text-sm text-slate-300">
          No Solana wallet found in this browser. Install a wallet such as Phantom, Solflare or
          Backpack, then try again.
        </p>
      ) : (
        wallets.map((wallet) =>
          canSignMessages(wallet) ? (
            <Button
              key={wallet.name}
              variant="secondary"
              className="w-full justify-start gap-3"
              disabled={busy !== null}
              onClick={() => void signIn(wallet)}
            >
              <img src={wallet.icon} alt="" className="h-6 w-6 rounded" />
              {busy === wallet.name ? `Waiting for ${wallet.name}…` : `Sign in with ${wallet.name}`}
            </Button>
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
