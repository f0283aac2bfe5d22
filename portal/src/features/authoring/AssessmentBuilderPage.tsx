import {
  addAssessmentQuestion,
  createQuestion,
  deleteQuestion,
  getAssessment,
  removeAssessmentQuestion,
  type TenantAssessmentDetail,
} from '@shared/contract/authoring';
import { formatDateTime } from '@shared/rules/format-date';
import { DEFAULT_QUESTION_TYPE } from '@shared/rules/question-types';
import type { Question } from '@shared/schemas/assessment';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { type CallState, messageOf, useCall } from '@widgets/core/useCall';
import { useSignalValue } from '@widgets/core/useSignal';
import { Arrow } from '@widgets/ui/Arrow';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import type { z } from 'zod';
import { currentUser } from '../../lib/auth';
import { AddQuestionView } from './AddQuestionView';
import { DeleteQuestionDialog, FeedbackDialog, ResourcesDialog } from './BuilderDialogs';
import { ImportQuestions } from './ImportQuestions';
import { QuestionCard } from './QuestionCard';
import { QuestionEditor } from './QuestionEditor';
import { QuestionPools } from './QuestionPools';
import { AssessmentStats } from './stats/AssessmentStats';
import { ValiditySetting } from './stats/ValiditySetting';

type Detail = z.infer<typeof TenantAssessmentDetail>;

type View =
  | { kind: 'preview' }
  /** The assessment's statistics: its figures and each question's (issue 30). */
  | { kind: 'statistics' }
  | { kind: 'add-question' }
  /** `fresh`: made by 'Create New Question' and never saved — discarded when the author leaves it. */
  | { kind: 'create-question'; questionId: string; fresh?: boolean };

/** Deletes a new question left without saving (it was in no assessment anyway; this keeps the bank tidy). */
function discardDraft(id: string) {
  client.call(deleteQuestion, { params: { id } }).catch(() => undefined);
}

/**
 * /portal/create-assessment/{assessmentId}: preview, add-question and create-question views. A question made
 * by 'Create New Question' joins the assessment when first saved; left unsaved (Back, or away from the page)
 * it is discarded, so the assessment and the share dialog count saved questions only, as the server does.
 */
export default function AssessmentBuilderPage() {
  const { assessmentId = '' } = useParams();
  const { t } = useI18n();
  const me = useSignalValue(currentUser);
  const myId = me && me !== 'loading' ? me._id : '';
  const [view, setView] = useState<View>({ kind: 'preview' });
  // the new question being written, to discard should the author leave the page without saving it
  const unsaved = useRef<string | null>(null);
  unsaved.current = view.kind === 'create-question' && view.fresh ? view.questionId : null;
  useEffect(
    () => () => {
      if (unsaved.current) discardDraft(unsaved.current);
    },
    [],
  );
  const assessment = useCall(
    (signal) => client.call(getAssessment, { params: { assessmentId }, signal }).then((r) => r.data),
    [assessmentId],
  );
  const [resources, setResources] = useState<Question | null>(null);
  const [feedbackFor, setFeedbackFor] = useState<Question | null>(null);
  const [deleting, setDeleting] = useState<Question | null>(null);

  const a = assessment.data;
  const inAssessment = new Set(a?.questions.map((q) => q._id) ?? []);

  return (
    <div className="page builder">
      <p>
        <Link to="/portal/manage-assessment">
          <Arrow to="back" /> {t('nav.manageAssessment')}
        </Link>
      </p>
      <div className={view.kind === 'create-question' ? 'builder-layout editing' : 'builder-layout'}>
        <BuilderSide assessmentId={assessmentId} assessment={a} hidden={view.kind === 'create-question'} />
        <section className="builder-main">
          {view.kind === 'preview' ? (
            <PreviewView
              assessmentId={assessmentId}
              assessment={assessment}
              myId={myId}
              onView={setView}
              onDelete={setDeleting}
              onResources={setResources}
              onFeedback={setFeedbackFor}
            />
          ) : null}
          {view.kind === 'statistics' ? (
            <>
              <div className="row">
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => setView({ kind: 'preview' })}
                >
                  {t('common.back')}
                </button>
                <h1>{a?.name ?? t('dashboard.assessment')}</h1>
              </div>
              <AssessmentStats assessmentId={assessmentId} />
            </>
          ) : null}
          {view.kind === 'add-question' ? (
            <AddQuestionView
              myId={myId}
              inAssessment={inAssessment}
              onBack={() => setView({ kind: 'preview' })}
              onAdd={async (q) => {
                try {
                  await client.call(addAssessmentQuestion, { params: { assessmentId, questionId: q._id } });
                  assessment.reload();
                } catch (err) {
                  toast(messageOf(err, t('builder.addFailed')), { kind: 'error' });
                }
              }}
            />
          ) : null}
          {view.kind === 'create-question' ? (
            <>
              <h1>{t('authoring.questionEditor')}</h1>
              <QuestionEditor
                questionId={view.questionId}
                onBack={() => {
                  if (view.fresh) discardDraft(view.questionId);
                  assessment.reload();
                  setView({ kind: 'preview' });
                }}
                onSaved={() => {
                  assessment.reload();
                  setView({ kind: 'preview' });
                }}
              />
            </>
          ) : null}
        </section>
      </div>
      <ResourcesDialog question={resources} onClose={() => setResources(null)} />
      <FeedbackDialog question={feedbackFor} onClose={() => setFeedbackFor(null)} />
      <DeleteQuestionDialog
        question={deleting}
        onClose={() => setDeleting(null)}
        onDeleted={assessment.reload}
      />
    </div>
  );
}

/** The side panel: the assessment's name, its size and date, and how long its links stay valid. */
function BuilderSide({
  assessmentId,
  assessment: a,
  hidden,
}: {
  assessmentId: string;
  assessment: Detail | null;
  hidden: boolean;
}) {
  const { t, locale } = useI18n();
  return (
    <aside className="card builder-side" aria-labelledby="builder-side-title" hidden={hidden}>
      <h2 id="builder-side-title">{t('manage.create')}</h2>
      <div className="field">
        <label htmlFor="assessment-name">{t('manage.name')}</label>
        <input id="assessment-name" type="text" value={a?.name ?? ''} disabled />
      </div>
      {a ? (
        <p className="muted">
          {t('builder.summary', {
            count: a.questions.length,
            date: formatDateTime(a.createdAt, undefined, locale),
          })}
        </p>
      ) : null}
      <ValiditySetting assessmentId={assessmentId} />
    </aside>
  );
}

/** The preview view: the assessment's questions, each with its actions, and the buttons that add more. */
function PreviewView({
  assessmentId,
  assessment,
  myId,
  onView,
  onDelete,
  onResources,
  onFeedback,
}: {
  assessmentId: string;
  assessment: CallState<Detail>;
  myId: string;
  onView: (view: View) => void;
  onDelete: (q: Question) => void;
  onResources: (q: Question) => void;
  onFeedback: (q: Question) => void;
}) {
  const { t } = useI18n();
  const [creating, setCreating] = useState(false);
  const a = assessment.data;

  const newQuestion = async () => {
    setCreating(true);
    try {
      const res = await client.call(createQuestion, {
        body: { questionType: DEFAULT_QUESTION_TYPE, assessmentId },
      });
      onView({ kind: 'create-question', questionId: res.data.questionId, fresh: true });
    } catch (err) {
      console.error('Question creation failed', err);
    } finally {
      setCreating(false);
    }
  };

  const remove = async (q: Question) => {
    try {
      await client.call(removeAssessmentQuestion, { params: { assessmentId, questionId: q._id } });
      assessment.reload();
    } catch {
      toast(t('builder.somethingWrong'), { kind: 'error' });
    }
  };

  return (
    <>
      <div className="row">
        <h1>{t('manage.questions')}</h1>
        <div className="spacer" />
        <button type="button" className="btn btn-secondary" onClick={() => onView({ kind: 'statistics' })}>
          {t('builder.statistics')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => onView({ kind: 'add-question' })}>
          {t('builder.addQuestion')}
        </button>
        <ImportQuestions
          assessmentId={assessmentId}
          {...(a ? { assessmentName: a.name } : {})}
          onImported={assessment.reload}
        />
        <button type="button" className="btn" onClick={() => void newQuestion()} disabled={creating}>
          {creating ? <Spinner /> : null} {t('builder.createQuestion')}
        </button>
      </div>
      {assessment.error ? <LoadFailed error={assessment.error} /> : null}
      {assessment.loading && !a ? <Loader text={t('manage.fetching')} /> : null}
      {a && a.questions.length > 0 ? (
        <QuestionPools assessmentId={assessmentId} questionIds={a.questions.map((q) => q._id).join(',')} />
      ) : null}
      {a && a.questions.length === 0 ? <p className="card empty">{t('tenant.noData')}</p> : null}
      {a?.questions.map((q, i) => (
        <QuestionCard
          key={q._id}
          question={q}
          index={i}
          mine={q.createdBy?._id === myId}
          onEdit={() => onView({ kind: 'create-question', questionId: q._id })}
          onDelete={() => onDelete(q)}
          onRemove={() => void remove(q)}
          onResources={() => onResources(q)}
          onFeedback={() => onFeedback(q)}
        />
      ))}
    </>
  );
}
