/**
 * A cohort's members (name, e-mail, seat) with Remove from cohort, and Add learners: the mentor finds one
 * of their learners by name or e-mail (GET /tenant/users/search-list) and adds them. Both are left out for
 * a cohort the directory manages over SCIM.
 */
import { addCohortMembers, removeCohortMembers } from '@shared/contract/cohorts';
import { tenantUsersSearchList } from '@shared/contract/tenant';
import type { TenantUserSearchEntry } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf } from '@widgets/core/useCall';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useId, useState } from 'react';
import type { z } from 'zod';
import type { Detail } from './CohortPage';
import { FormError } from './parts';

type Found = z.infer<typeof TenantUserSearchEntry>;

const nameOf = (p: { name: string | null; email: string }) => p.name || p.email;

/** Runs a change of members, says it in a toast, and reloads the cohort. */
function useMemberChange(cohort: Detail, onChanged: () => void) {
  const { t } = useI18n();
  const [busy, setBusy] = useState<string | null>(null);
  const change = async (verb: 'add' | 'remove', who: { _id: string; name: string | null; email: string }) => {
    setBusy(who._id);
    try {
      const call = verb === 'add' ? addCohortMembers : removeCohortMembers;
      await client.call(call, { params: { id: cohort._id }, body: { learnerIds: [who._id] } });
      const name = nameOf(who);
      toast(verb === 'add' ? t('cohorts.memberAdded', { name }) : t('cohorts.memberRemoved', { name }), {
        kind: 'success',
      });
      onChanged();
    } catch (err) {
      toast(messageOf(err, t('cohorts.failed')), { kind: 'error' });
    } finally {
      setBusy(null);
    }
  };
  return { busy, change };
}

function AddLearners({ cohort, onChanged }: { cohort: Detail; onChanged: () => void }) {
  const { t } = useI18n();
  const ids = useId();
  const [text, setText] = useState('');
  const [found, setFound] = useState<Found[] | null>(null);
  const [error, setError] = useState('');
  const { busy, change } = useMemberChange(cohort, onChanged);
  const members = new Set(cohort.members.map((m) => m._id));
  const find = async () => {
    setError('');
    try {
      const { data } = await client.call(tenantUsersSearchList, {
        query: { searchText: text.trim() || undefined },
      });
      setFound(data);
    } catch (err) {
      setError(messageOf(err, t('cohorts.failed')));
    }
  };
  return (
    <section aria-labelledby={`${ids}-add`}>
      <h3 id={`${ids}-add`}>{t('cohorts.addLearners')}</h3>
      <form
        className="row search-form"
        onSubmit={(e) => {
          e.preventDefault();
          void find();
        }}
      >
        <label htmlFor={`${ids}-find`}>{t('cohorts.findLearner')}</label>
        <input
          id={`${ids}-find`}
          className="input"
          type="search"
          placeholder={t('users.searchPlaceholder')}
          maxLength={100}
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="btn btn-secondary">
          {t('cohorts.find')}
        </button>
      </form>
      <FormError id={ids} error={error} />
      <div aria-live="polite">
        {found && found.length === 0 ? <p className="muted">{t('cohorts.noLearnerFound')}</p> : null}
        {found?.length ? (
          <ul className="resource-list">
            {found.map((f) => (
              <li key={f._id} className="row">
                <span>
                  {nameOf(f)} <span className="muted">{f.name ? f.email : null}</span>
                </span>
                <div className="spacer" />
                {members.has(f._id) ? (
                  <span className="badge">{t('cohorts.alreadyMember')}</span>
                ) : (
                  <button
                    type="button"
                    className="btn btn-secondary"
                    disabled={busy === f._id}
                    aria-label={t('cohorts.addMemberOf', { name: nameOf(f) })}
                    onClick={() => void change('add', f)}
                  >
                    {busy === f._id ? <Spinner /> : null} {t('users.addButton')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </section>
  );
}

export function CohortMembers({ cohort, onChanged }: { cohort: Detail; onChanged: () => void }) {
  const { t, locale } = useI18n();
  const ids = useId();
  const { busy, change } = useMemberChange(cohort, onChanged);
  const editable = !cohort.scimManaged;
  return (
    <section aria-labelledby={`${ids}-members`}>
      <h2 id={`${ids}-members`}>
        {t('cohorts.members')} <span className="muted">({cohort.members.length.toLocaleString(locale)})</span>
      </h2>
      <div className="card table-wrap">
        <table className="table">
          <caption className="visually-hidden">{t('cohorts.members')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('column.name')}</th>
              <th scope="col">{t('column.email')}</th>
              <th scope="col">{t('cohorts.seat')}</th>
              {editable ? <th scope="col">{t('column.action')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {cohort.members.length === 0 ? (
              <tr>
                <td colSpan={editable ? 4 : 3} className="empty">
                  {t('cohorts.noMembers')}
                </td>
              </tr>
            ) : (
              cohort.members.map((m) => (
                <tr key={m._id} className={m.isDisabled ? 'disabled' : undefined}>
                  <th scope="row" className="cell-name" data-label={t('column.name')}>
                    {m.name ?? '—'}
                  </th>
                  <td className="cell-wrap" data-label={t('column.email')}>
                    {m.email}
                  </td>
                  <td data-label={t('cohorts.seat')}>
                    {m.isDisabled ? (
                      <span className="badge">{t('cohorts.seatRemoved')}</span>
                    ) : (
                      <span className="badge badge-success">{t('users.active')}</span>
                    )}
                  </td>
                  {editable ? (
                    <td data-label={t('column.action')}>
                      <button
                        type="button"
                        className="btn btn-secondary"
                        disabled={busy === m._id}
                        aria-label={t('cohorts.removeMemberOf', { name: nameOf(m) })}
                        onClick={() => void change('remove', m)}
                      >
                        {busy === m._id ? <Spinner /> : null} {t('users.remove')}
                      </button>
                    </td>
                  ) : null}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {editable ? <AddLearners cohort={cohort} onChanged={onChanged} /> : null}
    </section>
  );
}
