/**
 * Sign In With Solana (SIWS) messages, in the text format of @solana/wallet-standard-util's
 * createSignInMessageText (itself EIP-4361's format with "Solana"): a wallet that implements
 * `solana:signIn` builds this text from the fields we give it, and for a wallet that only signs
 * messages the client builds the same text here. The server parses what was signed and then
 * compares it with the text it expects, byte for byte.
 *
 * The package itself is not used: it requires Node 22 and pins an older @noble/curves than
 * the server's; the format is these few lines.
 */

export interface SignInFields {
  domain: string;
  address: string;
  statement: string;
  uri: string;
  version: string;
  chainId: string;
  nonce: string;
  issuedAt: string;
  expirationTime: string;
}

const HEADER = ' wants you to sign in with your Solana account:';

export function signInMessageText(f: SignInFields): string {
  return [
    `${f.domain}${HEADER}`,
    f.address,
    '',
    f.statement,
    '',
    `URI: ${f.uri}`,
    `Version: ${f.version}`,
    `Chain ID: ${f.chainId}`,
    `Nonce: ${f.nonce}`,
    `Issued At: ${f.issuedAt}`,
    `Expiration Time: ${f.expirationTime}`,
  ].join('\n');
}

/** The fields a signed message names, enough to say what is wrong with it; or undefined. */
export interface ParsedSignIn {
  domain: string;
  address: string;
  uri?: string;
  chainId?: string;
  nonce?: string;
  issuedAt?: string;
  expirationTime?: string;
}

const FIRST_LINES =
  /^([^\s]+) wants you to sign in with your Solana account:\n([1-9A-HJ-NP-Za-km-z]{32,44})(?:\n|$)/;

export function parseSignInMessage(text: string): ParsedSignIn | undefined {
  const head = FIRST_LINES.exec(text);
  if (!head) return undefined;
  const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(text)?.[1];
  return {
    domain: head[1]!,
    address: head[2]!,
    uri: field('URI'),
    chainId: field('Chain ID'),
    nonce: field('Nonce'),
    issuedAt: field('Issued At'),
    expirationTime: field('Expiration Time'),
  };
}

/** "7xKX…sAsU": enough of an address to recognise it. */
export function shortAddress(address: string): string {
  return address.length <= 10 ? address : `${address.slice(0, 4)}…${address.slice(-4)}`;
}
