import { roadmapList } from '@shared/contract/catalogue';
import { languageList, subjectList } from '@shared/contract/lists';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { useSearchParams } from 'react-router';
import { RoadmapTable } from './RoadmapTable';

/**
 * The catalogue with filters kept in the URL query (language, subject, topic): a learner's /all-roadmaps
 * and, with a userId (a mentor choosing for a learner), /portal/users/{userId}/all-roadmaps, whose View
 * goes to the tenant's user-roadmap route.
 */
export function AllRoadmaps({ userId }: { userId?: string }) {
  const { t } = useI18n();
  const [params, setParams] = useSearchParams();
  const language = params.get('language') ?? '';
  const subject = params.get('subject') ?? '';
  const topic = params.get('topic') ?? '';
  const languages = useCall((signal) => client.call(languageList, { signal }).then((r) => r.data), []);
  const subjects = useCall((signal) => client.call(subjectList, { signal }).then((r) => r.data), []);
  const list = useCall(
    (signal) =>
      client
        .call(roadmapList, {
          query: {
            language: language || undefined,
            subject: subject || undefined,
            topic: topic || undefined,
          },
          signal,
        })
        .then((r) => r.data),
    [language, subject, topic],
  );
  const topics = subjects.data?.find((s) => s._id === subject)?.topics ?? [];

  const setFilter = (key: 'language' | 'subject' | 'topic', value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    if (key === 'subject') next.delete('topic');
    setParams(next, { replace: true });
  };

  return (
    <div className="page">
      <h1>{t('roadmaps.all')}</h1>
      <form
        className="row toolbar filters"
        onSubmit={(e) => e.preventDefault()}
        aria-label={t('roadmaps.filter')}
      >
        <div className="field">
          <label htmlFor="filter-language">{t('catalogue.language')}</label>
          <select
            id="filter-language"
            value={language}
            onChange={(e) => setFilter('language', e.target.value)}
          >
            <option value="">{t('roadmaps.allLanguages')}</option>
            {languages.data?.map((l) => (
              <option key={l._id} value={l._id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-subject">{t('column.subject')}</label>
          <select id="filter-subject" value={subject} onChange={(e) => setFilter('subject', e.target.value)}>
            <option value="">{t('roadmaps.allSubjects')}</option>
            {subjects.data?.map((s) => (
              <option key={s._id} value={s._id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="filter-topic">{t('catalogue.topic')}</label>
          <select
            id="filter-topic"
            value={topic}
            onChange={(e) => setFilter('topic', e.target.value)}
            disabled={!subject}
          >
            <option value="">{t('roadmaps.allTopics')}</option>
            {topics.map((topic) => (
              <option key={topic._id} value={topic._id}>
                {topic.name}
              </option>
            ))}
          </select>
        </div>
        {language || subject || topic ? (
          <button
            type="button"
            className="btn btn-link"
            onClick={() => setParams(new URLSearchParams(), { replace: true })}
          >
            {t('roadmaps.clearFilters')}
          </button>
        ) : null}
      </form>
      <RoadmapTable
        list={list}
        caption={t('roadmaps.caption')}
        empty={t('catalogue.empty')}
        action={{
          header: t('roadmaps.view'),
          label: t('roadmaps.view'),
          to: (r) => (userId ? `/portal/users/${userId}/roadmap/${r._id}` : `/roadmap/${r._id}`),
        }}
      />
    </div>
  );
}
