import type { MessageKey } from '@shared/i18n/keys';
import { useI18n } from '@widgets/core/i18n';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { AuthShell } from './AuthShell';

const CHOICES = [
  {
    value: '/learner',
    title: 'whoIAm.learner',
    tagline: 'whoIAm.learnerTagline',
    text: 'whoIAm.learnerText',
  },
  {
    value: '/tenant',
    title: 'whoIAm.mentor',
    tagline: 'whoIAm.mentorTagline',
    text: 'whoIAm.mentorText',
  },
] as const satisfies readonly { value: string; title: MessageKey; tagline: MessageKey; text: MessageKey }[];

/** The role chooser. */
export default function WhoIAmPage() {
  const navigate = useNavigate();
  const { t } = useI18n();
  const [choice, setChoice] = useState<string>('/learner');
  return (
    <AuthShell title={t('whoIAm.title')} footer={<Link to="/">{t('common.back')}</Link>}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          navigate(choice);
        }}
      >
        <fieldset className="role-cards">
          <legend className="visually-hidden">{t('whoIAm.legend')}</legend>
          {CHOICES.map((c) => (
            <label key={c.value} className={`role-card${choice === c.value ? ' selected' : ''}`}>
              <input
                type="radio"
                name="role"
                value={c.value}
                checked={choice === c.value}
                onChange={() => setChoice(c.value)}
              />
              <span className="role-title">{t(c.title)}</span>
              <span className="badge badge-primary">{t(c.tagline)}</span>
              <span className="muted">{t(c.text)}</span>
            </label>
          ))}
        </fieldset>
        <button type="submit" className="btn btn-block">
          {t('common.continue')}
        </button>
      </form>
    </AuthShell>
  );
}
