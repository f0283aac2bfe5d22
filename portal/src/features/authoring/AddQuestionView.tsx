import { tenantQuestionSearch } from '@shared/contract/authoring';
import type { Question } from '@shared/schemas/assessment';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Loader, Spinner } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useState } from 'react';
import { ImportQuestions } from './ImportQuestions';
import { QuestionCard } from './QuestionCard';

/** Questions a page of the add-question search shows at a time. */
const SEARCH_PAGE = 20;
const NO_MORE = { questions: [], nextPage: 2, done: false };

/** The bank's questions matching a search: the first page, and the pages after it read on request. */
function useQuestionSearch() {
  const { t } = useI18n();
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
  const reload = () => {
    setMore(NO_MORE);
    results.reload();
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
      toast(messageOf(err, t('builder.moreFailed')), { kind: 'error' });
    } finally {
      setLoadingMore(false);
    }
  }
  return { results, shown, mayHaveMore, loadingMore, searchFor, reload, showMore };
}

/** The search box of the add-question view: submitted text searches, 'Clear' empties it and the search. */
function QuestionSearchForm({ onSearch }: { onSearch: (value: string) => void }) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  return (
    <form
      className="row toolbar"
      onSubmit={(e) => {
        e.preventDefault();
        // blank text clears the search; the text is lower-cased
        onSearch(text.trim().toLowerCase());
      }}
    >
      <label htmlFor="question-search" className="visually-hidden">
        {t('builder.search')}
      </label>
      <input
        id="question-search"
        className="input"
        type="search"
        placeholder={t('builder.searchPlaceholder')}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <button
        type="button"
        className="btn btn-secondary"
        onClick={() => {
          setText('');
          onSearch('');
        }}
      >
        {t('builder.clear')}
      </button>
    </form>
  );
}

/** The builder's add-question view: the bank searched, each question added with one click. */
export function AddQuestionView({
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
  const { t } = useI18n();
  const { results, shown, mayHaveMore, loadingMore, searchFor, reload, showMore } = useQuestionSearch();
  return (
    <>
      <div className="row">
        <button type="button" className="btn btn-secondary" onClick={onBack}>
          {t('common.back')}
        </button>
        <h1>{t('builder.addQuestion')}</h1>
        <div className="spacer" />
        <ImportQuestions onImported={reload} />
      </div>
      <QuestionSearchForm onSearch={searchFor} />
      {results.loading && !results.data ? <Loader text={t('manage.fetching')} /> : null}
      {shown?.length === 0 ? <p className="card empty">{t('tenant.noData')}</p> : null}
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
          {loadingMore ? <Spinner /> : null} {t('builder.showMore')}
        </button>
      ) : null}
    </>
  );
}
