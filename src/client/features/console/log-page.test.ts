import { describe, expect, it } from 'vitest';
import { moneyDetails } from './log-page.tsx';

describe("the log's money line", () => {
  it('shows a payment with its amount, wallets and a link to the transaction', () => {
    expect(
      moneyDetails({
        wallet: 'Winner111',
        payer: 'Treasury111',
        amount: '1 SOL',
        lamports: '1000000000',
        signature: 'sig',
        explorerUrl: 'https://solscan.io/tx/sig',
      }),
    ).toEqual({
      amount: '1 SOL',
      wallet: 'Winner111',
      payer: 'Treasury111',
      explorerUrl: 'https://solscan.io/tx/sig',
    });
  });

  it("shows a burn's base units in the mint's decimals", () => {
    expect(moneyDetails({ amount: '3000000', decimals: 6, wallet: 'Owner111' })).toMatchObject({
      amount: '3',
      wallet: 'Owner111',
    });
  });

  it('links only to https addresses, and shows nothing for a decision that moved no money', () => {
    expect(moneyDetails({ explorerUrl: 'javascript:alert(1)', wallet: 'W' })).toEqual({
      amount: undefined,
      wallet: 'W',
      payer: undefined,
      explorerUrl: undefined,
    });
    expect(moneyDetails({ passkey: 3 })).toBeNull();
  });
});
