/**
 * /assesments/{linkId}/view (learner §2): 'Questions & Answers' of one evaluated test (GET /testlink/{id}/view)
 * with feedback per question (POST /feedback-question/create). On a load failure only the server's message
 * shows, in red (learner §8).
 */
import { questionFeedback, viewTestLink } from '@shared/contract/assessments';
import type { MessageKey } from '@shared/i18n/keys';
import { TestReview } from '@widgets/assessments/TestReview';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { useParams } from 'react-router';

export const TITLE = 'review.title' satisfies MessageKey;

export default function TestViewPage() {
  const { linkId = '' } = useParams();
  const { t } = useI18n();
  const view = useCall(
    (signal) => client.call(viewTestLink, { params: { id: linkId }, signal }).then((r) => r.data),
    [linkId],
  );
  return (
    <div className="page">
      <h1>{t(TITLE)}</h1>
      {view.error ? (
        <LoadFailed error={view.error} className="wm-review-error" />
      ) : !view.data ? (
        <Loader />
      ) : (
        <TestReview
          view={view.data}
          onFeedback={async ({ questionId, feedback }) => {
            const res = await client.call(questionFeedback, {
              body: { feedback, questionId, testLinkId: linkId },
            });
            return res.message;
          }}
        />
      )}
    </div>
  );
}
