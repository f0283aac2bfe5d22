/** /get-link (learner §2): 'Your Test Link is Generated' — the link went to the learner's stored e-mail. */
import { session } from '@widgets/core/session';
import { useSignalValue } from '@widgets/core/useSignal';
import { Link } from 'react-router';
import { appConfig } from '../../lib/config';

export default function GetLinkPage() {
  const email = useSignalValue(session)?.user.email;
  let mailbox = false;
  try {
    mailbox = appConfig().mailbox;
  } catch {
    // the configuration loads before any page; without it there is simply no mailbox link
  }
  return (
    <div className="page-narrow">
      <div className="card center stack">
        <h1>Your Test Link is Generated</h1>
        <p>
          We have sent the test link to your e-mail address{email ? <strong> {email}</strong> : null}. Click
          the link in that e-mail to read the instructions and start the test when you are ready.
        </p>
        <p className="muted">Not there after a few minutes? Check your spam folder.</p>
        <div className="form-actions" style={{ justifyContent: 'center' }}>
          {mailbox ? (
            <Link className="btn" to="/mailbox">
              Open the local mailbox
            </Link>
          ) : null}
          <Link className={mailbox ? 'btn btn-secondary' : 'btn'} to="/assesments">
            Your assessments
          </Link>
        </div>
      </div>
    </div>
  );
}
