/**
 * The roadmaps a cohort gives its members, and Assign to the cohort: every member with an active seat gets
 * the roadmap now, every later member when they join (POST /tenant/cohorts/{id}/roadmaps), under the rule of
 * one learner's assignment (two ongoing at most). A roadmap with prerequisites needs the mentor's choice:
 * their sections first, or waived (decision 011).
 */
import { assignCohortRoadmap } from '@shared/contract/cohorts';
import { tenantRoadmapList } from '@shared/contract/tenant';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useId, useState } from 'react';
import { Link } from 'react-router';
import type { Detail } from './CohortPage';
import { FormError } from './parts';

type Choice = 'INCLUDE' | 'WAIVE';

export function CohortRoadmaps({ cohort, onChanged }: { cohort: Detail; onChanged: () => void }) {
  const { t, locale } = useI18n();
  const ids = useId();
  const catalogue = useCall(
    (signal) => client.call(tenantRoadmapList, { query: {}, signal }).then((r) => r.data),
    [],
  );
  const [roadmapId, setRoadmapId] = useState('');
  const [choice, setChoice] = useState<Choice>('INCLUDE');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const chosen = catalogue.data?.find((r) => r._id === roadmapId);
  const hasPrerequisites = Boolean(chosen?.prerequisites.length);
  const assign = async () => {
    setBusy(true);
    setError('');
    try {
      const { data } = await client.call(assignCohortRoadmap, {
        params: { id: cohort._id },
        body: { roadmapId, prerequisites: hasPrerequisites ? choice : undefined },
      });
      const tally = (o: string) => data.results.filter((r) => r.outcome === o).length.toLocaleString(locale);
      toast(
        t('cohorts.assigned', {
          roadmap: data.roadmapName,
          assigned: tally('ASSIGNED'),
          limit: tally('ROADMAP_LIMIT'),
        }),
        { kind: 'success', ms: 8000 },
      );
      setRoadmapId('');
      onChanged();
    } catch (err) {
      setError(messageOf(err, t('cohorts.failed')));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby={`${ids}-roadmaps`}>
      <h2 id={`${ids}-roadmaps`}>{t('cohorts.roadmaps')}</h2>
      <p className="muted">{t('cohorts.roadmapsIntro')}</p>
      {cohort.roadmaps.length ? (
        <ul>
          {cohort.roadmaps.map((r) => (
            <li key={r._id}>
              <Link to={`/portal/roadmap/${r._id}`}>{r.name}</Link>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t('cohorts.noRoadmaps')}</p>
      )}
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          void assign();
        }}
      >
        <div className="row toolbar">
          <label htmlFor={`${ids}-roadmap`}>{t('cohorts.roadmap')}</label>
          <select
            id={`${ids}-roadmap`}
            className="input"
            value={roadmapId}
            onChange={(e) => setRoadmapId(e.target.value)}
            aria-describedby={error ? `${ids}-error` : undefined}
          >
            <option value="">{t('cohorts.chooseRoadmap')}</option>
            {catalogue.data?.map((r) => (
              <option key={r._id} value={r._id}>
                {r.name}
              </option>
            ))}
          </select>
          <button type="submit" className="btn" disabled={busy || !roadmapId}>
            {busy ? <Spinner /> : null} {t('cohorts.assign')}
          </button>
        </div>
        {hasPrerequisites ? (
          <fieldset>
            <legend>{t('userRoadmap.prerequisites')}</legend>
            {(['INCLUDE', 'WAIVE'] as const).map((c) => (
              <label key={c} className="row">
                <input
                  type="radio"
                  name={`${ids}-prerequisites`}
                  checked={choice === c}
                  onChange={() => setChoice(c)}
                />
                {c === 'INCLUDE' ? t('cohorts.include') : t('cohorts.waive')}
              </label>
            ))}
          </fieldset>
        ) : null}
      </form>
      <FormError id={ids} error={error} />
    </section>
  );
}
