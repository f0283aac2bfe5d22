/**
 * The builder's report on question pools (decision 010): the pools learners' tests draw from
 * that this assessment's questions belong to, and which of them are too small to give a learner's retake
 * questions they have not seen — with how many questions would make them big enough.
 */
import { assessmentQuestionPools, type QuestionPool } from '@shared/contract/authoring';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';

const KIND_LABELS: Record<QuestionPool['kind'], string> = {
  RESOURCE: 'Resource test',
  SECTION: 'Section test',
  ROADMAP: 'Final test',
  SUBJECT: 'Subject test',
};

const questionsText = (n: number) => `${n} question${n === 1 ? '' : 's'}`;

export function QuestionPools({ assessmentId, questionIds }: { assessmentId: string; questionIds: string }) {
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
    return (
      <p className="card muted question-pools">
        Every question pool these questions belong to is big enough to give a learner who retakes a test
        questions they have not seen.
      </p>
    );
  }
  return (
    <section className="card question-pools" aria-labelledby="question-pools-title">
      <h2 id="question-pools-title">Question pools too small for a fresh retake</h2>
      <p className="muted">
        A learner who retakes one of these tests meets questions they have already seen. A pool needs twice
        the questions one test draws.
      </p>
      <ul>
        {small.map((p) => (
          <li key={`${p.kind}-${p.id}`}>
            <strong>
              {KIND_LABELS[p.kind]} · {p.name}
            </strong>
            <span className="muted"> ({[p.context, p.language].filter(Boolean).join(', ')})</span>:{' '}
            {questionsText(p.questionCount)}, a test draws {p.drawCount} — add {p.missing} for a fresh retake.
            {p.kind === 'SUBJECT'
              ? ` Questions you publish in this subject, in ${p.language}, join it.`
              : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
