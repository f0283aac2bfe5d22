/**
 * The question table of item analysis (issue 30; docs/item-analysis.md): each question's attempts, facility,
 * discrimination, time and flags, sortable by any column (a button in each header; `aria-sort` says the
 * order), the flagged questions first. Each row opens to say why — each flag with its rule — and how its
 * options were chosen overall and by the upper and lower 27 % of takers.
 */
import type { ItemFigures, QuestionStatsRow } from '@shared/contract/analysis';
import { ITEM_RULES } from '@shared/rules/item-analysis';
import { QUESTION_TYPE_TABLE } from '@shared/rules/question-types';
import { durationWords } from '@shared/rules/test-figures';
import { useState } from 'react';
import type { z } from 'zod';

type Row = z.infer<typeof QuestionStatsRow>;
type Figures = z.infer<typeof ItemFigures>;
type Key = 'position' | 'question' | 'attempts' | 'facility' | 'discrimination' | 'time' | 'flags';

const two = (n: number | null) => (n === null ? '—' : n.toFixed(2));
const percent = (n: number | null) => (n === null ? '—' : `${Math.round(n * 100)} %`);

/** Flags that say the question is likely wrong, not only weak. */
const SERIOUS = new Set(['LIKELY_MISKEYED', 'NEGATIVE_DISCRIMINATION', 'POSSIBLY_LEAKED']);

const sortValue = (row: Row, key: Key): number | string => {
  const f = row.figures;
  switch (key) {
    case 'position':
      return row.position ?? Number.POSITIVE_INFINITY;
    case 'question':
      return row.question.toLowerCase();
    case 'attempts':
      return f.attempts;
    case 'facility':
      return f.facility ?? Number.POSITIVE_INFINITY;
    case 'discrimination':
      return f.discrimination ?? Number.POSITIVE_INFINITY;
    case 'time':
      return f.averageSeconds ?? Number.POSITIVE_INFINITY;
    case 'flags':
      // serious flags weigh most, then how many
      return -(f.flags.filter((x) => SERIOUS.has(x.code)).length * 10 + f.flags.length);
  }
};

export function FlagBadges({ figures }: { figures: Figures }) {
  if (figures.smallSample) {
    return (
      <span className="muted">
        Small sample ({figures.attempts} of {ITEM_RULES.minAttempts} attempts): no flags yet
      </span>
    );
  }
  if (figures.flags.length === 0) return <span className="muted">None</span>;
  return (
    <ul className="flag-list">
      {figures.flags.map((f) => (
        <li key={f.code}>
          <span className={`badge ${SERIOUS.has(f.code) ? 'badge-danger' : 'badge-warning'}`}>{f.label}</span>
        </li>
      ))}
    </ul>
  );
}

/** Why a question is flagged, and its options: the flags with their rules, then the option shares. */
export function FigureDetails({ figures }: { figures: Figures }) {
  return (
    <div className="figure-details">
      {figures.flags.length ? (
        <ul className="flag-reasons">
          {figures.flags.map((f) => (
            <li key={f.code}>
              <strong>{f.label}.</strong> {f.detail} <span className="muted">Rule: {f.rule}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {figures.discriminationNote ? (
        <p className="muted">Discrimination: {figures.discriminationNote}</p>
      ) : null}
      {figures.options ? (
        <table className="table option-shares">
          <caption>How its options were chosen</caption>
          <thead>
            <tr>
              <th scope="col">Option</th>
              <th scope="col">All takers</th>
              <th scope="col">Upper 27 %</th>
              <th scope="col">Lower 27 %</th>
            </tr>
          </thead>
          <tbody>
            {figures.options.map((o) => (
              <tr key={o.option}>
                <th scope="row" data-label="Option" className="cell-wrap">
                  {o.label}
                  {o.isKey ? <span className="badge badge-success">Correct</span> : null}
                </th>
                <td data-label="All takers">{percent(o.share)}</td>
                <td data-label="Upper 27 %">{percent(o.upper)}</td>
                <td data-label="Lower 27 %">{percent(o.lower)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">A typed answer: no options to compare.</p>
      )}
    </div>
  );
}

const COLUMNS: { key: Key; label: string }[] = [
  { key: 'position', label: '#' },
  { key: 'question', label: 'Question' },
  { key: 'attempts', label: 'Attempts' },
  { key: 'facility', label: 'Facility' },
  { key: 'discrimination', label: 'Discrimination' },
  { key: 'time', label: 'Average time' },
  { key: 'flags', label: 'Flags' },
];

export function StatsTable({
  rows,
  caption,
  positions = true,
}: {
  rows: readonly Row[];
  caption: string;
  /** Show the question's place (an assessment's table); a bank has none. */
  positions?: boolean;
}) {
  const [sort, setSort] = useState<{ key: Key; ascending: boolean }>({ key: 'flags', ascending: true });
  const columns = COLUMNS.filter((c) => positions || c.key !== 'position');
  const sorted = [...rows].sort((a, b) => {
    const x = sortValue(a, sort.key);
    const y = sortValue(b, sort.key);
    const order = x < y ? -1 : x > y ? 1 : sortValue(a, 'position') < sortValue(b, 'position') ? -1 : 1;
    return sort.ascending ? order : -order;
  });
  const cell = (row: Row, key: Key) => {
    const f = row.figures;
    switch (key) {
      case 'position':
        return row.position ?? <span className="muted">removed</span>;
      case 'question':
        return (
          <details className="stats-question">
            <summary>
              <span className="cell-wrap">{row.question || 'Untitled question'}</span>{' '}
              <span className="muted">· {QUESTION_TYPE_TABLE[row.questionType].label}</span>
            </summary>
            <FigureDetails figures={f} />
          </details>
        );
      case 'attempts':
        return f.attempts;
      case 'facility':
        return two(f.facility);
      case 'discrimination':
        return two(f.discrimination);
      case 'time':
        return durationWords(f.averageSeconds);
      case 'flags':
        return <FlagBadges figures={f} />;
    }
  };
  return (
    <div className="card table-wrap stats-table">
      <table className="table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort.key === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? (sort.ascending ? 'ascending' : 'descending') : 'none'}
                >
                  <button
                    type="button"
                    className="sort-button"
                    onClick={() => setSort({ key: c.key, ascending: active ? !sort.ascending : true })}
                  >
                    {c.label}
                    <span aria-hidden="true">{active ? (sort.ascending ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {sorted.length === 0 ? (
            <tr>
              <td colSpan={columns.length} className="empty">
                No data found
              </td>
            </tr>
          ) : (
            sorted.map((row) => (
              <tr key={row.questionId}>
                {columns.map((c) => (
                  <td key={c.key} data-label={c.label}>
                    {cell(row, c.key)}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
