import { ApiError } from '@shared/client/client';
import { type MailboxEntry, mailbox } from '@shared/contract/system';
import { client } from '@widgets/core/api';
import { Loader } from '@widgets/ui/Loader';
import { useEffect, useState } from 'react';
import type { z } from 'zod';

/** The local mailbox: what Waymark would have e-mailed, and the identity emulator's verification links. */
export default function MailboxPage() {
  const [entries, setEntries] = useState<z.infer<typeof MailboxEntry>[] | null>(null);
  const [error, setError] = useState('');
  const load = () => {
    client
      .call(mailbox, { query: {} })
      .then((r) => setEntries(r.data))
      .catch((err) =>
        setError(
          err instanceof ApiError && err.status === 404
            ? 'There is no local mailbox on this server: mail is delivered by e-mail.'
            : err instanceof ApiError
              ? err.message
              : 'The mailbox could not be loaded.',
        ),
      );
  };
  useEffect(load, []);
  return (
    <main id="main" className="page">
      <div className="row">
        <h1>Local mailbox</h1>
        <div className="spacer" />
        <button type="button" className="btn btn-secondary" onClick={load}>
          Refresh
        </button>
      </div>
      <p className="muted">
        Mail is not sent from this machine: it lands here. Configure SMTP_URL to deliver it.
      </p>
      {error ? <p className="alert alert-error">{error}</p> : null}
      {!entries && !error ? <Loader /> : null}
      {entries?.length === 0 ? <p className="empty">The mailbox is empty.</p> : null}
      {entries?.map((m) => (
        <article key={m._id} className="card mail">
          <h2>{m.subject}</h2>
          <p className="muted">
            To {m.to} · {new Date(m.createdAt).toLocaleString()} ·{' '}
            {m.source === 'identity' ? 'identity provider' : 'Waymark'}
          </p>
          {m.link ? (
            <p>
              <a href={m.link}>Open the link</a>
            </p>
          ) : (
            <pre className="mail-text">{m.text}</pre>
          )}
        </article>
      ))}
    </main>
  );
}
