/**
 * "Import questions", for authors who never open a terminal: choose a question bank (Moodle GIFT, Aiken,
 * Moodle XML, IMS QTI, or Waymark's JSON or CSV), see what will become of each question — created,
 * unchanged, changed, the same as another of the file, or not importable and why, each with its line —
 * then import. The file is read and checked here by the same readers and rules as `waymark questions
 * import` (shared/formats): the subject and topic come from the selects when chosen, else from the file's
 * names or categories (shared/formats/placement.ts), and questions placed by neither are said once. The
 * server says which questions it already has, and each question is created whole by the batch import
 * (shared/client/question-import.ts), so stopping half-way leaves nothing half-made and importing the file
 * again creates nothing twice.
 */
import { ApiError } from '@shared/client/client';
import {
  ImportBatcher,
  type ImportOutcome,
  importPlanned,
  type PlannedQuestion,
  planImport,
  sendsQuestion,
  UploadError,
  uploadImportImage,
  writesQuestion,
} from '@shared/client/question-import';
import { adminSubjectList } from '@shared/contract/authoring';
import { FORMAT_NAMES, UNKNOWN_FORMAT } from '@shared/formats/detect';
import { sha256Hex } from '@shared/formats/fingerprint';
import { describeUnplaced, type UnplacedQuestion } from '@shared/formats/placement';
import { checkFile, problemCount } from '@shared/formats/prepare';
import { describePlace, type RowError, shorten, type Unsupported } from '@shared/formats/record';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { typeLabel } from '@shared/rules/question-types';
import type { Subject } from '@shared/schemas/lists';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Spinner } from '@widgets/ui/Loader';
import { type ReactNode, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { type ChosenFile, readChosenFiles } from './importFiles';
import './import-questions.css';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { currentTranslator } from '../../lib/i18n';

/** Questions in flight at once: enough to fill the import's batches of 100. */
const IN_FLIGHT = 200;
/** Image uploads at once. */
const UPLOADS = 4;
/** Rows a list of the report shows; the rest are counted. */
const SHOWN = 200;

interface Defaults {
  subject: string;
  topic: string;
  tags: string;
  explanation: string;
}
const NO_DEFAULTS: Defaults = { subject: '', topic: '', tags: '', explanation: '' };

interface Report {
  fileName: string;
  formatName: string;
  total: number;
  notes: string[];
  errors: RowError[];
  unsupported: Unsupported[];
  /** Questions no subject and topic were found for: said once, with the selects to choose them. */
  unplaced: UnplacedQuestion[];
  planned: PlannedQuestion[];
}

type Result = ImportOutcome | { status: 'failed'; message: string } | { status: 'duplicate' };
/** A question's outcome is kept by its place in the file: two copies of one question share a key. */
const placeKey = (p: PlannedQuestion) => `${p.q.part ?? ''}:${p.q.line}:${p.q.item ?? ''}`;

type Stage =
  | { kind: 'choose'; message?: string }
  | { kind: 'checking' }
  | { kind: 'report'; report: Report }
  | { kind: 'importing'; report: Report; done: number; todo: number }
  | {
      kind: 'done';
      report: Report;
      results: Map<string, Result>;
      stopped: boolean;
      error?: string;
    };

const labelOf = (q: PlannedQuestion) => currentTranslator().t(typeLabel(q.q.input.questionType));
const say: Translator['t'] = (key, values) => currentTranslator().t(key, values);

async function readFiles(list: FileList): Promise<ChosenFile[]> {
  return Promise.all(
    [...list].map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })),
  );
}

export interface ImportQuestionsDialogProps {
  open: boolean;
  /** Questions also go into this assessment (the builder); without it, into the bank only. */
  assessmentId?: string;
  assessmentName?: string;
  /** Closed; `imported` says whether anything was written (the page then reads its list again). */
  onClose: (imported: boolean) => void;
}

export function ImportQuestionsDialog({
  open,
  assessmentId,
  assessmentName,
  onClose,
}: ImportQuestionsDialogProps) {
  const { t } = useI18n();
  const id = useId();
  const [files, setFiles] = useState<ChosenFile[] | null>(null);
  const [defaults, setDefaults] = useState<Defaults>(NO_DEFAULTS);
  const [update, setUpdate] = useState(false);
  const [stage, setStage] = useState<Stage>({ kind: 'choose' });
  const [wrote, setWrote] = useState(false);
  const stop = useRef<AbortController | null>(null);
  const summaryRef = useRef<HTMLParagraphElement>(null);
  const subjects = useCall(
    (signal) =>
      open ? client.call(adminSubjectList, { signal }).then((r) => r.data) : Promise.resolve([] as Subject[]),
    [open],
  );

  // a new dialog starts from the beginning
  useEffect(() => {
    if (!open) return;
    setFiles(null);
    setDefaults(NO_DEFAULTS);
    setUpdate(false);
    setStage({ kind: 'choose' });
    setWrote(false);
  }, [open]);

  // the file and what is said for questions without a subject, topic, tags or explanation: checked again
  // at each change (text a moment after typing stops)
  useEffect(() => {
    if (!files || !subjects.data) return;
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        setStage({ kind: 'checking' });
        check(files, subjects.data!, defaults, controller.signal)
          .then((s) => {
            if (!controller.signal.aborted) setStage(s);
          })
          .catch((err: unknown) => {
            if (!controller.signal.aborted)
              setStage({
                kind: 'choose',
                message: messageOf(err, say('import.checkFailed')),
              });
          });
      },
      defaults.tags || defaults.explanation ? 300 : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [files, subjects.data, defaults]);

  // the outcome is announced and focused
  useEffect(() => {
    if (stage.kind === 'done') summaryRef.current?.focus();
  }, [stage.kind]);

  const importing = stage.kind === 'importing';
  const close = () => {
    if (importing) return;
    onClose(wrote);
  };

  async function run(report: Report) {
    const controller = new AbortController();
    stop.current = controller;
    const todo = report.planned.filter((p) => sendsQuestion(p, update, assessmentId));
    const results = new Map<string, Result>();
    // what is not sent stays as the server has it; a copy of a question before it is imported by that one
    for (const p of report.planned)
      if (p.known === 'duplicate') results.set(placeKey(p), { status: 'duplicate' });
      else if (!sendsQuestion(p, update, assessmentId))
        results.set(placeKey(p), {
          key: p.key,
          status: p.known as 'unchanged' | 'changed',
          questionId: p.questionId,
        });
    let done = 0;
    setStage({ kind: 'importing', report, done, todo: todo.length });
    const batcher = new ImportBatcher(client, { ...(assessmentId ? { assessmentId } : {}), update });
    let uploading = 0;
    const waiting: (() => void)[] = [];
    const upload: Parameters<typeof importPlanned>[1]['upload'] = async (source) => {
      while (uploading >= UPLOADS) await new Promise<void>((r) => waiting.push(r));
      uploading++;
      try {
        return await uploadImportImage(
          { client, fetch: window.fetch.bind(window), signal: controller.signal },
          source,
        );
      } finally {
        uploading--;
        waiting.shift()?.();
      }
    };
    let fatal: string | undefined;
    let next = 0;
    const worker = async () => {
      while (next < todo.length && !controller.signal.aborted && !fatal) {
        const p = todo[next++]!;
        try {
          const outcome = await importPlanned(p, {
            batcher,
            update,
            upload,
            ...(assessmentId ? { assessmentId } : {}),
          });
          results.set(placeKey(p), outcome);
          if (outcome.status === 'created' || outcome.status === 'updated' || assessmentId) setWrote(true);
        } catch (err) {
          if (controller.signal.aborted) break;
          const message = messageOf(err, (err as Error).message || say('import.failedOne'));
          results.set(placeKey(p), { status: 'failed', message });
          // signed out, or the server or the storage is gone: the others would fail alike
          if (
            (err instanceof ApiError && err.status === 401) ||
            (err instanceof UploadError ? err.reason === 'unreachable' : !(err instanceof ApiError))
          )
            fatal = message;
        }
        done++;
        setStage({ kind: 'importing', report, done, todo: todo.length });
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, todo.length) }, worker));
    stop.current = null;
    setStage({
      kind: 'done',
      report,
      results,
      stopped: controller.signal.aborted,
      ...(fatal ? { error: fatal } : {}),
    });
  }

  const report =
    stage.kind === 'report' || stage.kind === 'importing' || stage.kind === 'done' ? stage.report : null;
  const toWrite = report ? report.planned.filter((p) => writesQuestion(p, update)).length : 0;
  const toAdd = report
    ? report.planned.filter((p) => sendsQuestion(p, update, assessmentId)).length - toWrite
    : 0;
  const changed = report ? report.planned.filter((p) => p.known === 'changed').length : 0;
  const blocked = !report || report.errors.length > 0 || report.unplaced.length > 0;

  let actions: ReactNode;
  if (stage.kind === 'importing')
    actions = (
      <button type="button" className="btn btn-secondary" onClick={() => stop.current?.abort()}>
        {t('import.stop')}
      </button>
    );
  else if (stage.kind === 'done')
    actions = (
      <button type="button" className="btn" onClick={close}>
        {t('common.close')}
      </button>
    );
  else
    actions = (
      <>
        <button type="button" className="btn btn-secondary" onClick={close}>
          {t('common.cancel')}
        </button>
        <button
          type="button"
          className="btn"
          disabled={stage.kind !== 'report' || blocked || toWrite + toAdd === 0}
          onClick={() => report && void run(report)}
        >
          {importButton(report, toWrite, toAdd)}
        </button>
      </>
    );

  const subjectList = subjects.data ?? [];
  const topics = subjectList.find((s) => s._id === defaults.subject)?.topics ?? [];

  return (
    <Dialog open={open} title={t('builder.import')} onClose={close} modalOnly={importing} actions={actions}>
      <div className="import-questions">
        {stage.kind === 'done' || importing ? null : (
          <>
            <div className="field">
              <label htmlFor={`${id}-file`}>{t('import.file')}</label>
              <input
                id={`${id}-file`}
                type="file"
                multiple
                aria-describedby={`${id}-file-hint`}
                onChange={async (e) => {
                  const list = e.currentTarget.files;
                  if (!list?.length) return;
                  setFiles(await readFiles(list));
                }}
              />
              <span id={`${id}-file-hint`} className="hint">
                {t('import.fileHint')}
                {assessmentName ? ` ${t('import.alsoAdded', { name: assessmentName })}` : ''}
              </span>
            </div>
            <fieldset className="import-defaults" aria-describedby={`${id}-place-hint`}>
              <legend>{t('import.subjectAndTopic')}</legend>
              <div className="field">
                <label htmlFor={`${id}-subject`}>{t('column.subject')}</label>
                <select
                  id={`${id}-subject`}
                  value={defaults.subject}
                  onChange={(e) => setDefaults({ ...defaults, subject: e.target.value, topic: '' })}
                >
                  <option value="">{t('import.fromFile')}</option>
                  {subjectList.map((s) => (
                    <option key={s._id} value={s._id}>
                      {s.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`${id}-topic`}>{t('editor.topic')}</label>
                <select
                  id={`${id}-topic`}
                  value={defaults.topic}
                  disabled={!defaults.subject}
                  onChange={(e) => setDefaults({ ...defaults, topic: e.target.value })}
                >
                  <option value="">{t('import.fromFile')}</option>
                  {topics.map((topic) => (
                    <option key={topic._id} value={topic._id}>
                      {topic.name}
                    </option>
                  ))}
                </select>
              </div>
              <p id={`${id}-place-hint`} className="hint import-wide">
                {t('import.placeHint')}
              </p>
            </fieldset>
            <fieldset className="import-defaults">
              <legend>{t('import.defaults')}</legend>
              <div className="field">
                <label htmlFor={`${id}-tags`}>{t('editor.tags')}</label>
                <input
                  id={`${id}-tags`}
                  type="text"
                  placeholder={t('import.tagsPlaceholder')}
                  value={defaults.tags}
                  onChange={(e) => setDefaults({ ...defaults, tags: e.target.value })}
                />
              </div>
              <div className="field">
                <label htmlFor={`${id}-explanation`}>{t('editor.explanation')}</label>
                <input
                  id={`${id}-explanation`}
                  type="text"
                  value={defaults.explanation}
                  onChange={(e) => setDefaults({ ...defaults, explanation: e.target.value })}
                />
              </div>
            </fieldset>
          </>
        )}
        {subjects.error ? <LoadFailed error={subjects.error} /> : null}
        {stage.kind === 'choose' && stage.message ? (
          <p className="alert alert-error" role="alert">
            {stage.message}
          </p>
        ) : null}
        {stage.kind === 'checking' ? (
          <p role="status" className="import-status">
            <Spinner /> {t('import.checking')}
          </p>
        ) : null}
        {stage.kind === 'report' ? (
          <ReportView report={stage.report} update={update} assessmentId={assessmentId}>
            {changed ? (
              <label className="import-check">
                <input type="checkbox" checked={update} onChange={(e) => setUpdate(e.target.checked)} />{' '}
                {t('import.updateChanged', { count: changed })}
              </label>
            ) : null}
          </ReportView>
        ) : null}
        {stage.kind === 'importing' ? (
          <div className="import-progress">
            <label htmlFor={`${id}-progress`}>
              {assessmentName
                ? t('import.importingInto', { file: stage.report.fileName, name: assessmentName })
                : t('import.importing', { file: stage.report.fileName })}
            </label>
            <progress id={`${id}-progress`} max={stage.todo} value={stage.done} />
            <p role="status">{t('import.progress', { done: stage.done, todo: stage.todo })}</p>
          </div>
        ) : null}
        {stage.kind === 'done' ? <DoneView stage={stage} summaryRef={summaryRef} /> : null}
      </div>
    </Dialog>
  );
}

function importButton(report: Report | null, toWrite: number, toAdd: number) {
  if (!report) return say('import.import');
  if (report.unsupported.length && toWrite + toAdd > 0) return say('import.importOthers');
  if (toWrite === 0 && toAdd > 0) return say('import.addToAssessment', { count: toAdd });
  return say('import.importCount', { count: toWrite });
}

/** Reads and checks the chosen files, then asks the server which questions it has. */
async function check(
  files: ChosenFile[],
  subjects: Subject[],
  defaults: Defaults,
  signal: AbortSignal,
): Promise<Stage> {
  const chosen = readChosenFiles(files);
  if (!chosen.ok) return { kind: 'choose', message: chosen.message };
  const { file, read } = chosen;
  if (!read.format) return { kind: 'choose', message: `${file.name} ${UNKNOWN_FORMAT}.` };
  const tags = defaults.tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const checked = checkFile(read.result, subjects, {
    images: chosen.images,
    defaults: {
      ...(tags.length ? { tags } : {}),
      ...(defaults.explanation.trim() ? { explanation: defaults.explanation.trim() } : {}),
    },
    ...(defaults.subject
      ? { overrides: { subject: defaults.subject, ...(defaults.topic ? { topic: defaults.topic } : {}) } }
      : {}),
  });
  const planned =
    checked.errors.length || checked.unplaced.length
      ? []
      : await planImport(client, checked.questions, sha256Hex, signal);
  return {
    kind: 'report',
    report: {
      fileName: file.name,
      formatName: FORMAT_NAMES[read.format],
      total: read.result.total,
      notes: read.result.notes,
      errors: checked.errors,
      unsupported: checked.unsupported,
      unplaced: checked.unplaced,
      planned,
    },
  };
}

function Group({
  title,
  count,
  open,
  children,
}: {
  title: string;
  count: number;
  open?: boolean;
  children: ReactNode;
}) {
  if (!count) return null;
  return (
    <details className="import-group" open={open}>
      <summary>
        {title}: {count}
      </summary>
      {children}
      {count > SHOWN ? <p className="muted">{say('import.andMore', { count: count - SHOWN })}</p> : null}
    </details>
  );
}

function QuestionRows({ rows, word }: { rows: PlannedQuestion[]; word: (p: PlannedQuestion) => ReactNode }) {
  return (
    <ul className="import-list">
      {rows.slice(0, SHOWN).map((p) => (
        <li key={placeKey(p)}>
          <span className="import-place">{describePlace(p.q)}</span> · {labelOf(p)} ·{' '}
          <span className="import-text">“{shorten(p.q.input.question, 80)}”</span>
          <span className="import-word">{word(p)}</span>
        </li>
      ))}
    </ul>
  );
}

function ReportView({
  report,
  update,
  assessmentId,
  children,
}: {
  report: Report;
  update: boolean;
  assessmentId: string | undefined;
  children?: ReactNode;
}) {
  const { planned, errors, unsupported, unplaced } = report;
  const created = planned.filter((p) => p.known === 'new');
  const unchanged = planned.filter((p) => p.known === 'unchanged');
  const changed = planned.filter((p) => p.known === 'changed');
  const duplicates = planned.filter((p) => p.known === 'duplicate');
  const problems = errors.length + unsupported.length;
  const blocked = errors.length > 0 || unplaced.length > 0;
  let summary: string;
  if (blocked) {
    const counted = [...errors, ...unsupported.map((u) => ({ ...u, field: u.kind, message: u.reason }))];
    const said = [
      ...(unplaced.length
        ? [`${describeUnplaced(unplaced, report.total)}. ${say('import.chooseSubject')}`]
        : []),
      ...(errors.length ? [problemCount(counted, report.total)] : []),
    ];
    summary = say('import.blocked', {
      file: report.fileName,
      format: report.formatName,
      said: said.join('; '),
      until: errors.length ? 'fixed' : 'placed',
    });
  } else {
    const parts = [
      created.length ? say('import.part.created', { count: created.length }) : '',
      unchanged.length ? say('import.part.unchanged', { count: unchanged.length }) : '',
      changed.length ? say('import.part.changed', { count: changed.length }) : '',
      duplicates.length ? say('import.part.duplicate', { count: duplicates.length }) : '',
      unsupported.length ? say('import.part.unsupported', { count: unsupported.length }) : '',
    ].filter(Boolean);
    summary = say('import.summary', {
      file: report.fileName,
      format: report.formatName,
      count: report.total,
      parts: parts.length ? currentTranslator().list(parts, { type: 'unit' }) : say('import.none'),
    });
  }
  return (
    <div className="import-report">
      <p role="status" className={blocked ? 'alert alert-error' : 'alert alert-info'}>
        {summary}
      </p>
      {report.notes.length ? (
        <ul className="import-notes">
          {report.notes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}
      <Group title={say('import.group.problems')} count={errors.length} open>
        <ul className="import-list">
          {errors.slice(0, SHOWN).map((e) => (
            <li key={`${describePlace(e)}-${e.field}-${e.message}`}>
              <span className="import-place">{describePlace(e)}</span> · {e.field}:{' '}
              <span className="import-text">{e.message}</span>
            </li>
          ))}
        </ul>
      </Group>
      <Group title={say('import.group.unsupported')} count={unsupported.length} open>
        <ul className="import-list">
          {unsupported.slice(0, SHOWN).map((u) => (
            <li key={`${describePlace(u)}-${u.kind}`}>
              <span className="import-place">{describePlace(u)}</span> · {u.kind}
              {u.title ? (
                <>
                  {' '}
                  · <span className="import-text">“{shorten(u.title, 60)}”</span>
                </>
              ) : null}
              <span className="import-word">{u.reason}</span>
            </li>
          ))}
        </ul>
      </Group>
      {blocked ? null : (
        <>
          <Group title={say('import.group.created')} count={created.length} open={created.length <= 20}>
            <QuestionRows rows={created} word={() => say('import.word.created')} />
          </Group>
          <Group title={say('import.group.unchanged')} count={unchanged.length}>
            <QuestionRows
              rows={unchanged}
              word={() => (assessmentId ? say('import.word.unchangedAdded') : say('import.word.unchanged'))}
            />
          </Group>
          <Group title={say('import.group.changed')} count={changed.length} open>
            <QuestionRows
              rows={changed}
              word={() => (update ? say('import.word.updating') : say('import.word.changed'))}
            />
          </Group>
          <Group title={say('import.group.duplicate')} count={duplicates.length} open>
            <QuestionRows rows={duplicates} word={duplicateWord} />
          </Group>
          {children}
        </>
      )}
      {problems && !blocked && unsupported.length ? (
        <p className="muted">{say('import.othersHint')}</p>
      ) : null}
    </div>
  );
}

const duplicateWord = (p: PlannedQuestion) =>
  p.duplicateOf ? say('import.sameAs', { place: describePlace(p.duplicateOf) }) : say('import.sameAsAnother');

const DONE_WORDS: Record<string, MessageKey> = {
  created: 'import.done.created',
  updated: 'import.done.updated',
  unchanged: 'import.done.unchanged',
  changed: 'import.done.changed',
  duplicate: 'import.done.duplicate',
  failed: 'import.done.failed',
};

function DoneView({
  stage,
  summaryRef,
}: {
  stage: Extract<Stage, { kind: 'done' }>;
  summaryRef: RefObject<HTMLParagraphElement | null>;
}) {
  const { report, results, stopped, error } = stage;
  const count = (s: string) => [...results.values()].filter((r) => r.status === s).length;
  const failed = report.planned.filter((p) => results.get(placeKey(p))?.status === 'failed');
  const notReached = report.planned.filter((p) => !results.has(placeKey(p)));
  const parts = ['created', 'updated', 'unchanged', 'changed', 'duplicate', 'failed']
    .map((s) => (count(s) ? say(DONE_WORDS[s]!, { count: count(s) }) : ''))
    .filter(Boolean);
  return (
    <div className="import-report">
      <p
        ref={summaryRef}
        tabIndex={-1}
        role="status"
        className={failed.length || error ? 'alert alert-warning' : 'alert alert-success'}
      >
        {say('import.doneSummary', {
          file: report.fileName,
          parts: parts.length ? currentTranslator().list(parts, { type: 'unit' }) : say('import.nothing'),
        })}
        {report.unsupported.length ? ` ${say('import.leftOut', { count: report.unsupported.length })}` : ''}
        {stopped || error
          ? ` ${error ? say('import.stoppedError', { error, count: notReached.length }) : say('import.stopped', { count: notReached.length })}`
          : ''}
      </p>
      <Group title={say('import.group.failed')} count={failed.length} open>
        <ul className="import-list">
          {failed.slice(0, SHOWN).map((p) => {
            const r = results.get(placeKey(p)) as { field?: string; message?: string };
            return (
              <li key={placeKey(p)}>
                <span className="import-place">{describePlace(p.q)}</span> · {labelOf(p)} ·{' '}
                <span className="import-text">“{shorten(p.q.input.question, 80)}”</span>
                <span className="import-word">
                  {r.field ? `${r.field}: ` : ''}
                  {r.message ?? say('import.notCreated')}
                </span>
              </li>
            );
          })}
        </ul>
      </Group>
      <Group
        title={say('import.group.imported')}
        count={report.planned.length - failed.length - notReached.length}
        open={report.planned.length <= 20}
      >
        <QuestionRows
          rows={report.planned.filter((p) => !failed.includes(p) && !notReached.includes(p))}
          word={(p) =>
            p.known === 'duplicate'
              ? duplicateWord(p)
              : say(DONE_WORDS[results.get(placeKey(p))?.status ?? p.known] ?? 'import.done.unchanged', {
                  count: 1,
                })
          }
        />
      </Group>
    </div>
  );
}
