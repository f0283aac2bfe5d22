import {
  addAssessmentQuestion,
  createQuestion,
  deleteQuestion,
  getAssessment,
  questionFeedbackList,
  removeAssessmentQuestion,
  tenantQuestionSearch,
} from '@shared/contract/authoring';
import { formatDateTime } from '@shared/rules/format-date';
import { DEFAULT_QUESTION_TYPE } from '@shared/rules/question-types';
import type { Question } from '@shared/schemas/assessment';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { useSignalValue } from '@widgets/core/useSignal';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { toast } from '@widgets/ui/Toast';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useParams } from 'react-router';
import { currentUser } from '../../lib/auth';
import { QuestionCard } from './QuestionCard';
import { QuestionEditor } from './QuestionEditor';
import { QuestionPools } from './QuestionPools';
import { AssessmentStats } from './stats/AssessmentStats';
import { ValiditySetting } from './stats/ValiditySetting';

/** Loaded when first opened: it brings the question-file readers (shared/formats). */
const ImportQuestionsDialog = lazy(() =>
  import('./import/ImportQuestionsDialog').then((m) => ({ default: m.ImportQuestionsDialog })),
);

/** The "Import questions" button and its dialog, loaded on the first click and kept for focus to return. */
function ImportQuestions({
  assessmentId,
  assessmentName,
  onImported,
}: {
  assessmentId?: string;
  assessmentName?: string;
  onImported: () => void;
}) {
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState(false);
  return (
    <>
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          setLoaded(true);
          setOpen(true);
        }}
      >
        Import questions
      </button>
      {loaded ? (
        <Suspense fallback={null}>
          <ImportQuestionsDialog
            open={open}
            {...(assessmentId ? { assessmentId } : {})}
            {...(assessmentName ? { assessmentName } : {})}
            onClose={(imported) => {
              setOpen(false);
              if (imported) onImported();
            }}
          />
        </Suspense>
      ) : null}
    </>
  );
}

/** Questions a page of the add-question search shows at a time. */
const SEARCH_PAGE = 20;
const NO_MORE = { questions: [], nextPage: 2, done: false };

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
  const [creating, setCreating] = useState(false);
  const [resources, setResources] = useState<Question | null>(null);
  const [feedbackFor, setFeedbackFor] = useState<Question | null>(null);
  const [deleting, setDeleting] = useState<Question | null>(null);

  const newQuestion = async () => {
    setCreating(true);
    try {
      const res = await client.call(createQuestion, {
        body: { questionType: DEFAULT_QUESTION_TYPE, assessmentId },
      });
      setView({ kind: 'create-question', questionId: res.data.questionId, fresh: true });
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
      toast('Something went wrong, Please try again later.', { kind: 'error' });
    }
  };

  const a = assessment.data;
  const inAssessment = new Set(a?.questions.map((q) => q._id) ?? []);

  return (
    <div className="page builder">
      <p>
        <Link to="/portal/manage-assessment">← Manage Assessment</Link>
      </p>
      <div className={view.kind === 'create-question' ? 'builder-layout editing' : 'builder-layout'}>
        <aside
          className="card builder-side"
          aria-labelledby="builder-side-title"
          hidden={view.kind === 'create-question'}
        >
          <h2 id="builder-side-title">Create Assessment</h2>
          <div className="field">
            <label htmlFor="assessment-name">Assessment name</label>
            <input id="assessment-name" type="text" value={a?.name ?? ''} disabled />
          </div>
          {a ? (
            <p className="muted">
              {a.questions.length} question{a.questions.length === 1 ? '' : 's'} · created{' '}
              {formatDateTime(a.createdAt)}
            </p>
          ) : null}
          <ValiditySetting assessmentId={assessmentId} />
        </aside>
        <section className="builder-main">
          {view.kind === 'preview' ? (
            <>
              <div className="row">
                <h1>Questions</h1>
                <div className="spacer" />
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => setView({ kind: 'statistics' })}
                >
                  Statistics
                </button>
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => setView({ kind: 'add-question' })}
                >
                  Add Question
                </button>
                <ImportQuestions
                  assessmentId={assessmentId}
                  {...(a ? { assessmentName: a.name } : {})}
                  onImported={assessment.reload}
                />
                <button type="button" className="btn" onClick={() => void newQuestion()} disabled={creating}>
                  {creating ? <Spinner /> : null} Create New Question
                </button>
              </div>
              {assessment.error ? <LoadFailed error={assessment.error} /> : null}
              {assessment.loading && !a ? <Loader text="Fetching data..." /> : null}
              {a && a.questions.length > 0 ? (
                <QuestionPools
                  assessmentId={assessmentId}
                  questionIds={a.questions.map((q) => q._id).join(',')}
                />
              ) : null}
              {a && a.questions.length === 0 ? <p className="card empty">No data found</p> : null}
              {a?.questions.map((q, i) => (
                <QuestionCard
                  key={q._id}
                  question={q}
                  index={i}
                  mine={q.createdBy?._id === myId}
                  onEdit={() => setView({ kind: 'create-question', questionId: q._id })}
                  onDelete={() => setDeleting(q)}
                  onRemove={() => void remove(q)}
                  onResources={() => setResources(q)}
                  onFeedback={() => setFeedbackFor(q)}
                />
              ))}
            </>
          ) : null}
          {view.kind === 'statistics' ? (
            <>
              <div className="row">
                <button
                  type="button"
                  className="btn btn-secondary"
                  onClick={() => setView({ kind: 'preview' })}
                >
                  Back
                </button>
                <h1>{a?.name ?? 'Assessment'}</h1>
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
                  toast(messageOf(err, 'The question could not be added.'), { kind: 'error' });
                }
              }}
            />
          ) : null}
          {view.kind === 'create-question' ? (
            <>
              <h1>Question editor</h1>
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
      <Dialog open={Boolean(resources)} title="Resource List" onClose={() => setResources(null)}>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Sn</th>
              <th scope="col">Actual Title</th>
              <th scope="col">Roadmap</th>
            </tr>
          </thead>
          <tbody>
            {resources?.belongToResource.map((r, i) => (
              <tr key={r._id}>
                <td data-label="Sn">{i + 1}</td>
                <td data-label="Actual Title">{r.actualTitle}</td>
                <td data-label="Roadmap">
                  {r.roadmapId ? <Link to={`/portal/roadmap/${r.roadmapId}`}>{r.roadmapName}</Link> : '—'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Dialog>
      <FeedbackDialog question={feedbackFor} onClose={() => setFeedbackFor(null)} />
      <Dialog
        open={Boolean(deleting)}
        title="Delete this question?"
        role="alertdialog"
        onClose={() => setDeleting(null)}
        actions={
          <>
            <button type="button" className="btn btn-secondary" onClick={() => setDeleting(null)}>
              Cancel
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={async () => {
                const q = deleting;
                setDeleting(null);
                if (!q) return;
                try {
                  await client.call(deleteQuestion, { params: { id: q._id } });
                  assessment.reload();
                } catch (err) {
                  toast(messageOf(err, 'Something went wrong, Please try again later.'), { kind: 'error' });
                }
              }}
            >
              Delete
            </button>
          </>
        }
      >
        <p>The question is removed from the bank and from every assessment that uses it.</p>
      </Dialog>
    </div>
  );
}

function AddQuestionView({
  myId,
  inAssessment,
  onBack,
  onAdd,
}: {
  myId: string;
  inAssessment: Set<string>;
  onBack: () => void;
  onAdd: (q: Question) => Promise<void>;
}) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const results = useCall(
    (signal) =>
      client
        .call(tenantQuestionSearch, {
          query: { searchText: search || undefined, limit: SEARCH_PAGE },
          signal,
        })
        .then((r) => r.data),
    [search],
  );
  // the pages after the first, read on request
  const [more, setMore] = useState<{ questions: Question[]; nextPage: number; done: boolean }>(NO_MORE);
  const [loadingMore, setLoadingMore] = useState(false);
  const searchFor = (value: string) => {
    setSearch(value);
    setMore(NO_MORE);
  };
  const shown = results.data ? [...results.data, ...more.questions] : null;
  const mayHaveMore = Boolean(results.data && results.data.length === SEARCH_PAGE && !more.done);
  async function showMore() {
    setLoadingMore(true);
    try {
      const next = await client.call(tenantQuestionSearch, {
        query: { searchText: search || undefined, limit: SEARCH_PAGE, page: more.nextPage },
      });
      // a question changed meanwhile moves to the front and may come again
      const seen = new Set((shown ?? []).map((q) => q._id));
      setMore((m) => ({
        questions: [...m.questions, ...next.data.filter((q) => !seen.has(q._id))],
        nextPage: m.nextPage + 1,
        done: next.data.length < SEARCH_PAGE,
      }));
    } catch (err) {
      toast(messageOf(err, 'Could not load more questions. Please try again.'), { kind: 'error' });
    } finally {
      setLoadingMore(false);
    }
  }
  return (
    <>
      <div className="row">
        <button type="button" className="btn btn-secondary" onClick={onBack}>
          Back
        </button>
        <h1>Add Question</h1>
        <div className="spacer" />
        <ImportQuestions
          onImported={() => {
            setMore(NO_MORE);
            results.reload();
          }}
        />
      </div>
      <form
        className="row toolbar"
        onSubmit={(e) => {
          e.preventDefault();
          // blank text clears the search; the text is lower-cased
          searchFor(text.trim().toLowerCase());
        }}
      >
        <label htmlFor="question-search" className="visually-hidden">
          Search questions
        </label>
        <input
          id="question-search"
          className="input"
          type="search"
          placeholder="Search by text, tag or subject, then press Enter"
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            setText('');
            searchFor('');
          }}
        >
          Clear
        </button>
      </form>
      {results.loading && !results.data ? <Loader text="Fetching data..." /> : null}
      {shown?.length === 0 ? <p className="card empty">No data found</p> : null}
      {shown?.map((q, i) => (
        <QuestionCard
          key={q._id}
          question={q}
          index={i}
          mine={q.createdBy?._id === myId}
          added={inAssessment.has(q._id)}
          onAdd={() => void onAdd(q)}
        />
      ))}
      {mayHaveMore ? (
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void showMore()}
          disabled={loadingMore}
        >
          {loadingMore ? <Spinner /> : null} Show more questions
        </button>
      ) : null}
    </>
  );
}

function FeedbackDialog({ question, onClose }: { question: Question | null; onClose: () => void }) {
  const list = useCall(
    (signal) =>
      question
        ? client.call(questionFeedbackList, { params: { id: question._id }, signal }).then((r) => r.data)
        : Promise.resolve([]),
    [question?._id],
  );
  return (
    <Dialog open={Boolean(question)} title="Question Feedback List" onClose={onClose}>
      {list.loading ? <Loader text="Fetching data..." /> : null}
      {list.data?.length === 0 ? <p className="empty">No data found</p> : null}
      <ul className="feedback-list">
        {list.data?.map((f) => (
          <li key={f._id} className="card">
            <p>{f.feedback}</p>
            <p className="muted">
              <span className="badge">{f.status}</span> · {formatDateTime(f.createdAt)} · {f.userId.name} (
              {f.userId.role})
            </p>
            {f.activites.length ? (
              <ol className="activity">
                {f.activites.map((a) => (
                  <li key={`${a.createdAt}-${a.toStatus}`}>
                    {a.message} → <strong>{a.toStatus}</strong> · {formatDateTime(a.createdAt)} ·{' '}
                    {a.userId.name}
                  </li>
                ))}
              </ol>
            ) : null}
          </li>
        ))}
      </ul>
    </Dialog>
  );
}
