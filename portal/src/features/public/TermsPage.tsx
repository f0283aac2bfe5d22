/** /terms_and_conditions and /terms (mentor §1, §2.16): last updated March 2023. */
import { Link } from 'react-router';
import { ADDRESS_LINES, COMPANY, SUPPORT_EMAIL } from '../../lib/site';
import { PolicyPage } from './PolicyPage';

const mail = <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>;

/** The terms' sections, in order: each an anchor id, a title and its text. */
const SECTIONS = [
  {
    id: 'eligibility',
    title: 'Who may use Waymark',
    body: (
      <p>
        You must be at least 13 years old. If you are under 18, you need the consent of a parent or guardian.
        Mentors, parents and organisations who add learners confirm that they may do so and, for learners
        under 18, that a parent or guardian agrees.
      </p>
    ),
  },
  {
    id: 'accounts',
    title: 'Your account',
    body: (
      <ul>
        <li>
          Give true information and keep your sign-in details to yourself; you are responsible for what is
          done with your account.
        </li>
        <li>
          Your name can be changed once from your profile; after that, ask our support team, since the name
          appears on your certificates.
        </li>
        <li>Tell us at {mail} if you think someone else is using your account.</li>
      </ul>
    ),
  },
  {
    id: 'service',
    title: 'Roadmaps and resources',
    body: (
      <p>
        A roadmap is a curated path through videos, articles and tasks. Most resources are published by others
        on their own sites; they remain theirs, are governed by their owners’ terms, and may change or
        disappear. We choose them with care but cannot guarantee their content or availability.
      </p>
    ),
  },
  {
    id: 'extension',
    title: 'The browser extension',
    body: (
      <p>
        The extension measures the time you spend on the resources assigned to you, as described in our
        Privacy Policy. Do not try to inflate the measured time (by scripts, or by leaving resources open
        without learning): learning reports are only useful when they are honest. You can pause or uninstall
        the extension at any time.
      </p>
    ),
  },
  {
    id: 'assessments',
    title: 'Assessments and awards',
    body: (
      <>
        <p>
          Assessments must be your own work: no help from others, no sharing of questions or answers, and no
          switching away to look answers up. Feathers, badges and certificates are awarded when your score is
          high enough and show your name, the roadmap or section and the date.
        </p>
        <p>
          We may withdraw an award that was obtained dishonestly. An award shows what you did on Waymark; it
          is not a degree or an accredited qualification.
        </p>
      </>
    ),
  },
  {
    id: 'plans',
    title: 'Plans and payment',
    body: (
      <>
        <ul>
          <li>
            <strong>Freemium</strong> — free for individuals: up to 10 free courses, with the extension and
            assessments.
          </li>
          <li>
            <strong>Enterprise</strong> — 75 rupees per user per month, billed annually: unlimited courses,
            the extension and assessments, a manager / admin account, reports and analytics.
          </li>
          <li>
            <strong>Advanced</strong> — 125 rupees per user per month, billed annually: everything in
            Enterprise plus live mentor sessions on selected topics.
          </li>
        </ul>
        <p>
          Prices are per learner seat and exclude applicable taxes. Payments are taken by our card payment
          provider; a subscription renews for the next billing period until it is cancelled. When a mentor
          removes a learner, the learner stays accessible until the end of the billing period already paid for
          and is then removed. We tell you about any change of price before it applies to your next period.
        </p>
      </>
    ),
  },
  {
    id: 'cancellation',
    title: 'Cancellation and refunds',
    body: (
      <p>
        You can cancel a subscription at any time; access continues until the end of the billing period
        already paid for. Payments are not refunded. The <Link to="/refund_policy">Refund Policy</Link> has
        the details.
      </p>
    ),
  },
  {
    id: 'acceptable-use',
    title: 'Acceptable use',
    body: (
      <ul>
        <li>Do not break the law, harass others or upload content you have no right to share.</li>
        <li>Do not try to break into Waymark, overload it, or read data that is not yours.</li>
        <li>Do not copy or resell Waymark’s roadmaps, questions or software.</li>
      </ul>
    ),
  },
  {
    id: 'content',
    title: 'Our content',
    body: (
      <p>
        The Waymark software, design, roadmaps as compiled by us and our question bank belong to {COMPANY}
        or its licensors. You may use them for your own learning. Questions and feedback you send us may be
        used to improve Waymark.
      </p>
    ),
  },
  {
    id: 'termination',
    title: 'Ending your use of Waymark',
    body: (
      <p>
        You may stop using Waymark and delete your account at any time; deletion is processed within 90 days
        and signing in during that time cancels it. We may suspend or close an account that breaks these
        terms, after telling you why where the law allows.
      </p>
    ),
  },
  {
    id: 'liability',
    title: 'Disclaimers and liability',
    body: (
      <p>
        Waymark is provided as it is. We work to keep it available and correct but do not promise that it will
        always be. To the extent the law allows, our total liability for any claim is limited to the amount
        you paid us in the twelve months before it, and we are not liable for indirect losses. Nothing in
        these terms limits rights you have under consumer law.
      </p>
    ),
  },
  {
    id: 'law',
    title: 'Governing law',
    body: <p>These terms are governed by the laws of India; the courts of Bengaluru have jurisdiction.</p>,
  },
  {
    id: 'changes',
    title: 'Changes to these terms',
    body: (
      <p>
        We may update these terms; the date above shows the latest version. For important changes we tell you
        before they apply. Continuing to use Waymark after that means you accept them.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        {ADDRESS_LINES.join(', ')}. E-mail: {mail}, or our <Link to="/support">contact form</Link>.
      </p>
    ),
  },
];

export default function TermsPage() {
  return (
    <PolicyPage
      title="Terms and Conditions"
      updated="March 2023"
      intro={
        <p>
          These terms govern your use of the Waymark website, the Waymark browser extension and the services
          around them, operated by {COMPANY} (“Waymark”, “we”). By creating an account or using Waymark you
          accept them. Our <Link to="/privacy_policy">Privacy Policy</Link> and{' '}
          <Link to="/refund_policy">Refund Policy</Link> are part of these terms.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
