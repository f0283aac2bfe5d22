/** /refund_policy (mentor §1, §2.16, §9): no refunds; cancelling ends access at the end of the billing period. */
import { Link } from 'react-router';
import { SUPPORT_EMAIL } from '../../lib/site';
import { PolicyPage } from './PolicyPage';

export default function RefundPolicyPage() {
  const mail = <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>;
  return (
    <PolicyPage
      title="Refund Policy"
      updated="March 2023"
      intro={
        <p>
          This policy applies to the paid Waymark plans (Enterprise and Advanced), paid per learner seat and
          billed annually. The Freemium plan is free, so there is nothing to refund.
        </p>
      }
      sections={[
        {
          id: 'no-refunds',
          title: 'No refunds',
          body: (
            <p>
              Payments are final. We do not refund payments, in full or in part — including for seats that
              were not used, learners removed during a period, or the rest of a billing period after
              cancelling.
            </p>
          ),
        },
        {
          id: 'cancellation',
          title: 'Cancelling',
          body: (
            <>
              <p>
                You can cancel your subscription at any time from the mentor portal or by writing to {mail}.
                Cancellation ends your access at the end of the current billing period: until then you and
                your learners keep everything you paid for, and you are not charged again.
              </p>
              <p>
                When you remove a learner, the learner stays accessible until the end of the billing period
                already paid for and is then removed.
              </p>
            </>
          ),
        },
        {
          id: 'billing-errors',
          title: 'Billing mistakes',
          body: (
            <p>
              If you were charged twice or charged an amount you did not agree to, tell us at {mail} within 30
              days of the charge. A charge made by mistake is reversed to the card it was taken from; this is
              the correction of an error, not a refund.
            </p>
          ),
        },
        {
          id: 'questions',
          title: 'Questions',
          body: (
            <p>
              Read this policy together with our <Link to="/terms_and_conditions">Terms and Conditions</Link>.
              For any question about a payment, write to {mail} or use our{' '}
              <Link to="/support">contact form</Link>.
            </p>
          ),
        },
      ]}
    />
  );
}
