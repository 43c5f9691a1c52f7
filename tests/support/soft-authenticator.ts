import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software WebAuthn authenticator for API tests: real P-256 keys, real CBOR attestation
 * objects and real ES256 signatures over authenticator data and the client data hash, so the
 * server's @simplewebauthn verification runs unchanged. It plays the browser's part too (the
 * client data JSON with the page's origin).
 */

/** Just enough CBOR (RFC 8949) for an attestation object and a COSE key. */
function cbor(value: unknown): Buffer {
  const head = (major: number, n: number): Buffer => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    if (n < 65536) return Buffer.from([(major << 5) | 25, n >> 8, n & 255]);
    const b = Buffer.alloc(5);
    b[0] = (major << 5) | 26;
    b.writeUInt32BE(n, 1);
    return b;
  };
  if (typeof value === 'number') {
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (value instanceof Map) {
    const parts = [head(5, value.size)];
    for (const [k, v] of value) parts.push(cbor(k), cbor(v));
    return Buffer.concat(parts);
  }
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  counter: number;
}

/** The credential as navigator.credentials answers, with the ceremony's `response`, as JSON. */
function publicKeyCredential(
  credential: Credential,
  response: Record<string, unknown>,
): Record<string, unknown> {
  const id = b64url(credential.id);
  return {
    id,
    rawId: id,
    type: 'public-key',
    response,
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  };
}

export class SoftAuthenticator {
  private readonly credentials: Credential[] = [];

  constructor(
    /** The page's origin the browser would put in the client data. */
    readonly origin: string,
    /** Whether the authenticator reports user verification (a PIN or a fingerprint). */
    private readonly userVerified = true,
  ) {}

  private authData(rpId: string, counter: number, attested?: Credential): Buffer {
    const flags = 0x01 | (this.userVerified ? 0x04 : 0) | (attested ? 0x40 : 0);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts: Buffer[] = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const jwk = attested.publicKey.export({ format: 'jwk' });
      const coseKey = new Map<number, unknown>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(attested.id.length);
      parts.push(Buffer.alloc(16), idLength, attested.id, cbor(coseKey));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin = this.origin): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** What navigator.credentials.create() would give for the server's registration options. */
  register(options: Record<string, unknown>, origin = this.origin): Record<string, unknown> {
    const rp = options.rp as { id: string };
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const credential: Credential = { id: randomBytes(16), privateKey, publicKey, counter: 0 };
    this.credentials.push(credential);
    const attestationObject = cbor(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', this.authData(rp.id, 0, credential)],
      ]),
    );
    return publicKeyCredential(credential, {
      clientDataJSON: b64url(
        this.clientData('webauthn.create', options.challenge as string, origin),
      ),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    });
  }

  /** What navigator.credentials.get() would give for the server's authentication options. */
  authenticate(options: Record<string, unknown>, origin = this.origin): Record<string, unknown> {
    const allowed = ((options.allowCredentials as { id: string }[] | undefined) ?? []).map(
      (c) => c.id,
    );
    const credential = this.credentials.find((c) => allowed.includes(b64url(c.id)));
    if (!credential) throw new Error('SoftAuthenticator: no allowed credential');
    credential.counter += 1;
    const authData = this.authData(options.rpId as string, credential.counter);
    const clientData = this.clientData('webauthn.get', options.challenge as string, origin);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      credential.privateKey,
    );
    return publicKeyCredential(credential, {
      clientDataJSON: b64url(clientData),
      authenticatorData: b64url(authData),
      signature: b64url(signature),
    });
  }
}
