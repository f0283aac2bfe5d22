/**
 * /portal/users/{userId}/testlink/{linkId} (mentor §2.5): 'Questions & Answers' of one of the learner's
 * tests, through the review the learner sees (without the learner's Feedback button). On a load failure
 * only the server's message shows, in red.
 */
import { tenantTestlinkView } from '@shared/contract/tenant';
import { TestReview } from '@widgets/assessments/TestReview';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Arrow } from '@widgets/ui/Arrow';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { Link, useParams } from 'react-router';
import { useUserId } from './LearnerLayout';

export default function TestReviewPage() {
  const userId = useUserId();
  const { t } = useI18n();
  const { linkId = '' } = useParams();
  const view = useCall(
    (signal) => client.call(tenantTestlinkView, { params: { userId, linkId }, signal }).then((r) => r.data),
    [userId, linkId],
  );
  return (
    <div>
      <p>
        <Link to={`/portal/users/${userId}/analytics`}>
          <Arrow to="back" /> {t('tenant.analyticsReport')}
        </Link>
      </p>
      <h1>{t('tenant.questionsAndAnswers')}</h1>
      {view.error ? (
        <LoadFailed error={view.error} className="wm-review-error review-error" />
      ) : !view.data ? (
        <Loader />
      ) : (
        <TestReview view={view.data} />
      )}
    </div>
  );
}
