/** /privacy_policy (mentor §1, §2.16): last updated January 2023. */
import { Link } from 'react-router';
import { ADDRESS_LINES, COMPANY, SUPPORT_EMAIL } from '../../lib/site';
import { PolicyPage } from './PolicyPage';

const mail = <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>;

/** The privacy policy' sections, in order: each an anchor id, a title and its text. */
const SECTIONS = [
  {
    id: 'who-we-are',
    title: 'Who we are',
    body: (
      <p>
        Waymark is operated by {COMPANY}, {ADDRESS_LINES.slice(1).join(', ')}. For any question about your
        data, write to {mail}; our grievance officer answers at the same address.
      </p>
    ),
  },
  {
    id: 'age',
    title: 'Who may use Waymark',
    body: (
      <p>
        You must be at least 13 years old to use Waymark. If you are under 18, use Waymark with the consent of
        a parent or guardian, who may also manage your account as your mentor. If we learn that a child under
        13 has created an account, we delete it.
      </p>
    ),
  },
  {
    id: 'what-we-collect',
    title: 'What we collect',
    body: (
      <>
        <ul>
          <li>
            <strong>Account:</strong> your name, e-mail address, profile picture from your sign-in provider,
            the role you chose (learner, or mentor / manager) and how you sign in (Google, Microsoft or e-mail
            and password). Your password is held by our identity provider, never by Waymark.
          </li>
          <li>
            <strong>Profile:</strong> your mobile number and country code and, if you give them, your address,
            T-shirt size, LinkedIn profile address and, for mentors, whether you are a parent, mentor or
            manager.
          </li>
          <li>
            <strong>Learning time:</strong> the extension records the time you spend on the resources of the
            roadmaps assigned to you, and only on their addresses (its popup lists them) — every half minute,
            which resource, when, and whether its tab was in front with you active or only playing sound. It
            records no other page, no page content, nothing you type, and nothing in private or incognito
            windows; you can pause it at any time. On <em>What was tracked</em> you see every stretch it
            recorded, by day, delete a stretch or a whole day (your totals and your mentor’s figures lose it
            at once, and it is never recorded again), and download all of it as JSON or CSV.
          </li>
          <li>
            <strong>Assessments:</strong> the answers you give, your scores, the awards you earn, and, while
            you take a test, its focus record with the server’s time: when you leave the test’s tab or window
            and come back, when you paste into an answer (how many characters, never what was pasted), when
            the test is open in a second tab, and when the connection drops and returns. The test tells you so
            before it starts. You and your mentor see the same record on the test’s answers; it is shown as
            context, never as proof of anything.
          </li>
          <li>
            <strong>Roadmaps and tasks:</strong> the roadmaps you select, the prerequisite assessment you take
            and the tasks you submit.
          </li>
          <li>
            <strong>Messages:</strong> what you send us through the contact form and the feedback you give
            when uninstalling the extension or about a question.
          </li>
          <li>
            <strong>Technical data:</strong> your browser and device type, your sign-in sessions and the
            server logs we keep to protect the service.
          </li>
          <li>
            <strong>Payments (mentors and organisations):</strong> the number of seats and the state of your
            subscription. Card details go straight to our card payment provider; we never see them.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'how-we-use',
    title: 'How we use it',
    body: (
      <ul>
        <li>To run your account and sign you in.</li>
        <li>To assign roadmaps, show your dashboard and measure your progress.</li>
        <li>To draw, score and review assessments and to create your feathers, badges and certificates.</li>
        <li>To let your mentor or organisation follow your progress, if they added you.</li>
        <li>To answer your messages and send the e-mails the service needs (invitations, verification).</li>
        <li>To keep Waymark secure and to improve our roadmaps and questions.</li>
      </ul>
    ),
  },
  {
    id: 'who-sees-it',
    title: 'Who can see it',
    body: (
      <>
        <p>We do not sell your personal data and we show no advertising. Your data is seen by:</p>
        <ul>
          <li>
            <strong>Your mentor or organisation</strong>, when they added you: your profile, your roadmaps,
            your learning time (daily totals, time per resource and topic, learning days), your assessment
            answers with their focus record, and your awards — and they can download these tables as files.
          </li>
          <li>
            <strong>Your mentor’s or organisation’s own systems</strong>, when they connect Waymark to them
            (their HR or learning systems, through webhooks or a learning record store): when a roadmap is
            assigned to you or completed, your seat added or removed, a test evaluated (your score and whether
            you passed — never your answers) and an award issued or revoked, and, once each day has ended
            (UTC), the minutes tracked that day on each of your roadmaps. These go only to the mentors and
            organisations that added you, never to anyone else.
          </li>
          <li>
            <strong>Anyone with the link to one of your awards:</strong> an award page shows your name, the
            roadmap or section and the date. You choose whom to share it with.
          </li>
          <li>
            <strong>Our service providers</strong>, only to run Waymark for us: hosting, the identity provider
            (Firebase Authentication), e-mail delivery and card payments.
          </li>
          <li>Authorities, when the law requires it.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'storage',
    title: 'Cookies and storage in your browser',
    body: (
      <p>
        Waymark keeps your session in your browser’s local storage, together with what you started before
        signing in (a roadmap you selected, a resource link you opened), so that signing in can finish it. We
        use no advertising or tracking cookies.
      </p>
    ),
  },
  {
    id: 'retention',
    title: 'How long we keep it, and deleting your account',
    body: (
      <p>
        We keep your data while your account exists. You can ask for your account to be deleted from your
        profile. Deletion is processed within 90 days; signing in during those 90 days cancels it. After that
        your account, learning time, answers and awards are deleted, and your award links stop working.
        Messages you sent us are kept for up to one year.
      </p>
    ),
  },
  {
    id: 'rights',
    title: 'Your choices and rights',
    body: (
      <p>
        You can see and correct your profile at any time, pause or uninstall the extension, and delete your
        account. You can also ask us for a copy of your data, or to correct or delete it, by writing to {mail}
        . We answer within 30 days.
      </p>
    ),
  },
  {
    id: 'security',
    title: 'Security',
    body: (
      <p>
        Data travels encrypted between your browser and Waymark. Sign-in sessions are short-lived and tied to
        your device, and the keys that renew them are stored only in hashed form. Access to personal data
        inside Waymark is limited to the people who need it to run the service.
      </p>
    ),
  },
  {
    id: 'changes',
    title: 'Changes to this policy',
    body: (
      <p>
        When we change this policy we update the date above and, for important changes, tell you by e-mail or
        in Waymark before they apply. Read it together with our{' '}
        <Link to="/terms_and_conditions">Terms and Conditions</Link>.
      </p>
    ),
  },
  {
    id: 'contact',
    title: 'Contact',
    body: (
      <p>
        {ADDRESS_LINES.join(', ')}. E-mail: {mail}. You can also use our{' '}
        <Link to="/support">contact form</Link>.
      </p>
    ),
  },
];

export default function PrivacyPolicyPage() {
  return (
    <PolicyPage
      title="Privacy Policy"
      updated="January 2023"
      intro={
        <p>
          This policy explains what personal data {COMPANY} (“Waymark”, “we”) collects when you use the
          Waymark website, the Waymark browser extension and the services around them, why we collect it, who
          can see it and the choices you have. We collect only what we need to help you learn and to show your
          progress.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
