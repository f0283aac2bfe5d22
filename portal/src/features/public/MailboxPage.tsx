/**
 * /mailbox, the local mailbox of a development server (no SMTP configured): what Waymark would have
 * e-mailed, and the identity emulator's verification, sign-in and reset links, newest first, each with the
 * time it arrived (for the emulator's links, the time the server first listed them). It refreshes itself
 * every few seconds while it is shown, as a mail client would.
 */
import '../../layout/public.css';
import { ApiError } from '@shared/client/client';
import { type MailboxEntry, mailbox } from '@shared/contract/system';
import { formatDateTime } from '@shared/rules/format-date';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useCallback, useEffect, useState } from 'react';
import type { z } from 'zod';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';

/** How often the open mailbox looks for new mail. */
export const MAILBOX_REFRESH_MS = 5000;

export default function MailboxPage() {
  const [entries, setEntries] = useState<z.infer<typeof MailboxEntry>[] | null>(null);
  const [error, setError] = useState('');
  const { t, locale } = useI18n();
  useDocumentTitle(t('mailbox.title'));
  const load = useCallback(() => {
    client
      .call(mailbox, { query: {} })
      .then((r) => {
        setEntries(r.data);
        setError('');
      })
      .catch((err) =>
        setError(
          err instanceof ApiError && err.status === 404
            ? t('mailbox.none')
            : err instanceof ApiError
              ? err.message
              : t('mailbox.loadFailed'),
        ),
      );
  }, [t]);
  useEffect(() => {
    load();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') load();
    }, MAILBOX_REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);
  return (
    <PublicPage>
      <div className="page-wide mailbox-page">
        <div className="row">
          <h1>{t('mailbox.title')}</h1>
          <div className="spacer" />
          <button type="button" className="btn btn-secondary" onClick={load}>
            {t('mailbox.refresh')}
          </button>
        </div>
        <p className="muted">{t('mailbox.explain', { setting: 'SMTP_URL' })}</p>
        {error ? <LoadFailed>{error}</LoadFailed> : null}
        {!entries && !error ? <Loader /> : null}
        {entries?.length === 0 ? <p className="empty">{t('mailbox.empty')}</p> : null}
        {entries?.map((m) => (
          <article key={m._id} className="card mail" aria-labelledby={`mail-${m._id}`}>
            {/* the mail as it was sent, in its recipient's language: content, not this page's words */}
            <h2 id={`mail-${m._id}`} translate="no">
              {m.subject}
            </h2>
            <p className="muted">
              {t('mailbox.to')}{' '}
              <span className="cell-wrap" dir="ltr" translate="no">
                {m.to}
              </span>{' '}
              · <time dateTime={m.createdAt}>{formatDateTime(m.createdAt, undefined, locale)}</time> ·{' '}
              {m.source === 'identity' ? t('mailbox.identity') : 'Waymark'}
            </p>
            {m.link ? (
              <p>
                <a href={m.link}>{t('mailbox.open')}</a>
              </p>
            ) : (
              <pre className="mail-text" translate="no">
                {m.text}
              </pre>
            )}
          </article>
        ))}
      </div>
    </PublicPage>
  );
}
