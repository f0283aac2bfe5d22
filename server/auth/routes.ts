/**
 * The sign-in calls (shared/contract/auth.ts): signing in with an identity provider (sign-in.ts), the
 * session's tokens (tokens.ts), the CLI's sign-in from a browser (cli-login.ts).
 */
import { authRouter } from '@shared/contract/auth';
import type { FastifyInstance } from 'fastify';
import type { IdentityAdapter } from '../adapters/identity';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { answer, ok, serve } from '../http/routes';
import { approveCliLogin, pollCliLogin, startCliLogin } from './cli-login';
import { emailExists, roleOf, signIn } from './sign-in';
import type { TokenService } from './tokens';

export interface AuthDeps {
  db: Db;
  config: Config;
  identity: IdentityAdapter;
  tokens: TokenService;
  /**
   * The organisation whose own sign-in an address must use (single sign-on required for its verified
   * domain, server/integrations/sso), or null: given by the assembly, as auth imports no integration.
   */
  ssoRequiredFor?: (email: string) => Promise<string | null>;
}

export function authRoutes(app: FastifyInstance, { db, config, identity, tokens, ssoRequiredFor }: AuthDeps) {
  serve(app, authRouter, {
    signInWithFirebase: async ({ body }) =>
      ok({ data: await signIn(db, identity, tokens, body, ssoRequiredFor) }),
    async refresh({ body }) {
      const next = await tokens.rotate(body.refreshToken, body.device, roleOf);
      return ok({ data: { token: next.token, refreshToken: next.refreshToken } });
    },
    async logout({ body }) {
      await tokens.revokeByToken(body.refreshToken, body.device);
      return ok({ data: { ok: true } });
    },
    async socketToken({ query, caller }) {
      let info: unknown = null;
      if (query.deviceInfo) info = JSON.parse(query.deviceInfo);
      const issued = await tokens.issue(caller.user, query.device, info);
      return ok({
        data: {
          extensionAccessToken: issued.token,
          extensionRefreshToken: issued.refreshToken,
          uuid: caller.user.id,
        },
      });
    },
    checkEmailExist: async ({ body }) => ok({ data: { isExist: await emailExists(db, body.email) } }),
    cliStart: async ({ body }) => ok({ data: await startCliLogin(db, config.publicUrl, body?.deviceInfo) }),
    async cliApprove({ body, caller }) {
      await approveCliLogin(db, caller.id, body.userCode);
      return ok({ data: { ok: true } });
    },
    async cliPoll({ body }) {
      const polled = await pollCliLogin(db, tokens, body.deviceCode);
      if ('pending' in polled) {
        return answer(428, {
          statusCode: 428,
          error: 'Precondition Required',
          message: 'Waiting for approval in the browser.',
          errorCode: 'AUTHORIZATION_PENDING',
        });
      }
      return ok({ data: polled });
    },
  });
}
