/**
 * The instructor's view of a course launched from the LMS (decision 045): the course's learners with their
 * tests of the organisation's assessments, scores and awards, read with the launch's token (no account).
 */
import { ltiCourseView } from '@shared/contract/lti';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';

export function CourseView({
  launchToken,
  course,
  tenant,
}: {
  launchToken: string;
  course: string;
  tenant: string;
}) {
  const { t } = useI18n();
  const view = useCall(
    (signal) => client.call(ltiCourseView, { headers: { 'x-lti-launch': launchToken }, signal }),
    [launchToken],
  );
  return (
    <section className="card" aria-labelledby="lti-course-title">
      <h1 id="lti-course-title">{t('lti.courseTitle', { course })}</h1>
      <p>{t('lti.courseIntro', { tenant })}</p>
      {view.loading ? (
        <Loader />
      ) : view.error ? (
        <p role="alert">{view.error.message}</p>
      ) : view.data?.data.learners.length ? (
        <table className="lti-course-table">
          <thead>
            <tr>
              <th scope="col">{t('lti.learner')}</th>
              <th scope="col">{t('lti.test')}</th>
              <th scope="col">{t('lti.score')}</th>
              <th scope="col">{t('lti.award')}</th>
            </tr>
          </thead>
          <tbody>
            {view.data.data.learners.flatMap((l) =>
              (l.tests.length ? l.tests : [null]).map((test, i) => (
                <tr key={test ? test._id : l._id}>
                  <td>{i === 0 ? (l.name ?? l.email ?? t('lti.unnamed')) : ''}</td>
                  <td>{test ? test.title : t('lti.noTestYet')}</td>
                  <td>
                    {test?.score != null ? `${test.score}%` : test?.completed ? '—' : t('lti.notTaken')}
                  </td>
                  <td>
                    {test?.awardId ? (
                      <a href={`/verify/${encodeURIComponent(test.awardId)}`} target="_blank" rel="noopener">
                        {t('lti.viewAward')}
                      </a>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      ) : (
        <p>{t('lti.noLearners')}</p>
      )}
    </section>
  );
}
