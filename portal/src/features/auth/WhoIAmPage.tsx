import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AuthShell } from './AuthShell';

const CHOICES = [
  {
    value: '/learner',
    title: 'Learner',
    tagline: 'For Individuals',
    text: 'Follow roadmaps, track your learning time and earn awards.',
  },
  {
    value: '/tenant',
    title: 'Mentor / Manager',
    tagline: 'For Companies',
    text: 'Manage learners, follow their progress and build assessments.',
  },
] as const;

/** The role chooser. */
export default function WhoIAmPage() {
  const navigate = useNavigate();
  const [choice, setChoice] = useState<string>('/learner');
  return (
    <AuthShell title="How are you planning to use the product?" footer={<Link to="/">Back</Link>}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          navigate(choice);
        }}
      >
        <fieldset className="role-cards">
          <legend className="visually-hidden">Choose how you will use Waymark</legend>
          {CHOICES.map((c) => (
            <label key={c.value} className={`role-card${choice === c.value ? ' selected' : ''}`}>
              <input
                type="radio"
                name="role"
                value={c.value}
                checked={choice === c.value}
                onChange={() => setChoice(c.value)}
              />
              <span className="role-title">{c.title}</span>
              <span className="badge badge-primary">{c.tagline}</span>
              <span className="muted">{c.text}</span>
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn btn-block">
          Continue
        </button>
      </form>
    </AuthShell>
  );
}
