/** Where people go after signing in, after the basic profile, and which home their role has. */
import type { Role } from '../schemas/common';

export interface NavUser {
  role: Role;
  isFirstLogin: boolean;
}
export interface NavExtension {
  isPresent: boolean;
  isLogedIn: boolean;
}

/**
 * A role's home: a learner's roadmaps; every other role — TENANT, and an administrator's role label, which
 * the spec names only as 'other roles' landing on /portal/users (§6) — the mentor portal's users page.
 */
export function homeOf(role: Role | (string & {})): string {
  return role === 'USER' ? '/my-roadmaps' : '/portal/users';
}

/** After sign-in: first login → /basic-profile; a learner whose extension is present but signed out → /check; else the role's home. */
export function destinationAfterSignIn(user: NavUser, ext: NavExtension): string {
  if (user.isFirstLogin) return '/basic-profile';
  return destinationAfterProfile(user, ext);
}

/** After the basic profile (and for returning people): /check, /my-roadmaps or /portal/users. */
export function destinationAfterProfile(user: Pick<NavUser, 'role'>, ext: NavExtension): string {
  if (user.role === 'USER' && ext.isPresent && !ext.isLogedIn) return '/check';
  return homeOf(user.role);
}

/** /check: where to go once the extension is dealt with. Only same-site paths are honoured. */
export function checkRedirect(role: Role, redirectTo: string | null | undefined): string {
  if (redirectTo?.startsWith('/') && !redirectTo.startsWith('//')) return redirectTo;
  return homeOf(role);
}
