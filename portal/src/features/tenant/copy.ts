/**
 * The mentor portal's words (mentor §2.3–2.6, §4, §5, §8), spelling corrected where the specification's
 * text is misspelt (each correction is in docs/copy-errata.json).
 */
import { FREE_SEATS } from '@shared/rules/seats';
import { SEAT_ACCESS_RULE } from '@shared/schemas/tenant';

export const TENANT_COPY = {
  // Add User (mentor §5, §8)
  alreadyAssigned: 'Email Already Assigned For You',
  emailNotExist: 'Email does not exist',
  inviteThem: 'User does not exist, please invite them',
  inviteSent: (email: string) =>
    `An invitation was sent to ${email}. They must register through the link in that e-mail to join.`,
  inviteFailed:
    'Unfortunately, it looks like the email was not sent to the invited user. We will look into the issue and try to resend the invitation as soon as possible.',
  added: (who: string) => `${who} was added to your users.`,
  offerLimit: `You already have ${FREE_SEATS} users. To add more users, the extra users must be paid for.`,
  // subscription (mentor §4, §8)
  subscriptionCancel: 'Subscription Cancelled...',
  paymentFailedToStart:
    'We could not start the payment. If you have any issues subscribing, please contact the payment provider.',
  paymentPaid: 'Payment was successfully paid!',
  paymentFailed: 'Payment failed',
  couponInvalid: 'Coupon Code Not Valid',
  // users table (mentor §2.3)
  disabledTip: SEAT_ACCESS_RULE,
  removeQuestion: (who: string) =>
    `Do you want to remove ${who}? While you are subscribed, you can still access this learner until the end of this billing cycle; then they are removed and no longer billed.`,
  // roadmaps for a learner (mentor §2.6, §8)
  roadmapLimit: 'Already two Roadmaps are assigned for this user.',
  noRoadmaps: 'No Roadmaps found, Take one now',
} as const;
