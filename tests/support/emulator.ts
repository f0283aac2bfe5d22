/** The Firebase Auth emulator's REST API, for test fixtures (accounts, verification codes). */
const PROJECT = 'demo-waymark';

export type Emulator = ReturnType<typeof emulatorApi>;

export function emulatorApi(host: string, projectId = PROJECT) {
  const base = `http://${host}`;
  const post = async (path: string, body: unknown, owner = false) => {
    const res = await fetch(
      `${base}/identitytoolkit.googleapis.com/v1${path}${path.includes('?') ? '&' : '?'}key=demo-api-key`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(owner ? { authorization: 'Bearer owner' } : {}) },
        body: JSON.stringify(body),
      },
    );
    const json = (await res.json()) as Record<string, unknown>;
    if (!res.ok) throw new Error(`emulator ${path}: ${JSON.stringify(json)}`);
    return json;
  };
  return {
    /** An e-mail/password account that Waymark does not know yet. */
    async createAccount(
      email: string,
      password: string,
      opts: { verified?: boolean; displayName?: string } = {},
    ) {
      const json = await post('/accounts:signUp', { email, password, displayName: opts.displayName });
      const uid = json.localId as string;
      if (opts.verified)
        await post(`/projects/${projectId}/accounts:update`, { localId: uid, emailVerified: true }, true);
      return uid;
    },
    async idToken(email: string, password: string) {
      const json = await post('/accounts:signInWithPassword', { email, password, returnSecureToken: true });
      return json.idToken as string;
    },
    async oobCodes(
      email?: string,
    ): Promise<{ email: string; oobLink: string; oobCode: string; requestType: string }[]> {
      const res = await fetch(`${base}/emulator/v1/projects/${projectId}/oobCodes`);
      const json = (await res.json()) as {
        oobCodes: { email: string; oobLink: string; oobCode: string; requestType: string }[];
      };
      return json.oobCodes.filter((c) => !email || c.email === email);
    },
    /** Has the emulator send (that is, list) a verification e-mail to the account, as the portal's SDK does. */
    async sendVerificationEmail(email: string, password: string) {
      const idToken = await this.idToken(email, password);
      await post('/accounts:sendOobCode', { requestType: 'VERIFY_EMAIL', idToken });
    },
    /** Follows the newest verification link sent to this address. */
    async verifyEmail(email: string) {
      const codes = (await this.oobCodes(email)).filter((c) => c.requestType === 'VERIFY_EMAIL');
      const code = codes.at(-1);
      if (!code) throw new Error(`no verification e-mail for ${email}`);
      await post('/accounts:update', { oobCode: code.oobCode });
    },
  };
}

/** The run's emulator (started by the global setup, or the one WAYMARK_E2E_EMULATOR_HOST names). */
export const runEmulator = (): Emulator =>
  emulatorApi(process.env.WAYMARK_E2E_EMULATOR_HOST ?? '127.0.0.1:9099');

let counter = 0;
export const uniqueEmail = (prefix: string) =>
  `${prefix}-${Date.now().toString(36)}-${++counter}@example.com`;
