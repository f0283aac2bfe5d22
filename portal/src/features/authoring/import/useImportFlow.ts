/**
 * The state of "Import questions", step by step — choose the file, check it, review, import, the result —
 * in a reducer; the hook checks the file again at each change of it or of the fields, and runs the import
 * through the shared runner (shared/client/question-import.ts `runQuestionImport`, as the CLI does).
 */
import { type ImportResult, runQuestionImport, sendsQuestion } from '@shared/client/question-import';
import { adminSubjectList } from '@shared/contract/authoring';
import type { Subject } from '@shared/schemas/lists';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { useEffect, useReducer, useRef } from 'react';
import { currentTranslator } from '../../../lib/i18n';
import type { ChosenFile } from './importFiles';
import { placeKey, type Report, type Results } from './parts';
import { type Defaults, NO_DEFAULTS, planFiles } from './plan';

/** Image uploads at once (and 50 questions in flight for each, enough to fill the import's batches of 100). */
const UPLOADS = 4;

export type Stage =
  | { kind: 'choose'; message?: string }
  | { kind: 'checking' }
  | { kind: 'report'; report: Report }
  | { kind: 'importing'; report: Report; done: number; todo: number }
  | { kind: 'done'; report: Report; results: Results; stopped: boolean; error?: string };

interface ImportState {
  files: ChosenFile[] | null;
  defaults: Defaults;
  /** Rewrite the questions changed since they were imported. */
  update: boolean;
  stage: Stage;
  /** Something was written (the page then reads its list again). */
  wrote: boolean;
}

type Action =
  | { type: 'reset' }
  | { type: 'files'; files: ChosenFile[] }
  | { type: 'defaults'; defaults: Defaults }
  | { type: 'update'; update: boolean }
  | { type: 'stage'; stage: Stage }
  | { type: 'wrote' };

const INITIAL: ImportState = {
  files: null,
  defaults: NO_DEFAULTS,
  update: false,
  stage: { kind: 'choose' },
  wrote: false,
};

function reducer(state: ImportState, action: Action): ImportState {
  switch (action.type) {
    case 'reset':
      return INITIAL;
    case 'files':
      return { ...state, files: action.files };
    case 'defaults':
      return { ...state, defaults: action.defaults };
    case 'update':
      return { ...state, update: action.update };
    case 'stage':
      return { ...state, stage: action.stage };
    case 'wrote':
      return state.wrote ? state : { ...state, wrote: true };
  }
}

/** The report of the stage, once the file is checked. */
export const reportOf = (stage: Stage) =>
  stage.kind === 'report' || stage.kind === 'importing' || stage.kind === 'done' ? stage.report : null;

export function useImportFlow(open: boolean, assessmentId: string | undefined) {
  const [state, dispatch] = useReducer(reducer, INITIAL);
  const stop = useRef<AbortController | null>(null);
  const subjects = useCall(
    (signal) =>
      open ? client.call(adminSubjectList, { signal }).then((r) => r.data) : Promise.resolve([] as Subject[]),
    [open],
  );
  const { files, defaults, update } = state;

  // a new dialog starts from the beginning
  useEffect(() => {
    if (open) dispatch({ type: 'reset' });
  }, [open]);

  // the file and what is said for questions without a subject, topic, tags or explanation: checked again
  // at each change (text a moment after typing stops)
  useEffect(() => {
    if (!files || !subjects.data) return;
    const controller = new AbortController();
    const setStage = (stage: Stage) => {
      if (!controller.signal.aborted) dispatch({ type: 'stage', stage });
    };
    const timer = setTimeout(
      () => {
        dispatch({ type: 'stage', stage: { kind: 'checking' } });
        planFiles(files, subjects.data!, defaults, controller.signal)
          .then((r) =>
            setStage('report' in r ? { kind: 'report', report: r.report } : { kind: 'choose', ...r }),
          )
          .catch((err: unknown) =>
            setStage({
              kind: 'choose',
              message: messageOf(err, currentTranslator().t('import.checkFailed')),
            }),
          );
      },
      defaults.tags || defaults.explanation ? 300 : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [files, subjects.data, defaults]);

  async function run(report: Report) {
    const controller = new AbortController();
    stop.current = controller;
    const sends = (p: Report['planned'][number]) => sendsQuestion(p, update, assessmentId);
    const todo = report.planned.filter(sends);
    // what is not sent stays as the server has it; a copy of a question before it is imported by that one
    const results: Results = new Map();
    for (const p of report.planned)
      if (p.known === 'duplicate')
        results.set(placeKey(p), { key: p.key, status: 'duplicate', questionId: null });
      else if (!sends(p))
        results.set(placeKey(p), {
          key: p.key,
          status: p.known as 'unchanged' | 'changed',
          questionId: p.questionId,
        });
    const importing = (done: number) =>
      dispatch({ type: 'stage', stage: { kind: 'importing', report, done, todo: todo.length } });
    importing(0);
    const { fatal } = await runQuestionImport(client, todo, {
      update,
      concurrency: UPLOADS,
      fetch: window.fetch.bind(window),
      signal: controller.signal,
      ...(assessmentId ? { assessmentId } : {}),
      onProgress: ({ planned: p, outcome, done }) => {
        const result: ImportResult = outcome.ok
          ? outcome.value
          : {
              key: p.key,
              status: 'failed',
              questionId: null,
              message: messageOf(
                outcome.error,
                (outcome.error as Error).message || currentTranslator().t('import.importFailed'),
              ),
            };
        results.set(placeKey(p), result);
        if (result.status === 'created' || result.status === 'updated' || (assessmentId && outcome.ok))
          dispatch({ type: 'wrote' });
        importing(done);
      },
    });
    stop.current = null;
    const stopped = controller.signal.aborted;
    // signed out, or the server or the storage gone: the others would have failed alike
    const error =
      fatal !== undefined && !stopped
        ? messageOf(fatal, (fatal as Error).message || currentTranslator().t('import.importFailed'))
        : undefined;
    dispatch({
      type: 'stage',
      stage: { kind: 'done', report, results, stopped, ...(error ? { error } : {}) },
    });
  }

  return {
    state,
    subjects,
    setFiles: (files: ChosenFile[]) => dispatch({ type: 'files', files }),
    setDefaults: (defaults: Defaults) => dispatch({ type: 'defaults', defaults }),
    setUpdate: (update: boolean) => dispatch({ type: 'update', update }),
    run: (report: Report) => void run(report),
    stop: () => stop.current?.abort(),
  };
}
