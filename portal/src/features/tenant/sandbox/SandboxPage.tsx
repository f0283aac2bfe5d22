/**
 * /portal/sandbox: the mentor's sandbox (decision 041) — demo learners with open test links to build a page
 * with the elements against. Creates it, lists its links with the snippet of each (`<wm-test-taker>`, and
 * the award's `<wm-award>` once earned) and a link to try it in the playground, and resets its attempts
 * after a confirmation. Every part of it says Sandbox.
 */
import { ApiError } from '@shared/client/client';
import { createSandbox, getSandbox, resetSandbox } from '@shared/contract/sandbox';
import { formatDateTime } from '@shared/rules/format-date';
import { SANDBOX_TEXT } from '@shared/rules/sandbox';
import type { Sandbox } from '@shared/schemas/sandbox';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useId, useState } from 'react';

type SandboxLink = Sandbox['links'][number];

/** The snippet of a link's element, with this server's address (the partner copies it). */
export function snippetOf(link: SandboxLink, origin = window.location.origin): string {
  const award = link.awardUrl ? /\/(feather|badge|certificate)\/([^/]+)$/.exec(link.awardUrl) : null;
  return award
    ? `<script type="module" src="${origin}/widgets/award.js"></script>\n<wm-award link-id="${award[2]}"></wm-award>`
    : `<script type="module" src="${origin}/widgets/test-taker.js"></script>\n<wm-test-taker link-id="${link.linkId}"></wm-test-taker>`;
}

export default function SandboxPage() {
  const loaded = useCall((signal) => client.call(getSandbox, { signal }).then((r) => r.data), []);
  const [sandbox, setSandbox] = useState<Sandbox | null | undefined>(undefined);
  const [busy, setBusy] = useState<'create' | 'reset' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [copied, setCopied] = useState<string | null>(null);
  const headingId = useId();
  const shown = sandbox === undefined ? loaded.data : sandbox;

  async function run(action: 'create' | 'reset') {
    setBusy(action);
    setError(null);
    setConfirming(false);
    try {
      const res = await client.call(action === 'create' ? createSandbox : resetSandbox);
      setSandbox(res.data);
      setStatus(
        action === 'create'
          ? 'Your sandbox is ready.'
          : 'Every attempt is back to its start: each link is open again, with no answer or score.',
      );
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'Something Went Wrong');
    } finally {
      setBusy(null);
    }
  }

  async function copy(link: SandboxLink) {
    try {
      await navigator.clipboard.writeText(snippetOf(link));
      setCopied(link.linkId);
    } catch {
      setCopied(null);
    }
  }

  const columns: Column<SandboxLink>[] = [
    { header: 'Learner', cell: (l) => l.learnerName },
    {
      header: 'Test',
      cell: (l) => (
        <>
          <span className="badge">{l.type}</span> {l.title}
        </>
      ),
    },
    { header: 'Roadmap', cell: (l) => l.roadmapName },
    {
      header: 'State',
      cell: (l) => (l.isCompleted ? `${l.status} (${Math.round(l.percentage ?? 0)} %)` : 'Open'),
    },
    { header: 'Link id', cell: (l) => <code>{l.linkId}</code> },
    {
      header: 'Action',
      cell: (l) => (
        <div className="row">
          <a href={l.awardUrl ?? l.testUrl} target="_blank" rel="noopener noreferrer">
            {l.awardUrl ? 'Award' : 'Test page'}
            <span className="visually-hidden">
              {' '}
              of {l.learnerName}'s {l.title} (opens in a new tab)
            </span>
          </a>
          <a
            href={`/widgets/playground?element=${l.awardUrl ? 'wm-award' : 'wm-test-taker'}&link-id=${encodeURIComponent(l.awardUrl ? (l.awardUrl.split('/').pop() ?? l.linkId) : l.linkId)}`}
          >
            Playground
            <span className="visually-hidden">
              {' '}
              with {l.learnerName}'s {l.title}
            </span>
          </a>
          <button type="button" className="btn btn-secondary" onClick={() => void copy(l)}>
            {copied === l.linkId ? 'Copied' : 'Copy snippet'}
            <span className="visually-hidden">
              {' '}
              of {l.learnerName}'s {l.title}
            </span>
          </button>
        </div>
      ),
    },
  ];

  return (
    <div className="page wm-sandbox-page">
      <h1 id={headingId}>
        Sandbox <span className="badge badge-warning">{SANDBOX_TEXT.mark}</span>
      </h1>
      <p>
        A place to build a page with Waymark's elements: demo learners on roadmaps of the catalogue, each with
        open test links. Its learners are not your users and are never billed; its links never expire and can
        be taken again at once; every test and award of it says {SANDBOX_TEXT.mark}, and no award of it is a
        credential. Reset it whenever you want its tests untaken again.
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {error ? <LoadFailed>{error}</LoadFailed> : null}
      {loaded.error ? (
        <LoadFailed error={loaded.error} />
      ) : shown === null ? (
        <section className="card" aria-label="No sandbox yet">
          <p>You have no sandbox yet.</p>
          <button type="button" className="btn" disabled={busy !== null} onClick={() => void run('create')}>
            {busy === 'create' ? <Spinner /> : null} Create sandbox
          </button>
        </section>
      ) : !shown ? (
        <Loader />
      ) : (
        <>
          <section className="card stack" aria-labelledby={`${headingId}-about`}>
            <h2 id={`${headingId}-about`}>Your sandbox</h2>
            <p className="muted">
              Created {formatDateTime(shown.createdAt)}
              {shown.resetAt
                ? `; reset ${shown.resets} ${shown.resets === 1 ? 'time' : 'times'}, last ${formatDateTime(shown.resetAt)}`
                : ''}
              . Learners: {shown.learners.map((l) => l.name).join(', ')}. Roadmaps:{' '}
              {shown.roadmaps.map((r) => r.name).join(', ')}.
            </p>
            <div className="row">
              <button
                type="button"
                className="btn btn-secondary"
                disabled={busy !== null}
                onClick={() => setConfirming(true)}
              >
                {busy === 'reset' ? <Spinner /> : null} Reset attempts
              </button>
              <a href="/widgets/playground">Open the playground</a>
            </div>
          </section>
          <DataTable
            caption="The sandbox's test links"
            columns={columns}
            rows={shown.links}
            rowKey={(l) => l.linkId}
          />
        </>
      )}
      <Dialog
        open={confirming}
        title="Reset every attempt?"
        onClose={() => setConfirming(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void run('reset')}>
              Reset attempts
            </button>
          </>
        }
      >
        <p>
          Every sandbox test becomes untaken again: answers, scores and awards are removed. The link ids stay
          the same.
        </p>
      </Dialog>
    </div>
  );
}
