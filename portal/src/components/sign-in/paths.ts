/** Where the verification e-mail's link continues to once the address is verified: /login says so. */
export const VERIFIED_CONTINUE_PATH = '/login?verified=1';
