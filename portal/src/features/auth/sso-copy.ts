/** The words of signing in through an organisation's identity provider. */
export const SSO_COPY = {
  button: 'Continue with your organisation',
  intro: 'Enter your work e-mail address: your organisation’s sign-in opens next.',
  emailLabel: 'Work e-mail',
  go: 'Continue',
  signingIn: 'Signing you in…',
  failed: 'The sign-in through your organisation did not complete. Please try again.',
  reasons: (organisation: string): Record<string, string> => ({
    NO_SEAT: `${organisation} has no free learner seat for you yet. Your mentor has been told; try again once they have added a seat.`,
    EXPIRED: 'This sign-in took too long or was already used. Please start again.',
    DENIED: `${organisation}’s sign-in was cancelled or refused.`,
    WRONG_DOMAIN: `The address ${organisation}’s sign-in gave is not on a domain ${organisation} has verified with Waymark. Ask your administrator.`,
    NOT_A_LEARNER:
      'This address belongs to a mentor’s account, which signs in with its own password or provider.',
    FAILED: `${organisation}’s sign-in could not be completed. Please try again, or ask your administrator.`,
  }),
} as const;
