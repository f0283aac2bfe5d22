/**
 * /support: 'Need help?' (mentor §2.15, §5, §8) — the contact form (name, e-mail, subject, message;
 * errors once a field is touched; 'Send Message' reads 'Sending...' meanwhile) posting to
 * /contact-us/send-email, and how else to reach support.
 */
import '../../layout/public.css';
import { zodResolver } from '@hookform/resolvers/zod';
import { contactUs } from '@shared/contract/catalogue';
import { ContactMessage, contactMessages } from '@shared/schemas/contact';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Field } from '@widgets/ui/Field';
import { useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import type { z } from 'zod';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';
import { SUPPORT_EMAIL, SUPPORT_HOURS } from '../../lib/site';

type ContactForm = z.input<typeof ContactMessage>;
const EMPTY: ContactForm = { name: '', email: '', subject: '', message: '' };

export default function SupportPage() {
  const { t } = useI18n();
  const formWords = useFormWords();
  useDocumentTitle(t('support.title'));
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState('');
  const thanks = useRef<HTMLDivElement>(null);
  const form = useForm<ContactForm>({
    resolver: zodResolver(ContactMessage, formWords),
    mode: 'onTouched',
    defaultValues: EMPTY,
  });
  const { register, handleSubmit, formState, reset } = form;
  const errors = formState.errors;

  const onSubmit = handleSubmit(async (values) => {
    setFailure('');
    try {
      await client.call(contactUs, { body: ContactMessage.parse(values) });
      reset(EMPTY);
      setSent(true);
      requestAnimationFrame(() => thanks.current?.focus());
    } catch (err) {
      setFailure(messageOf(err, t('support.failed')));
    }
  });

  return (
    <PublicPage>
      <div className="page-wide support-page">
        <h1>{t('support.title')}</h1>
        <p className="lead">{t('support.lead')}</p>
        <div className="support-layout">
          <section className="card" aria-labelledby="contact-title">
            <h2 id="contact-title">{t('support.write')}</h2>
            {sent ? (
              <div className="alert alert-success contact-thanks" role="status" tabIndex={-1} ref={thanks}>
                <div className="alert-body">
                  <strong>{t(contactMessages.thanksTitle)}</strong>
                  <p>{t(contactMessages.thanksBody)}</p>
                  <button type="button" className="btn btn-secondary" onClick={() => setSent(false)}>
                    {t('support.another')}
                  </button>
                </div>
              </div>
            ) : (
              <form onSubmit={onSubmit} noValidate>
                {failure ? (
                  <p className="alert alert-error" role="alert">
                    {failure}
                  </p>
                ) : null}
                <div className="form-grid">
                  <Field label={t('column.name')} error={errors.name?.message} required>
                    <input type="text" autoComplete="name" {...register('name')} />
                  </Field>
                  <Field label={t('column.email')} error={errors.email?.message} required>
                    <input type="email" autoComplete="email" {...register('email')} />
                  </Field>
                </div>
                <Field label={t('support.subject')} error={errors.subject?.message} required>
                  <input type="text" {...register('subject')} />
                </Field>
                <Field label={t('uninstall.message')} error={errors.message?.message} required>
                  <textarea rows={6} {...register('message')} />
                </Field>
                <button type="submit" className="btn" disabled={formState.isSubmitting}>
                  {formState.isSubmitting ? t('support.sending') : t('support.send')}
                </button>
              </form>
            )}
          </section>
          <aside className="card support-aside" aria-labelledby="support-other">
            <h2 id="support-other">{t('support.other')}</h2>
            <p>
              <Rich
                k="footer.email"
                values={{ email: SUPPORT_EMAIL }}
                components={{
                  0: (
                    <a href={`mailto:${SUPPORT_EMAIL}`} dir="ltr">
                      {SUPPORT_EMAIL}
                    </a>
                  ),
                }}
              />
              <br />
              {t(SUPPORT_HOURS)}
            </p>
            <p>{t('support.within24')}</p>
            <h3>{t('support.quick')}</h3>
            <ul>
              <li>
                <Rich k="support.q1" components={{ 0: <strong /> }} />
              </li>
              <li>
                <Rich k="support.q2" components={{ 0: <strong /> }} />
              </li>
              <li>
                <Rich k="support.q3" components={{ 0: <strong /> }} />
              </li>
              <li>
                <Rich k="support.q4" components={{ 0: <strong />, 1: <Link to="/refund_policy" /> }} />
              </li>
            </ul>
          </aside>
        </div>
      </div>
    </PublicPage>
  );
}
