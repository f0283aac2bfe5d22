/**
 * The builder's report on question pools (decision 010): the pools learners' tests draw from
 * that this assessment's questions belong to, and which of them are too small to give a learner's retake
 * questions they have not seen — with how many questions would make them big enough.
 */
import { assessmentQuestionPools, type QuestionPool } from '@shared/contract/authoring';
import type { MessageKey } from '@shared/i18n/keys';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';

const KIND_LABELS: Record<QuestionPool['kind'], MessageKey> = {
  RESOURCE: 'pools.kind.resource',
  SECTION: 'pools.kind.section',
  ROADMAP: 'pools.kind.roadmap',
  SUBJECT: 'pools.kind.subject',
};

export function QuestionPools({ assessmentId, questionIds }: { assessmentId: string; questionIds: string }) {
  const { t } = useI18n();
  const pools = useCall(
    (signal) =>
      client.call(assessmentQuestionPools, { params: { assessmentId }, signal }).then((r) => r.data),
    // read again whenever the assessment's questions change
    [assessmentId, questionIds],
  );
  const all = pools.data ?? [];
  if (all.length === 0) return null;
  const small = all.filter((p) => !p.freshRetake);
  if (small.length === 0) {
    return <p className="card muted question-pools">{t('pools.allBigEnough')}</p>;
  }
  return (
    <section className="card question-pools" aria-labelledby="question-pools-title">
      <h2 id="question-pools-title">{t('pools.tooSmallTitle')}</h2>
      <p className="muted">{t('pools.tooSmallText')}</p>
      <ul>
        {small.map((p) => (
          <li key={`${p.kind}-${p.id}`}>
            <strong>
              {t(KIND_LABELS[p.kind])} · {p.name}
            </strong>
            <span className="muted"> ({[p.context, p.language].filter(Boolean).join(', ')})</span>:{' '}
            {t('pools.counts', { count: p.questionCount, draw: p.drawCount, missing: p.missing })}
            {p.kind === 'SUBJECT' ? ` ${t('pools.subjectJoins', { language: p.language ?? '' })}` : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
