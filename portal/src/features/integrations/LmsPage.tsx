/**
 * /portal/integrations/lms (issue 27 item 1; decision 044): the tenant's LMS platforms (LTI 1.3). What an LMS
 * administrator pastes to add Waymark (its login, launch and key set addresses), a one-time registration
 * address for Dynamic Registration, adding a platform by hand (its issuer, client id, deployments and
 * addresses), and each platform's status with Pause/Resume and Remove (asked first).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  createLtiRegistration,
  createLtiRegistrationInvite,
  ltiRegistrationList,
  ltiToolConfig,
  removeLtiRegistration,
  updateLtiRegistration,
} from '@shared/contract/lti';
import { messageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { formatDateTime } from '@shared/rules/format-date';
import { CreateLtiRegistrationInput, type LtiRegistration } from '@shared/schemas/lti';
import { client } from '@widgets/core/api';
import { useFormWords } from '@widgets/core/form-words';
import { Rich, useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { type Column, DataTable } from '@widgets/ui/DataTable';
import { Dialog } from '@widgets/ui/Dialog';
import { Field } from '@widgets/ui/Field';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { FormDialogActions } from '../../components/FormDialogActions';
import { CoursesDialog } from './LmsCoursesDialog';
import { ScorePosts } from './LmsScorePosts';

export type Registration = z.infer<typeof LtiRegistration>;

/** The form's shape: deployment ids typed one per line or comma separated. */
const ManualForm = CreateLtiRegistrationInput.omit({
  deploymentIds: true,
  emailsVerified: true,
  attemptPolicy: true,
}).extend({
  deployments: z.string().trim().min(1, messageKey('lms.needsDeployment')),
});
type ManualIn = z.input<typeof ManualForm>;
type ManualOut = z.output<typeof ManualForm>;
const splitIds = (s: string) =>
  s
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);

const hidden = { 0: <span className="visually-hidden" /> };

interface PlatformActions {
  busy: string | null;
  toggle: (r: Registration) => void;
  courses: (r: Registration) => void;
  remove: (r: Registration) => void;
}

/** The platforms' table: each one's issuer, client id, deployments, how it was added, status and actions. */
function platformColumns({ t, locale }: Translator, a: PlatformActions): Column<Registration>[] {
  return [
    {
      header: t('lms.platform'),
      cell: (r) => (
        <>
          <strong>{r.label}</strong>
          <br />
          <code dir="ltr">{r.issuer}</code>
        </>
      ),
    },
    { header: t('lms.clientId'), cell: (r) => <code>{r.clientId}</code> },
    { header: t('lms.deployments'), cell: (r) => r.deploymentIds.join(', ') || '—' },
    {
      header: t('lms.addedColumn'),
      cell: (r) => t('lms.addedVia', { via: r.via, time: formatDateTime(r.createdAt, undefined, locale) }),
    },
    { header: t('integrations.status'), cell: (r) => t('lms.status', { status: r.status }) },
    {
      header: t('integrations.action'),
      cell: (r) => (
        <div className="row-actions">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={a.busy === r._id}
            onClick={() => a.toggle(r)}
          >
            <Rich
              k={r.status === 'ACTIVE' ? 'lms.pause' : 'lms.resume'}
              values={{ label: r.label }}
              components={hidden}
            />
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => a.courses(r)}>
            <Rich k="lms.courses" values={{ label: r.label }} components={hidden} />
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => a.remove(r)}>
            <Rich k="lms.remove" values={{ label: r.label }} components={hidden} />
          </button>
        </div>
      ),
    },
  ];
}

/** What an LMS administrator pastes to add Waymark: its login, launch, key set and deep linking addresses. */
function ToolValues({
  tool,
}: {
  tool: { loginUrl: string; launchUrl: string; jwksUrl: string; deepLinkingUrl: string };
}) {
  const { t } = useI18n();
  return (
    <dl className="lms-values" aria-label={t('lms.values')}>
      <dt>{t('lms.loginUrl')}</dt>
      <dd>
        <code dir="ltr">{tool.loginUrl}</code>
      </dd>
      <dt>{t('lms.launchUrl')}</dt>
      <dd>
        <code dir="ltr">{tool.launchUrl}</code>
      </dd>
      <dt>{t('lms.jwksUrl')}</dt>
      <dd>
        <code dir="ltr">{tool.jwksUrl}</code>
      </dd>
      <dt>{t('lms.deepLinkingUrl')}</dt>
      <dd>
        <code dir="ltr">{tool.deepLinkingUrl}</code>
      </dd>
    </dl>
  );
}

export default function LmsPage() {
  const tr = useI18n();
  const { t } = tr;
  const tool = useCall((signal) => client.call(ltiToolConfig, { signal }).then((r) => r.data), []);
  const list = useCall((signal) => client.call(ltiRegistrationList, { signal }).then((r) => r.data), []);
  const [adding, setAdding] = useState(false);
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<Registration | null>(null);
  const [courses, setCourses] = useState<Registration | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  const toggle = async (r: Registration) => {
    setBusy(r._id);
    try {
      const status = r.status === 'ACTIVE' ? 'PAUSED' : 'ACTIVE';
      await client.call(updateLtiRegistration, { params: { id: r._id }, body: { status } });
      toast(t(status === 'PAUSED' ? 'lms.paused' : 'lms.resumed', { label: r.label }), {
        kind: 'success',
        ms: 4000,
      });
      list.reload();
    } catch (err) {
      toast(messageOf(err, t('lms.changeFailed')), { kind: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const columns = platformColumns(tr, { busy, toggle, courses: setCourses, remove: setRemoving });

  return (
    <section aria-labelledby="lms-title">
      <div className="page-head">
        <h2 id="lms-title">{t('integrations.nav.lms')}</h2>
        <div className="row-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setInviting(true)}>
            {t('lms.registrationUrl')}
          </button>
          <button type="button" className="btn" onClick={() => setAdding(true)}>
            {t('lms.add')}
          </button>
        </div>
      </div>
      <p className="muted">{t('lms.intro')}</p>
      {tool.error ? <LoadFailed error={tool.error} /> : null}
      {tool.data ? <ToolValues tool={tool.data} /> : null}
      {list.error ? <LoadFailed error={list.error} /> : null}
      {list.loading && !list.data ? <Loader /> : null}
      {list.data ? (
        <DataTable
          caption={t('lms.platformsCaption')}
          columns={columns}
          rows={list.data}
          rowKey={(r) => r._id}
          empty={t('lms.none')}
        />
      ) : null}
      <ScorePosts />
      <AddDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(label) => {
          setAdding(false);
          toast(t('lms.added', { label }), { kind: 'success', ms: 4000 });
          list.reload();
        }}
      />
      <InviteDialog open={inviting} onClose={() => setInviting(false)} />
      <CoursesDialog registration={courses} onClose={() => setCourses(null)} />
      <RemoveDialog
        registration={removing}
        onClose={() => setRemoving(null)}
        onRemoved={() => {
          setRemoving(null);
          list.reload();
        }}
      />
    </section>
  );
}

const EMPTY: ManualIn = {
  label: '',
  issuer: '',
  clientId: '',
  deployments: '',
  authLoginUrl: '',
  tokenUrl: '',
  jwksUrl: '',
};

function AddDialog({
  open,
  onClose,
  onAdded,
}: {
  open: boolean;
  onClose: () => void;
  onAdded: (label: string) => void;
}) {
  const { t } = useI18n();
  const formId = useId();
  const formWords = useFormWords();
  const form = useForm<ManualIn, unknown, ManualOut>({
    resolver: zodResolver(ManualForm, formWords),
    defaultValues: EMPTY,
  });
  const { register, handleSubmit, formState, reset, setError } = form;
  useEffect(() => {
    if (open) reset(EMPTY);
  }, [open, reset]);
  const submit = handleSubmit(async ({ deployments, ...rest }) => {
    try {
      const res = await client.call(createLtiRegistration, {
        body: { ...rest, deploymentIds: splitIds(deployments) },
      });
      onAdded(res.data.label);
    } catch (err) {
      const field = (err as { body?: { field?: string } }).body?.field;
      const name = (field === 'deploymentIds' ? 'deployments' : field) as keyof ManualIn | undefined;
      setError(name && name in EMPTY ? name : 'label', {
        type: 'server',
        message: messageOf(err, t('lms.addFailed')),
      });
    }
  });
  const e = formState.errors;
  return (
    <Dialog
      open={open}
      title={t('lms.addTitle')}
      onClose={onClose}
      actions={
        <FormDialogActions
          formId={formId}
          busy={formState.isSubmitting}
          onCancel={onClose}
          submit={t('lms.addSubmit')}
        />
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <p className="muted">{t('lms.manualHint')}</p>
        <Field label={t('integrations.name')} error={e.label?.message} required>
          <input type="text" maxLength={100} autoComplete="off" {...register('label')} />
        </Field>
        <Field label={t('lms.issuer')} error={e.issuer?.message} required>
          <input dir="ltr" type="url" autoComplete="off" {...register('issuer')} />
        </Field>
        <Field label={t('lms.clientId')} error={e.clientId?.message} required>
          <input type="text" autoComplete="off" {...register('clientId')} />
        </Field>
        <Field
          label={t('lms.deploymentIds')}
          error={e.deployments?.message}
          hint={t('lms.deploymentsHint')}
          required
        >
          <textarea rows={2} {...register('deployments')} />
        </Field>
        <Field label={t('lms.authLoginUrl')} error={e.authLoginUrl?.message} required>
          <input dir="ltr" type="url" autoComplete="off" {...register('authLoginUrl')} />
        </Field>
        <Field label={t('lms.tokenUrl')} error={e.tokenUrl?.message} required>
          <input dir="ltr" type="url" autoComplete="off" {...register('tokenUrl')} />
        </Field>
        <Field label={t('lms.keysetUrl')} error={e.jwksUrl?.message} required>
          <input dir="ltr" type="url" autoComplete="off" {...register('jwksUrl')} />
        </Field>
      </form>
    </Dialog>
  );
}

function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t, locale } = useI18n();
  const [label, setLabel] = useState('');
  const [made, setMade] = useState<{ url: string; expiresAt: string } | null>(null);
  const [error, setErrorText] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (open) {
      setLabel('');
      setMade(null);
      setErrorText(null);
    }
  }, [open]);
  const make = async () => {
    setBusy(true);
    try {
      setMade((await client.call(createLtiRegistrationInvite, { body: { label } })).data);
      setErrorText(null);
    } catch (err) {
      setErrorText(messageOf(err, t('lms.inviteFailed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      title={t('lms.registrationUrl')}
      onClose={onClose}
      actions={
        made ? (
          <button type="button" className="btn" onClick={onClose}>
            {t('integrations.done')}
          </button>
        ) : (
          <>
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="button" className="btn" disabled={busy} onClick={make}>
              {busy ? <Spinner /> : null} {t('lms.makeUrl')}
            </button>
          </>
        )
      }
    >
      {made ? (
        <>
          <p>{t('lms.inviteMade', { expires: formatDateTime(made.expiresAt, undefined, locale) })}</p>
          <label htmlFor="lms-invite-url" className="visually-hidden">
            {t('lms.theUrl')}
          </label>
          <input
            id="lms-invite-url"
            dir="ltr"
            type="text"
            readOnly
            value={made.url}
            onFocus={(ev) => ev.currentTarget.select()}
          />
        </>
      ) : (
        <Field label={t('lms.platformName')} error={error ?? undefined} hint={t('lms.inviteHint')} required>
          <input type="text" maxLength={100} value={label} onChange={(ev) => setLabel(ev.target.value)} />
        </Field>
      )}
    </Dialog>
  );
}

function RemoveDialog({
  registration,
  onClose,
  onRemoved,
}: {
  registration: Registration | null;
  onClose: () => void;
  onRemoved: () => void;
}) {
  const { t } = useI18n();
  const label = registration?.label ?? '';
  return (
    <ConfirmDialog
      open={registration !== null}
      title={t('lms.removeTitle', { label })}
      action={t('lms.removeAction')}
      run={() => client.call(removeLtiRegistration, { params: { id: registration!._id } })}
      done={t('lms.removed', { label })}
      failed={t('lms.changeFailed')}
      onClose={onClose}
      onDone={onRemoved}
    >
      <p>{t('lms.removeWarning')}</p>
    </ConfirmDialog>
  );
}
