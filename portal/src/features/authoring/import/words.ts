/**
 * What "Import questions" says of a file in the reader's language: where a question sits, each problem the
 * shared readers found (by its code, shared/formats/problems.ts; its English text when it has none), and
 * the report's first line. The CLI says the same in English (shared/formats/prepare.ts, placement.ts).
 */
import type { PlannedQuestion } from '@shared/client/question-import';
import { type UnplacedQuestion, unplacedCategories } from '@shared/formats/placement';
import type { Coded, Place, RowError } from '@shared/formats/record';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import type { Report } from './parts';

type Speaker = Pick<Translator, 't' | 'list'>;
const isFileProblem = (p: RowError) => p.scope === 'file';

/** "line 3", "line 3 (item 2)", "items/q1.xml: line 1". */
export function placeText({ t }: Speaker, p: Place): string {
  const line = p.item
    ? t('import.place.item', { line: p.line, item: p.item })
    : t('import.place.line', { line: p.line });
  return p.part ? t('import.place.part', { part: p.part, place: line }) : line;
}

/** A problem's words: from the catalogue by its code, else as the reader wrote it (English). */
export const problemText = ({ t }: Speaker, e: Coded & ({ message: string } | { reason: string })): string =>
  e.code ? t(e.code, e.params) : 'message' in e ? e.message : e.reason;

/** The field of a problem, as the file names it ("options: option 2" in the reader's words). */
export const fieldText = ({ t }: Speaker, e: RowError) =>
  e.fieldCode ? t(e.fieldCode, e.fieldParams) : e.field;

/** "line 3: options: option 2: is the same as option 1; …". */
export const rowErrorText = (s: Speaker, e: RowError) =>
  s.t('import.problemAt', { place: placeText(s, e), field: fieldText(s, e), problem: problemText(s, e) });

export const duplicateText = (s: Speaker, p: PlannedQuestion) =>
  p.duplicateOf ? s.t('import.duplicateOf', { place: placeText(s, p.duplicateOf) }) : s.t('import.duplicate');

/** The file's problems in one phrase, as prepare.ts's problemCount says them in English. */
export function problemCountText(s: Speaker, problems: readonly RowError[], total: number): string {
  const { t } = s;
  const ofFile = problems.filter(isFileProblem);
  const ofQuestions = problems.filter((p) => !isFileProblem(p));
  if (total === 0 && ofFile.length) {
    const [first] = ofFile;
    if (first!.code === 'import.problem.noQuestions' && ofFile.length === 1)
      return t('import.count.noQuestions');
    return t('import.count.unreadable', { problem: rowErrorText(s, first!), more: problems.length - 1 });
  }
  const questions = new Set(ofQuestions.map((p) => `${p.part ?? ''}:${p.line}:${p.item ?? ''}`)).size;
  const inQuestions = { count: ofQuestions.length, questions, total };
  if (!ofFile.length) return t('import.count.inQuestions', inQuestions);
  if (!ofQuestions.length) return t('import.count.ofFile', { count: ofFile.length });
  return t('import.count.both', { ...inQuestions, file: ofFile.length });
}

/** The questions without a subject and topic, said once (placement.ts's describeUnplaced). */
export function unplacedText(s: Speaker, unplaced: readonly UnplacedQuestion[], total: number): string {
  const { counts, bare } = unplacedCategories(unplaced);
  const listed = [...counts]
    .slice(0, 5)
    .map(([path, count]) => s.t('import.unplaced.category', { path, count }));
  const categories = s.t('import.unplaced.categories', {
    list: s.list(listed, { type: 'unit', style: 'short' }),
    more: Math.max(0, counts.size - 5),
  });
  const why = !counts.size
    ? s.t('import.unplaced.none')
    : bare
      ? s.t('import.unplaced.someBare', { bare, categories })
      : s.t('import.unplaced.all', { categories });
  return s.t('import.unplaced', { count: unplaced.length, total, why });
}

const STATUS_COUNTS: Record<PlannedQuestion['known'], MessageKey> = {
  new: 'import.review.new',
  unchanged: 'import.review.unchanged',
  changed: 'import.review.changed',
  duplicate: 'import.review.duplicate',
};

/** The report's first line: what the file holds, or why nothing can be imported yet. */
export function summaryText(s: Speaker, report: Report, byStatus: Record<PlannedQuestion['known'], number>) {
  const { errors, unsupported, unplaced } = report;
  const file = { file: report.fileName, format: report.formatName };
  if (errors.length || unplaced.length) {
    const counted: RowError[] = [
      ...errors,
      ...unsupported.map((u) => ({ ...u, field: u.kind, message: u.reason })),
    ];
    const said = [
      ...(unplaced.length ? [unplacedText(s, unplaced, report.total)] : []),
      ...(errors.length ? [problemCountText(s, counted, report.total)] : []),
    ];
    return s.t('import.review.blocked', {
      ...file,
      said: s.list(said),
      fix: errors.length ? 'problems' : 'place',
    });
  }
  const parts = (Object.keys(STATUS_COUNTS) as PlannedQuestion['known'][])
    .filter((k) => byStatus[k])
    .map((k) => s.t(STATUS_COUNTS[k], { count: byStatus[k] }));
  if (unsupported.length) parts.push(s.t('import.review.unsupported', { count: unsupported.length }));
  return s.t('import.review.summary', {
    ...file,
    total: report.total,
    parts: parts.length ? s.list(parts, { type: 'unit', style: 'short' }) : s.t('import.review.none'),
  });
}
