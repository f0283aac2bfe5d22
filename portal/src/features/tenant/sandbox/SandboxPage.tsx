/**
 * /portal/sandbox: the mentor's sandbox (decision 041) — demo learners with open test links to build a page
 * with the elements against. Creates it, lists its links with the snippet of each (`<wm-test-taker>`, and
 * the award's `<wm-award>` once earned) and a link to try it in the playground, and resets its attempts
 * after a confirmation. Every part of it says Sandbox.
 */
import { ApiError } from '@shared/client/client';
import { createSandbox, getSandbox, resetSandbox } from '@shared/contract/sandbox';
import type { Translator } from '@shared/i18n/translator';
import { formatDateTime } from '@shared/rules/format-date';
import { SANDBOX_WORDS } from '@shared/rules/sandbox';
import { STATUS_LABEL_KEYS } from '@shared/rules/test-status';
import type { Sandbox } from '@shared/schemas/sandbox';
import { TEST_TYPE_LABELS } from '@widgets/assessments/labels';
import { client } from '@widgets/core/api';
import { Rich, useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useId, useState } from 'react';

type SandboxLink = Sandbox['links'][number];

/** Words hidden but read by screen readers, inside a message's `<0>…</0>`. */
const hidden = { 0: <span className="visually-hidden" /> };

/** The snippet of a link's element, with this server's address (the partner copies it). */
export function snippetOf(link: SandboxLink, origin = window.location.origin): string {
  const award = link.awardUrl ? /\/(feather|badge|certificate)\/([^/]+)$/.exec(link.awardUrl) : null;
  return award
    ? `<script type="module" src="${origin}/widgets/award.js"></script>\n<wm-award link-id="${award[2]}"></wm-award>`
    : `<script type="module" src="${origin}/widgets/test-taker.js"></script>\n<wm-test-taker link-id="${link.linkId}"></wm-test-taker>`;
}

/** The links' table: learner, test, roadmap, state, link id, and the test or award page, playground and snippet. */
function linkColumns(
  { t, number }: Translator,
  copied: string | null,
  copy: (link: SandboxLink) => void,
): Column<SandboxLink>[] {
  const about = (l: SandboxLink) => ({ learner: l.learnerName, title: l.title });
  return [
    { header: t('sandbox.learner'), cell: (l) => l.learnerName },
    {
      header: t('sandbox.test'),
      cell: (l) => (
        <>
          <span className="badge">{t(TEST_TYPE_LABELS[l.type])}</span> {l.title}
        </>
      ),
    },
    { header: t('sandbox.roadmap'), cell: (l) => l.roadmapName },
    {
      header: t('sandbox.state'),
      cell: (l) =>
        l.isCompleted
          ? t('sandbox.done', {
              status: t(STATUS_LABEL_KEYS[l.status]),
              percent: number(Math.round(l.percentage ?? 0)),
            })
          : t('sandbox.open'),
    },
    { header: t('sandbox.linkId'), cell: (l) => <code>{l.linkId}</code> },
    {
      header: t('sandbox.action'),
      cell: (l) => (
        <div className="row">
          <a href={l.awardUrl ?? l.testUrl} target="_blank" rel="noopener noreferrer">
            <Rich
              k={l.awardUrl ? 'sandbox.awardLink' : 'sandbox.testLink'}
              values={about(l)}
              components={hidden}
            />
          </a>
          <a
            href={`/widgets/playground?element=${l.awardUrl ? 'wm-award' : 'wm-test-taker'}&link-id=${encodeURIComponent(l.awardUrl ? (l.awardUrl.split('/').pop() ?? l.linkId) : l.linkId)}`}
          >
            <Rich k="sandbox.playground" values={about(l)} components={hidden} />
          </a>
          <button type="button" className="btn btn-secondary" onClick={() => copy(l)}>
            <Rich
              k={copied === l.linkId ? 'sandbox.copied' : 'sandbox.copy'}
              values={about(l)}
              components={hidden}
            />
          </button>
        </div>
      ),
    },
  ];
}

/** When the sandbox was made and reset, its learners and roadmaps, with Reset attempts and the playground. */
function About({
  sandbox,
  headingId,
  busy,
  onReset,
}: {
  sandbox: Sandbox;
  headingId: string;
  busy: 'create' | 'reset' | null;
  onReset: () => void;
}) {
  const { t, locale, list } = useI18n();
  return (
    <section className="card stack" aria-labelledby={`${headingId}-about`}>
      <h2 id={`${headingId}-about`}>{t('sandbox.yours')}</h2>
      <p className="muted">
        {t('sandbox.about', {
          created: formatDateTime(sandbox.createdAt, undefined, locale),
          resets: sandbox.resetAt ? sandbox.resets : 0,
          resetAt: sandbox.resetAt ? formatDateTime(sandbox.resetAt, undefined, locale) : '',
          learners: list(sandbox.learners.map((l) => l.name)),
          roadmaps: list(sandbox.roadmaps.map((r) => r.name)),
        })}
      </p>
      <div className="row">
        <button type="button" className="btn btn-secondary" disabled={busy !== null} onClick={onReset}>
          {busy === 'reset' ? <Spinner /> : null} {t('sandbox.reset')}
        </button>
        <a href="/widgets/playground">{t('sandbox.openPlayground')}</a>
      </div>
    </section>
  );
}

export default function SandboxPage() {
  const tr = useI18n();
  const { t } = tr;
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
      setStatus(t(action === 'create' ? 'sandbox.ready' : 'sandbox.resetDone'));
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('common.somethingWentWrong'));
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

  return (
    <div className="page wm-sandbox-page">
      <h1 id={headingId}>
        <Rich
          k="sandbox.title"
          values={{ mark: t(SANDBOX_WORDS.mark) }}
          components={{ 0: <span className="badge badge-warning" /> }}
        />
      </h1>
      <p>{t('sandbox.intro', { mark: t(SANDBOX_WORDS.mark) })}</p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {status}
      </p>
      {error ? <LoadFailed>{error}</LoadFailed> : null}
      {loaded.error ? (
        <LoadFailed error={loaded.error} />
      ) : shown === null ? (
        <section className="card" aria-label={t('sandbox.noneYet')}>
          <p>{t('sandbox.youHaveNone')}</p>
          <button type="button" className="btn" disabled={busy !== null} onClick={() => void run('create')}>
            {busy === 'create' ? <Spinner /> : null} {t('sandbox.create')}
          </button>
        </section>
      ) : !shown ? (
        <Loader />
      ) : (
        <>
          <About sandbox={shown} headingId={headingId} busy={busy} onReset={() => setConfirming(true)} />
          <DataTable
            caption={t('sandbox.linksCaption')}
            columns={linkColumns(tr, copied, (l) => void copy(l))}
            rows={shown.links}
            rowKey={(l) => l.linkId}
          />
        </>
      )}
      <Dialog
        open={confirming}
        title={t('sandbox.resetTitle')}
        onClose={() => setConfirming(false)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn btn-danger" onClick={() => void run('reset')}>
              {t('sandbox.reset')}
            </button>
          </>
        }
      >
        <p>{t('sandbox.resetWarning')}</p>
      </Dialog>
    </div>
  );
}
