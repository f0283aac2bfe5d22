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
import { formatDateTime } from '@shared/rules/format-date';
import { CreateLtiRegistrationInput, type LtiRegistration } from '@shared/schemas/lti';
import { client } from '@widgets/core/api';
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
import { FormDialogActions } from '../../components/FormDialogActions';
import { ConfirmDialog } from './ConfirmDialog';
import { INTEGRATIONS_COPY as COPY } from './copy';
import { CoursesDialog } from './LmsCoursesDialog';
import { ScorePosts } from './LmsScorePosts';

export type Registration = z.infer<typeof LtiRegistration>;

/** The form's shape: deployment ids typed one per line or comma separated. */
const ManualForm = CreateLtiRegistrationInput.omit({
  deploymentIds: true,
  emailsVerified: true,
  attemptPolicy: true,
}).extend({
  deployments: z.string().trim().min(1, 'must name at least one deployment id'),
});
type ManualIn = z.input<typeof ManualForm>;
type ManualOut = z.output<typeof ManualForm>;
const splitIds = (s: string) =>
  s
    .split(/[\s,]+/)
    .map((d) => d.trim())
    .filter(Boolean);

const STATUS = { ACTIVE: 'Active', PAUSED: 'Paused' } as const;
const VIA = { DYNAMIC: 'Dynamic Registration', MANUAL: 'By hand' } as const;

export default function LmsPage() {
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
      toast(status === 'PAUSED' ? COPY.lmsPaused(r.label) : COPY.lmsResumed(r.label), {
        kind: 'success',
        ms: 4000,
      });
      list.reload();
    } catch (err) {
      toast(messageOf(err, COPY.lmsChangeFailed), { kind: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const columns: Column<Registration>[] = [
    {
      header: 'Platform',
      cell: (r) => (
        <>
          <strong>{r.label}</strong>
          <br />
          <code>{r.issuer}</code>
        </>
      ),
    },
    { header: 'Client id', cell: (r) => <code>{r.clientId}</code> },
    { header: 'Deployments', cell: (r) => r.deploymentIds.join(', ') || '—' },
    { header: 'Added', cell: (r) => `${VIA[r.via]}, ${formatDateTime(r.createdAt)}` },
    { header: 'Status', cell: (r) => STATUS[r.status] },
    {
      header: 'Action',
      cell: (r) => (
        <div className="row-actions">
          <button
            type="button"
            className="btn btn-secondary"
            disabled={busy === r._id}
            onClick={() => toggle(r)}
          >
            {r.status === 'ACTIVE' ? 'Pause' : 'Resume'}
            <span className="visually-hidden"> {r.label}</span>
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => setCourses(r)}>
            Courses<span className="visually-hidden"> of {r.label}</span>
          </button>
          <button type="button" className="btn btn-secondary" onClick={() => setRemoving(r)}>
            Remove<span className="visually-hidden"> {r.label}</span>
          </button>
        </div>
      ),
    },
  ];

  return (
    <section aria-labelledby="lms-title">
      <div className="page-head">
        <h2 id="lms-title">LMS</h2>
        <div className="row-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setInviting(true)}>
            Registration URL
          </button>
          <button type="button" className="btn" onClick={() => setAdding(true)}>
            Add platform
          </button>
        </div>
      </div>
      <p className="muted">{COPY.lmsIntro}</p>
      {tool.error ? <LoadFailed error={tool.error} /> : null}
      {tool.data ? (
        <dl className="lms-values" aria-label="Waymark's values for your LMS">
          <dt>Login (OpenID Connect initiation) URL</dt>
          <dd>
            <code>{tool.data.loginUrl}</code>
          </dd>
          <dt>Launch (redirection, target link) URL</dt>
          <dd>
            <code>{tool.data.launchUrl}</code>
          </dd>
          <dt>Public keyset (JWKS) URL</dt>
          <dd>
            <code>{tool.data.jwksUrl}</code>
          </dd>
          <dt>Deep linking URL</dt>
          <dd>
            <code>{tool.data.deepLinkingUrl}</code>
          </dd>
        </dl>
      ) : null}
      {list.error ? <LoadFailed error={list.error} /> : null}
      {list.loading && !list.data ? <Loader /> : null}
      {list.data ? (
        <DataTable
          caption="LMS platforms"
          columns={columns}
          rows={list.data}
          rowKey={(r) => r._id}
          empty={COPY.noPlatforms}
        />
      ) : null}
      <ScorePosts />
      <AddDialog
        open={adding}
        onClose={() => setAdding(false)}
        onAdded={(label) => {
          setAdding(false);
          toast(COPY.lmsAdded(label), { kind: 'success', ms: 4000 });
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
  const formId = useId();
  const form = useForm<ManualIn, unknown, ManualOut>({
    resolver: zodResolver(ManualForm),
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
        message: messageOf(err, COPY.lmsAddFailed),
      });
    }
  });
  const e = formState.errors;
  return (
    <Dialog
      open={open}
      title="Add an LMS platform"
      onClose={onClose}
      actions={
        <FormDialogActions formId={formId} busy={formState.isSubmitting} onCancel={onClose} submit="Add" />
      }
    >
      <form id={formId} onSubmit={submit} noValidate>
        <p className="muted">{COPY.lmsManualHint}</p>
        <Field label="Name" error={e.label?.message} required>
          <input type="text" maxLength={100} autoComplete="off" {...register('label')} />
        </Field>
        <Field label="Issuer (platform id)" error={e.issuer?.message} required>
          <input type="url" autoComplete="off" {...register('issuer')} />
        </Field>
        <Field label="Client id" error={e.clientId?.message} required>
          <input type="text" autoComplete="off" {...register('clientId')} />
        </Field>
        <Field label="Deployment ids" error={e.deployments?.message} hint={COPY.lmsDeploymentsHint} required>
          <textarea rows={2} {...register('deployments')} />
        </Field>
        <Field label="Authentication request (login) URL" error={e.authLoginUrl?.message} required>
          <input type="url" autoComplete="off" {...register('authLoginUrl')} />
        </Field>
        <Field label="Access token URL" error={e.tokenUrl?.message} required>
          <input type="url" autoComplete="off" {...register('tokenUrl')} />
        </Field>
        <Field label="Public keyset URL" error={e.jwksUrl?.message} required>
          <input type="url" autoComplete="off" {...register('jwksUrl')} />
        </Field>
      </form>
    </Dialog>
  );
}

function InviteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
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
      setErrorText(messageOf(err, COPY.lmsInviteFailed));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      title="Registration URL"
      onClose={onClose}
      actions={
        made ? (
          <button type="button" className="btn" onClick={onClose}>
            Done
          </button>
        ) : (
          <>
            <button type="button" className="btn btn-secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="btn" disabled={busy} onClick={make}>
              {busy ? <Spinner /> : null} Make URL
            </button>
          </>
        )
      }
    >
      {made ? (
        <>
          <p>{COPY.lmsInviteMade(formatDateTime(made.expiresAt))}</p>
          <label htmlFor="lms-invite-url" className="visually-hidden">
            The registration URL
          </label>
          <input
            id="lms-invite-url"
            type="text"
            readOnly
            value={made.url}
            onFocus={(ev) => ev.currentTarget.select()}
          />
        </>
      ) : (
        <Field label="Name of the platform" error={error ?? undefined} hint={COPY.lmsInviteHint} required>
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
  return (
    <ConfirmDialog
      open={registration !== null}
      title={`Remove “${registration?.label ?? ''}”?`}
      action="Remove"
      run={() => client.call(removeLtiRegistration, { params: { id: registration!._id } })}
      done={COPY.lmsRemoved(registration?.label ?? '')}
      failed={COPY.lmsChangeFailed}
      onClose={onClose}
      onDone={onRemoved}
    >
      <p>{COPY.lmsRemoveWarning}</p>
    </ConfirmDialog>
  );
}
