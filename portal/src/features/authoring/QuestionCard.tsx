import { hasImageOptions, isTextAnswer } from '@shared/rules/question-types';
import { correctOptionPoints } from '@shared/rules/scoring';
import type { Question } from '@shared/schemas/assessment';
import { QuestionTypeName } from '@widgets/assessments/QuestionTypeName';
import { useI18n } from '@widgets/core/i18n';
import { Link } from 'react-router';

/** One question of an assessment, collapsed to its text; expanded: options, code, image, explanation, actions. */
export function QuestionCard({
  question,
  index,
  mine,
  onEdit,
  onDelete,
  onRemove,
  onResources,
  onFeedback,
  onAdd,
  added,
}: {
  question: Question;
  index: number;
  mine: boolean;
  onEdit?: () => void;
  onDelete?: () => void;
  onRemove?: () => void;
  onResources?: () => void;
  onFeedback?: () => void;
  onAdd?: () => void;
  added?: boolean;
}) {
  const { t, list, number } = useI18n();
  const correctCount = question.options.filter((o) => o.isCorrect).length;
  return (
    <details className="card question-card">
      <summary>
        <span className="muted">{number(index + 1)}.</span>{' '}
        <span className="question-text">{question.question || t('editor.untitled')}</span>{' '}
        <span className="badge badge-primary">
          <QuestionTypeName type={question.questionType} />
        </span>
        {question.status === 'PREVIEW' ? (
          <span className="badge badge-warning">{t('editor.draft')}</span>
        ) : null}
      </summary>
      <div className="question-body">
        {question.code ? (
          <pre className="code-block" dir="ltr">
            <code>{question.code}</code>
          </pre>
        ) : null}
        {question.questionImagePath ? (
          <img className="question-image" src={question.questionImagePath} alt={t('editor.questionImage')} />
        ) : null}
        <ul className="answer-list">
          {question.options.map((o) => (
            <li key={o._id} className={o.isCorrect ? 'answer correct' : 'answer'}>
              {hasImageOptions(question.questionType) ? (
                <img src={o.value} alt={t('editor.optionImage')} className="option-thumb" />
              ) : (
                o.value
              )}
              {o.isCorrect ? (
                <span className="badge badge-success">
                  {t('editor.correctPoints', {
                    count: isTextAnswer(question.questionType)
                      ? question.points
                      : correctOptionPoints(question.questionType, correctCount),
                  })}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
        {question.explanation[0]?.value ? <p className="muted">{question.explanation[0].value}</p> : null}
        <p className="muted">
          {question.tags.length ? `${t('editor.tagsList', { tags: list(question.tags) })} · ` : ''}
          {question.createdBy ? t('editor.by', { name: question.createdBy.name }) : t('editor.fromBank')}
          {question.roadmapId ? (
            <>
              {' · '}
              <Link to={`/portal/roadmap/${question.roadmapId}`}>{question.roadmapName}</Link>
            </>
          ) : null}
        </p>
        <div className="row">
          {onAdd ? (
            <button type="button" className="btn" onClick={onAdd} disabled={added}>
              {added ? t('editor.added') : t('users.addButton')}
            </button>
          ) : null}
          {mine && onEdit ? (
            <button type="button" className="btn btn-secondary" onClick={onEdit}>
              {t('editor.edit')}
            </button>
          ) : null}
          {mine && onDelete ? (
            <button type="button" className="btn btn-secondary" onClick={onDelete}>
              {t('editor.delete')}
            </button>
          ) : null}
          {onRemove ? (
            <button type="button" className="btn btn-secondary" onClick={onRemove}>
              {t('editor.removeFromAssessment')}
            </button>
          ) : null}
          {onResources && question.belongToResource.length ? (
            <button type="button" className="btn btn-link" onClick={onResources}>
              {t('editor.resources', { count: question.belongToResource.length })}
            </button>
          ) : null}
          {onFeedback && mine ? (
            <button type="button" className="btn btn-link" onClick={onFeedback}>
              {t('editor.feedback', { count: question.feedbackCount })}
            </button>
          ) : null}
        </div>
      </div>
    </details>
  );
}
