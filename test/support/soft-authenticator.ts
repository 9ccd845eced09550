import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

/** User present, user verified, attested credential data included. */
const FLAGS = { UP: 0x01, UV: 0x04, AT: 0x40 } as const;

/**
 * A software passkey for the HTTP tests: a P-256 key pair and the WebAuthn encoding an
 * authenticator produces (CBOR attestation object with `none` attestation, ES256 assertions), so
 * the server's verification (SimpleWebAuthn) runs on real signatures. The browser tests use
 * Chromium's own virtual authenticator instead.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;
  private userHandle: string | undefined;

  readonly origin: string;
  private readonly options: { userVerified?: boolean };

  constructor(origin: string, options: { userVerified?: boolean } = {}) {
    this.origin = origin;
    this.options = options;
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicJwk = pair.publicKey.export({ format: 'jwk' }) as { x: string; y: string };
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** navigator.credentials.create(), as @simplewebauthn/browser's startRegistration() returns it. */
  register(options: PublicKeyCredentialCreationOptionsJSON): RegistrationResponseJSON {
    this.userHandle = options.user.id;
    const clientDataJSON = this.clientData('webauthn.create', options.challenge);
    const coseKey = new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(this.publicJwk.x, 'base64url')],
      [-3, Buffer.from(this.publicJwk.y, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, isoCBOR.encode(coseKey)]);
    const verified = this.options.userVerified ?? true;
    const authData = Buffer.concat([this.authDataHead(options.rp.id!, FLAGS.AT, verified), attested]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** navigator.credentials.get(), as startAuthentication() returns it; `userVerified: false` skips the PIN. */
  assert(
    options: PublicKeyCredentialRequestOptionsJSON,
    { userVerified = this.options.userVerified ?? true }: { userVerified?: boolean } = {},
  ): AuthenticationResponseJSON {
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authData = this.authDataHead(options.rpId!, 0, userVerified);
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle ? { userHandle: this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  private authDataHead(rpId: string, extraFlags: number, userVerified: boolean): Buffer {
    this.counter += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const flags = FLAGS.UP | (userVerified ? FLAGS.UV : 0) | extraFlags;
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), counter]);
  }
}
