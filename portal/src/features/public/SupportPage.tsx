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
  useDocumentTitle('Need help?');
  const [sent, setSent] = useState(false);
  const [failure, setFailure] = useState('');
  const thanks = useRef<HTMLDivElement>(null);
  const form = useForm<ContactForm>({
    resolver: zodResolver(ContactMessage),
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
      setFailure(messageOf(err, 'Your message could not be sent. Please try again later.'));
    }
  });

  return (
    <PublicPage>
      <div className="page-wide support-page">
        <h1>Need help?</h1>
        <p className="lead">
          Questions about a roadmap, the extension, an assessment or your subscription? Write to us: a person
          from our support team reads every message.
        </p>
        <div className="support-layout">
          <section className="card" aria-labelledby="contact-title">
            <h2 id="contact-title">Write to us</h2>
            {sent ? (
              <div className="alert alert-success contact-thanks" role="status" tabIndex={-1} ref={thanks}>
                <div className="alert-body">
                  <strong>{contactMessages.thanksTitle}</strong>
                  <p>{contactMessages.thanksBody}</p>
                  <button type="button" className="btn btn-secondary" onClick={() => setSent(false)}>
                    Send another message
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
                  <Field label="Name" error={errors.name?.message} required>
                    <input type="text" autoComplete="name" {...register('name')} />
                  </Field>
                  <Field label="Email" error={errors.email?.message} required>
                    <input type="email" autoComplete="email" {...register('email')} />
                  </Field>
                </div>
                <Field label="Subject" error={errors.subject?.message} required>
                  <input type="text" {...register('subject')} />
                </Field>
                <Field label="Message" error={errors.message?.message} required>
                  <textarea rows={6} {...register('message')} />
                </Field>
                <button type="submit" className="btn" disabled={formState.isSubmitting}>
                  {formState.isSubmitting ? 'Sending...' : 'Send Message'}
                </button>
              </form>
            )}
          </section>
          <aside className="card support-aside" aria-labelledby="support-other">
            <h2 id="support-other">Other ways to reach us</h2>
            <p>
              E-mail: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
              <br />
              {SUPPORT_HOURS}
            </p>
            <p>We answer within 24 hours on working days.</p>
            <h3>Quick answers</h3>
            <ul>
              <li>
                <strong>The extension shows grey or orange.</strong> Install it from your browser’s store and
                sign in to it from Waymark; it turns green once you are signed in.
              </li>
              <li>
                <strong>Learning time looks low.</strong> Time counts only on the resources of your assigned
                roadmaps, while their tab is in front or playing.
              </li>
              <li>
                <strong>Changing your name.</strong> You can change it once from your profile; after that,
                write to us.
              </li>
              <li>
                <strong>Payments and cancelling.</strong> See our{' '}
                <Link to="/refund_policy">Refund Policy</Link>.
              </li>
            </ul>
          </aside>
        </div>
      </div>
    </PublicPage>
  );
}
