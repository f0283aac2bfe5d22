/** /thanks: after the uninstall feedback. */
import { Link } from 'react-router';

export default function ThanksPage() {
  return (
    <div className="page-narrow">
      <div className="card center">
        <h1>Thank you</h1>
        <p>Your feedback has reached the Waymark team. Thank you for taking the time to write it.</p>
        <p>
          Changed your mind? You can install the extension again at any time from{' '}
          <Link to="/dashboard">your dashboard</Link>.
        </p>
      </div>
    </div>
  );
}
