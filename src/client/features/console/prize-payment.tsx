import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  SolanaSignAndSendTransaction,
  type SolanaSignAndSendTransactionFeature,
} from '@solana/wallet-standard-features';
import { getBase58Decoder } from '@solana/kit';
import type { Wallet, WalletAccount } from '@wallet-standard/base';
import { StandardConnect, type StandardConnectFeature } from '@wallet-standard/features';
import {
  confirmPaymentEndpoint,
  paymentStatusEndpoint,
  preparePaymentEndpoint,
  type PaymentStatus,
} from '#shared/api/chain.ts';
import { prizeTransferBytes } from '#shared/prize-transfer.ts';
import { shortAddress } from '#shared/siws.ts';
import { clusterName, walletChain } from '#shared/solana-cluster.ts';
import { consoleCall, consoleKeys, errorCode, errorText, useConsoleQuery } from './console-api.ts';
import { useSite } from '#client/lib/site-config.ts';
import { useStandardWallets } from '#client/lib/standard-wallets.ts';
import { toast } from '#client/lib/toast-store.ts';
import { Button } from '#client/ui/button.tsx';
import { when } from './format.ts';

/** How often the console asks the server to look for the sent transfer at `finalized`. */
const CHECK_EVERY_MS = 4_000;

/** A wallet that can pay: it connects and signs and sends a transaction itself. */
function canPay(wallet: Wallet): boolean {
  return StandardConnect in wallet.features && SolanaSignAndSendTransaction in wallet.features;
}

interface Payer {
  wallet: Wallet;
  account: WalletAccount;
}

/**
 * Whether the connected account can send on `chain` (`solana:devnet`, ...): the account's own
 * list, or the wallet's when the account names none. A wallet on the wrong network would send
 * the prize on another chain than the one the server verifies on.
 */
function sendsOn({ wallet, account }: Payer, chain: string): boolean {
  return (account.chains.length > 0 ? account.chains : wallet.chains).includes(
    chain as `${string}:${string}`,
  );
}

/** The week's payment as the server last verified it: only a finalized transaction says paid. */
function PaymentState({ status }: { status: PaymentStatus }) {
  if (status.state === 'paid') {
    return (
      <>
        <p className="break-all text-emerald-300">
          Paid {status.prize} to {shortAddress(status.recipient)}, verified on chain at finalized
          (slot {status.slot}
          {status.blockTime ? `, ${when(Date.parse(status.blockTime))}` : ''}).{' '}
          {status.explorerUrl && (
            <a className="underline" href={status.explorerUrl} target="_blank" rel="noreferrer">
              View the transaction
            </a>
          )}
        </p>
        {status.detail && <p className="mt-1 text-amber-300">{status.detail}</p>}
      </>
    );
  }
  if (status.state === 'pending') {
    return <p className="break-all text-amber-300">Pending: {status.detail}</p>;
  }
  if (status.state === 'expired') {
    return (
      <p className="break-all text-amber-300">
        The last payment expired: {status.detail} Pay again below.
      </p>
    );
  }
  return (
    <>
      <p>
        To pay: {status.prize} to {shortAddress(status.recipient)}, with the memo and a reference
        key the server checks the transfer by.
      </p>
      {status.detail && <p className="mt-1 text-amber-300">{status.detail}</p>}
    </>
  );
}

/**
 * The prize week's payment (issue 33): an admin connects a Wallet Standard wallet, the console
 * builds the transfer on the payment the server prepared (reference key, memo, blockhash) and
 * the wallet signs and sends it; the server then finds it by its reference and records the week
 * paid only once it is verified at `finalized`. Loaded only on the prize week page.
 */
export default function PrizePayment({ week }: { week: string }) {
  const queryClient = useQueryClient();
  const key = ['prize-payment', week];
  const status = useConsoleQuery(key, paymentStatusEndpoint, { params: { week } });
  const wallets = useStandardWallets(canPay);
  const cluster = useSite().solana.cluster;
  const chain = walletChain(cluster);
  const [payer, setPayer] = useState<Payer | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  /** The signature the wallet answered in this tab: the console keeps checking until final. */
  const [sent, setSent] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const show = (next: PaymentStatus) => {
    queryClient.setQueryData(['console', ...key], next);
    if (next.state === 'paid') void queryClient.invalidateQueries({ queryKey: consoleKeys.all });
  };

  async function check(signature: string | null) {
    try {
      show(
        await consoleCall(confirmPaymentEndpoint, {
          params: { week },
          body: signature ? { signature } : {},
        }),
      );
      setRefusal(null);
    } catch (error) {
      // A refusal (422) stays on screen; an RPC that is down (503) is asked again.
      if (errorCode(error)?.startsWith('TX_')) {
        setRefusal(errorText(error));
        setSent(null);
      } else if (signature === null) {
        toast({ title: 'Not checked', description: errorText(error), variant: 'destructive' });
      }
    }
  }

  const state = status.data?.state;
  useEffect(() => {
    if (sent === null || state !== 'pending') return;
    const timer = setInterval(() => void check(sent), CHECK_EVERY_MS);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `check` reads only `week`
  }, [sent, state]);

  async function connect(wallet: Wallet) {
    setBusy(`Connecting ${wallet.name}…`);
    try {
      const { accounts } = await (wallet.features as StandardConnectFeature)[
        StandardConnect
      ].connect();
      const account = accounts[0];
      if (!account) throw new Error('The wallet shared no account');
      setPayer({ wallet, account });
    } catch (error) {
      toast({ title: 'Not connected', description: errorText(error), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  async function pay({ wallet, account }: Payer) {
    // Refused before anything is prepared or built (PayerChoice offers no button either).
    if (!sendsOn({ wallet, account }, chain)) return;
    setBusy(`Waiting for ${wallet.name}…`);
    setRefusal(null);
    try {
      const prepared = await consoleCall(preparePaymentEndpoint, { params: { week } });
      show(prepared);
      const feature = (wallet.features as SolanaSignAndSendTransactionFeature)[
        SolanaSignAndSendTransaction
      ];
      const [output] = await feature.signAndSendTransaction({
        account,
        chain,
        transaction: prizeTransferBytes(prepared, account.address),
      });
      if (!output) throw new Error('The wallet returned no signature');
      const signature = getBase58Decoder().decode(output.signature);
      setSent(signature);
      toast({
        title: 'Transfer sent',
        description: 'The week is recorded paid once the chain finalizes it.',
      });
      await check(signature);
    } catch (error) {
      toast({ title: 'Not paid', description: errorText(error), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  if (status.isPending) return <p className="text-slate-400">Loading the payment…</p>;
  if (status.isError) return <p role="alert">{errorText(status.error)}</p>;
  const data = status.data;
  return (
    <div className="space-y-2 text-sm" data-testid="prize-payment">
      <div data-testid="payment-state">
        <PaymentState status={data} />
      </div>
      {refusal && (
        <p role="alert" className="break-all text-red-300">
          {refusal}
        </p>
      )}
      {data.state === 'pending' && (
        <Button
          variant="secondary"
          size="sm"
          disabled={busy !== null}
          onClick={() => void check(sent)}
        >
          Check now
        </Button>
      )}
      {data.state !== 'paid' && sent === null && (
        <PayerChoice
          wallets={wallets}
          payer={payer}
          busy={busy}
          prize={data.prize}
          chain={chain}
          network={clusterName(cluster)}
          onConnect={(wallet) => void connect(wallet)}
          onForget={() => setPayer(null)}
          onPay={(p) => void pay(p)}
          pending={data.state === 'pending'}
        />
      )}
    </div>
  );
}

function PayerChoice({
  wallets,
  payer,
  busy,
  prize,
  chain,
  network,
  pending,
  onConnect,
  onForget,
  onPay,
}: {
  wallets: readonly Wallet[];
  payer: Payer | null;
  busy: string | null;
  prize: string;
  /** The Wallet Standard chain the site's cluster is (`solana:devnet`), and its name. */
  chain: string;
  network: string;
  pending: boolean;
  onConnect: (wallet: Wallet) => void;
  /** Back to the list of wallets (the connected one cannot pay on this site's network). */
  onForget: () => void;
  onPay: (payer: Payer) => void;
}) {
  if (payer && !sendsOn(payer, chain)) {
    return (
      <div className="space-y-2">
        <p role="alert" className="text-amber-300" data-testid="wrong-chain">
          {payer.wallet.name} does not offer {chain}: this site pays on {network}. Switch the wallet
          to {network} (or choose one that can) and reload. No transaction was built.
        </p>
        <Button variant="secondary" size="sm" onClick={onForget}>
          Choose another wallet
        </Button>
      </div>
    );
  }
  if (payer) {
    return (
      <div className="space-y-1">
        {pending && (
          <p className="text-slate-400">
            If your wallet already sent this payment, check it instead of paying again: the
            reference stays the same, but a second transfer would still move money.
          </p>
        )}
        <Button disabled={busy !== null} onClick={() => onPay(payer)}>
          {busy ?? `Pay ${prize} from ${shortAddress(payer.account.address)}`}
        </Button>
      </div>
    );
  }
  if (wallets.length === 0) {
    return (
      <p className="text-slate-400" data-testid="no-paying-wallet">
        No Solana wallet that can send a transaction was found in this browser. Install Phantom,
        Solflare or Backpack, then reload.
      </p>
    );
  }
  return (
    <ul className="flex flex-wrap gap-2">
      {wallets.map((wallet) => (
        <li key={wallet.name}>
          <Button variant="secondary" disabled={busy !== null} onClick={() => onConnect(wallet)}>
            <img src={wallet.icon} alt="" className="h-5 w-5 rounded" />
            {busy ?? `Connect ${wallet.name}`}
          </Button>
        </li>
      ))}
    </ul>
  );
}
