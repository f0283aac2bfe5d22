/**
 * The question table of item analysis (issue 30; docs/item-analysis.md): each question's attempts, facility,
 * discrimination, time and flags, sortable by any column (a button in each header; `aria-sort` says the
 * order), the flagged questions first. Each row opens to say why — each flag with its rule — and how its
 * options were chosen overall and by the upper and lower 27 % of takers.
 */
import type { ItemFigures, QuestionStatsRow } from '@shared/contract/analysis';
import type { MessageKey } from '@shared/i18n/keys';
import type { Translator } from '@shared/i18n/translator';
import { formatDuration } from '@shared/rules/durations';
import { flagDetail } from '@shared/rules/flag-words';
import { type FlagCode, ITEM_RULES } from '@shared/rules/item-analysis';
import { OMITTED } from '@shared/rules/item-sums';
import { QUESTION_TYPE_TABLE } from '@shared/rules/question-types';
import { durationWords } from '@shared/rules/test-figures';
import { useI18n } from '@widgets/core/i18n';
import { useState } from 'react';
import type { z } from 'zod';

type Row = z.infer<typeof QuestionStatsRow>;
type Figures = z.infer<typeof ItemFigures>;
type Key = 'position' | 'question' | 'attempts' | 'facility' | 'discrimination' | 'time' | 'flags';

/** A figure with two decimals, as the reader's language writes it. */
export const two = (n: number | null, { number }: Translator) =>
  n === null ? '—' : number(n, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const percent = (n: number | null, tr: Translator) =>
  n === null ? '—' : tr.t('stats.percent', { value: tr.number(Math.round(n * 100)) });
/** Seconds as '1 min 05 s' in English, as `Intl.DurationFormat` says them in another language. */
export const seconds = (n: number | null, { locale }: Translator) =>
  n === null || !Number.isFinite(n) ? '—' : locale === 'en' ? durationWords(n) : formatDuration(n, locale);

const FLAG: Record<FlagCode, { label: MessageKey; rule: MessageKey }> = {
  TOO_EASY: { label: 'stats.flag.TOO_EASY', rule: 'stats.rule.TOO_EASY' },
  TOO_HARD: { label: 'stats.flag.TOO_HARD', rule: 'stats.rule.TOO_HARD' },
  NEGATIVE_DISCRIMINATION: {
    label: 'stats.flag.NEGATIVE_DISCRIMINATION',
    rule: 'stats.rule.NEGATIVE_DISCRIMINATION',
  },
  POOR_DISCRIMINATION: { label: 'stats.flag.POOR_DISCRIMINATION', rule: 'stats.rule.POOR_DISCRIMINATION' },
  RARE_DISTRACTOR: { label: 'stats.flag.RARE_DISTRACTOR', rule: 'stats.rule.RARE_DISTRACTOR' },
  LIKELY_MISKEYED: { label: 'stats.flag.LIKELY_MISKEYED', rule: 'stats.rule.LIKELY_MISKEYED' },
  POSSIBLY_LEAKED: { label: 'stats.flag.POSSIBLY_LEAKED', rule: 'stats.rule.POSSIBLY_LEAKED' },
};

/** A flag's rule in the reader's language, with the thresholds of ITEM_RULES. */
function ruleOf(code: FlagCode, tr: Translator): string {
  const value = (n: number) => two(n, tr);
  return tr.t(FLAG[code].rule, {
    value: value(
      code === 'TOO_EASY'
        ? ITEM_RULES.tooEasy
        : code === 'TOO_HARD'
          ? ITEM_RULES.tooHard
          : ITEM_RULES.poorDiscrimination,
    ),
    share: percent(code === 'RARE_DISTRACTOR' ? ITEM_RULES.rareDistractor : ITEM_RULES.groupShare, tr),
    rise: value(ITEM_RULES.leak.rise),
    z: tr.number(ITEM_RULES.leak.z),
    min: tr.number(ITEM_RULES.leak.minEachSide),
  });
}

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
  const { t, number } = useI18n();
  if (figures.smallSample) {
    return (
      <span className="muted">
        {t('stats.smallSample', { attempts: number(figures.attempts), min: number(ITEM_RULES.minAttempts) })}
      </span>
    );
  }
  if (figures.flags.length === 0) return <span className="muted">{t('stats.noFlags')}</span>;
  return (
    <ul className="flag-list">
      {figures.flags.map((f) => (
        <li key={f.code}>
          <span className={`badge ${SERIOUS.has(f.code) ? 'badge-danger' : 'badge-warning'}`}>
            {t(FLAG[f.code].label)}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** Why a question is flagged, and its options: the flags with their rules, then the option shares. */
export function FigureDetails({ figures }: { figures: Figures }) {
  const tr = useI18n();
  const { t } = tr;
  const group = percent(ITEM_RULES.groupShare, tr);
  return (
    <div className="figure-details">
      {figures.flags.length ? (
        <ul className="flag-reasons">
          {figures.flags.map((f) => (
            <li key={f.code}>
              <strong>{t(FLAG[f.code].label)}.</strong> {flagDetail(f, tr)}{' '}
              <span className="muted">{t('stats.rule', { rule: ruleOf(f.code, tr) })}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {figures.discriminationNote ? (
        <p className="muted">
          {t('stats.discriminationNote', {
            note: figures.discriminationNoteCode
              ? t(figures.discriminationNoteCode)
              : figures.discriminationNote,
          })}
        </p>
      ) : null}
      {figures.options ? (
        <table className="table option-shares">
          <caption>{t('stats.optionsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('stats.option')}</th>
              <th scope="col">{t('stats.allTakers')}</th>
              <th scope="col">{t('stats.upper', { share: group })}</th>
              <th scope="col">{t('stats.lower', { share: group })}</th>
            </tr>
          </thead>
          <tbody>
            {figures.options.map((o) => (
              <tr key={o.option}>
                <th scope="row" data-label={t('stats.option')} className="cell-wrap">
                  {o.option === OMITTED ? t('stats.noAnswer') : o.label}
                  {o.isKey ? <span className="badge badge-success">{t('stats.correct')}</span> : null}
                </th>
                <td data-label={t('stats.allTakers')}>{percent(o.share, tr)}</td>
                <td data-label={t('stats.upper', { share: group })}>{percent(o.upper, tr)}</td>
                <td data-label={t('stats.lower', { share: group })}>{percent(o.lower, tr)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p className="muted">{t('stats.typed')}</p>
      )}
    </div>
  );
}

const COLUMNS: { key: Key; label: MessageKey | '#' }[] = [
  { key: 'position', label: '#' },
  { key: 'question', label: 'stats.question' },
  { key: 'attempts', label: 'stats.attempts' },
  { key: 'facility', label: 'stats.facility' },
  { key: 'discrimination', label: 'stats.discrimination' },
  { key: 'time', label: 'stats.averageTime' },
  { key: 'flags', label: 'stats.flags' },
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
  const tr = useI18n();
  const { t } = tr;
  const [sort, setSort] = useState<{ key: Key; ascending: boolean }>({ key: 'flags', ascending: true });
  const columns = COLUMNS.filter((c) => positions || c.key !== 'position').map((c) => ({
    key: c.key,
    label: c.label === '#' ? '#' : t(c.label),
  }));
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
        return row.position ?? <span className="muted">{t('stats.removed')}</span>;
      case 'question':
        return (
          <details className="stats-question">
            <summary>
              <span className="cell-wrap">{row.question || t('stats.untitled')}</span>{' '}
              <span className="muted">· {t(QUESTION_TYPE_TABLE[row.questionType].label)}</span>
            </summary>
            <FigureDetails figures={f} />
          </details>
        );
      case 'attempts':
        return tr.number(f.attempts);
      case 'facility':
        return two(f.facility, tr);
      case 'discrimination':
        return two(f.discrimination, tr);
      case 'time':
        return seconds(f.averageSeconds, tr);
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
                {t('stats.noData')}
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
