import { HOME_BY_ROLE } from '@shared/rules/navigation';
import { useSignalValue } from '@widgets/core/useSignal';
import { Link } from 'react-router';
import { currentUser } from '../../app/auth';

/** The public landing page. */
export default function LandingPage() {
  const user = useSignalValue(currentUser);
  const signedIn = user && user !== 'loading';
  return (
    <div className="landing">
      <header className="landing-nav">
        <Link to="/" className="brand" aria-label="Waymark home">
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>Waymark</span>
        </Link>
        <div className="spacer" />
        {signedIn ? (
          <Link className="btn" to={HOME_BY_ROLE[user.role]}>
            Go to your dashboard
          </Link>
        ) : (
          <>
            <Link className="btn btn-secondary" to="/login">
              LOGIN
            </Link>
            <Link className="btn" to="/who-i-am">
              GET STARTED
            </Link>
          </>
        )}
      </header>
      <main id="main">
        <section className="hero">
          <h1>Learn with a map. Prove it with awards.</h1>
          <p>
            Follow curated roadmaps, let the Waymark extension measure your learning time, take assessments at
            every step and earn feathers, badges and certificates you can share.
          </p>
          {signedIn ? null : (
            <Link className="btn" to="/who-i-am">
              GET STARTED
            </Link>
          )}
        </section>
      </main>
    </div>
  );
}
