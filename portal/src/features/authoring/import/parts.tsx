/** What the steps of "Import questions" share: the report's shape, a question's key and line, a group. */
import type { ImportResult, PlannedQuestion } from '@shared/client/question-import';
import type { UnplacedQuestion } from '@shared/formats/placement';
import type { Note, RowError, Unsupported } from '@shared/formats/record';
import { shorten } from '@shared/formats/record';
import { typeLabel } from '@shared/rules/question-types';
import { useI18n } from '@widgets/core/i18n';
import type { ReactNode } from 'react';
import { placeText } from './words';

/** Rows a list of the report shows; the rest are counted. */
const SHOWN = 200;

/** What the file holds and what the server already has of it (the check step's outcome). */
export interface Report {
  fileName: string;
  formatName: string;
  total: number;
  notes: Note[];
  errors: RowError[];
  unsupported: Unsupported[];
  /** Questions no subject and topic were found for: said once, with the selects to choose them. */
  unplaced: UnplacedQuestion[];
  planned: PlannedQuestion[];
}

/** A question's outcome is kept by its place in the file: two copies of one question share a key. */
export const placeKey = (p: PlannedQuestion) => `${p.q.part ?? ''}:${p.q.line}:${p.q.item ?? ''}`;

/** The outcome of each question of an import, by placeKey. */
export type Results = Map<string, ImportResult>;

/** A folding group of the report, with its count; hidden when empty. */
export function Group({
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
  const { t } = useI18n();
  if (!count) return null;
  return (
    <details className="import-group" open={open}>
      <summary>{t('import.group', { title, count })}</summary>
      {children}
      {count > SHOWN ? <p className="muted">{t('import.more', { count: count - SHOWN })}</p> : null}
    </details>
  );
}

/** One line a question: its place, type, text, and a word of what becomes (or became) of it. */
export function QuestionRows({
  rows,
  word,
}: {
  rows: PlannedQuestion[];
  word: (p: PlannedQuestion) => ReactNode;
}) {
  const i18n = useI18n();
  return (
    <ul className="import-list">
      {rows.slice(0, SHOWN).map((p) => (
        <li key={placeKey(p)}>
          <span className="import-place">{placeText(i18n, p.q)}</span> ·{' '}
          {i18n.t(typeLabel(p.q.input.questionType))} ·{' '}
          <span className="import-text">
            {i18n.t('import.quoted', { text: shorten(p.q.input.question, 80) })}
          </span>
          <span className="import-word">{word(p)}</span>
        </li>
      ))}
    </ul>
  );
}

/** The first rows of a list (the group counts the rest). */
export const shown = <T,>(rows: readonly T[]) => rows.slice(0, SHOWN);
