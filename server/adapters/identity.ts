/**
 * The identity adapter: verifies Firebase ID tokens and, where it can, manages identity accounts.
 * Real tokens are RS256, verified against Google's published keys. The Auth emulator's tokens are unsigned
 * (`alg: none`); they are accepted only when FIREBASE_AUTH_EMULATOR_HOST is configured.
 */
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { unauthorized } from '../http/errors';

export interface IdentityClaims {
  uid: string;
  email: string;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
  /** password, google.com, microsoft.com, emailLink, … */
  provider: string;
}

export interface IdentityOobCode {
  email: string;
  requestType: string;
  oobLink: string;
  /** The code inside the link: what tells two mails apart. */
  oobCode: string;
}

export interface IdentityAdapter {
  verifyIdToken(token: string): Promise<IdentityClaims>;
  /** Removes the identity account (best effort; false when this adapter cannot). */
  deleteAccount(uid: string): Promise<boolean>;
  /** Verification and sign-in links the emulator has issued (empty for a real project). */
  pendingLinks(): Promise<IdentityOobCode[]>;
  readonly emulated: boolean;
}

const GOOGLE_JWKS =
  'https://www.googleapis.com/service_accounts/v1/jwk/securetoken@system.gserviceaccount.com';

function claimsOf(payload: Record<string, unknown>): IdentityClaims {
  const firebase = (payload.firebase ?? {}) as { sign_in_provider?: string };
  const uid = typeof payload.sub === 'string' ? payload.sub : '';
  const email = typeof payload.email === 'string' ? payload.email.toLowerCase() : '';
  if (!uid) throw unauthorized('The sign-in token names no account.', 'ID_TOKEN_INVALID');
  if (!email)
    throw unauthorized(
      'The account has no e-mail address. Use an account with an e-mail address.',
      'ID_TOKEN_NO_EMAIL',
    );
  return {
    uid,
    email,
    emailVerified: payload.email_verified === true,
    name: typeof payload.name === 'string' ? payload.name : null,
    picture: typeof payload.picture === 'string' ? payload.picture : null,
    provider: firebase.sign_in_provider ?? 'unknown',
  };
}

function decodeSegment(segment: string | undefined): Record<string, unknown> {
  if (!segment) throw new Error('segment');
  return JSON.parse(Buffer.from(segment, 'base64url').toString('utf8')) as Record<string, unknown>;
}

export function createIdentityAdapter(opts: {
  projectId: string;
  emulatorHost: string | null;
  jwksUrl?: string;
}): IdentityAdapter {
  const issuer = `https://securetoken.google.com/${opts.projectId}`;
  const jwks = createRemoteJWKSet(new URL(opts.jwksUrl ?? GOOGLE_JWKS), {
    cooldownDuration: 30_000,
    timeoutDuration: 5_000,
  });
  const emulatorBase = opts.emulatorHost ? `http://${opts.emulatorHost}` : null;

  async function verifyUnsigned(token: string): Promise<IdentityClaims> {
    const [h, p] = token.split('.');
    let header: Record<string, unknown>;
    let payload: Record<string, unknown>;
    try {
      header = decodeSegment(h);
      payload = decodeSegment(p);
    } catch {
      throw unauthorized('The sign-in token is not valid.', 'ID_TOKEN_INVALID');
    }
    if (header.alg !== 'none') throw unauthorized('The sign-in token is not valid.', 'ID_TOKEN_INVALID');
    const now = Math.floor(Date.now() / 1000);
    if (payload.iss !== issuer || payload.aud !== opts.projectId) {
      throw unauthorized('The sign-in token is for another project.', 'ID_TOKEN_INVALID');
    }
    if (typeof payload.exp !== 'number' || payload.exp < now) {
      throw unauthorized('The sign-in token has expired. Please sign in again.', 'ID_TOKEN_EXPIRED');
    }
    return claimsOf(payload);
  }

  return {
    emulated: Boolean(emulatorBase),
    async verifyIdToken(token) {
      let alg: unknown;
      try {
        alg = decodeProtectedHeader(token).alg;
      } catch {
        throw unauthorized('The sign-in token is not valid.', 'ID_TOKEN_INVALID');
      }
      if (alg === 'none') {
        if (!emulatorBase) throw unauthorized('The sign-in token is not signed.', 'ID_TOKEN_INVALID');
        return verifyUnsigned(token);
      }
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer,
          audience: opts.projectId,
          algorithms: ['RS256'],
        });
        return claimsOf(payload as Record<string, unknown>);
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode) throw err;
        const expired = (err as { code?: string }).code === 'ERR_JWT_EXPIRED';
        throw unauthorized(
          expired
            ? 'The sign-in token has expired. Please sign in again.'
            : 'The sign-in token is not valid.',
          expired ? 'ID_TOKEN_EXPIRED' : 'ID_TOKEN_INVALID',
        );
      }
    },
    async deleteAccount(uid) {
      if (!emulatorBase) return false;
      const res = await fetch(
        `${emulatorBase}/identitytoolkit.googleapis.com/v1/projects/${opts.projectId}/accounts:delete`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
          body: JSON.stringify({ localId: uid }),
        },
      );
      return res.ok;
    },
    async pendingLinks() {
      if (!emulatorBase) return [];
      try {
        const res = await fetch(`${emulatorBase}/emulator/v1/projects/${opts.projectId}/oobCodes`);
        if (!res.ok) return [];
        const json = (await res.json()) as { oobCodes?: IdentityOobCode[] };
        return json.oobCodes ?? [];
      } catch {
        return [];
      }
    },
  };
}
