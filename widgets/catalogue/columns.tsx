/** The columns every roadmap table shares, the learner's and the mentor's; each page adds its action. */
import type { Translator } from '@shared/i18n/translator';
import { useI18n } from '../core/i18n';
import type { Column } from '../ui/DataTable';

interface Named {
  name: string;
}

type T = Translator['t'];

/** Name, Language, Subject, Topic: a catalogue roadmap. */
export const roadmapColumns = (
  t: T,
): Column<{
  name: string;
  language: Named;
  subject: Named;
  topic?: Named | null;
}>[] => [
  { header: t('column.name'), cell: (r) => r.name },
  { header: t('catalogue.language'), cell: (r) => r.language.name },
  { header: t('column.subject'), cell: (r) => r.subject.name },
  { header: t('catalogue.topic'), cell: (r) => r.topic?.name ?? '—' },
];

/** An assigned roadmap's status, ONGOING or COMPLETED, as a badge. */
export function RoadmapStatus({ status }: { status: string }) {
  const { t } = useI18n();
  return (
    <span className={`badge ${status === 'COMPLETED' ? 'badge-success' : 'badge-primary'}`}>
      {t('roadmapStatus', { status })}
    </span>
  );
}

/** #, Name, Status: a learner's assigned roadmap. */
export const assignedRoadmapColumns = (t: T): Column<{ name: string; status: string }>[] => [
  { header: '#', cell: (_r, i) => i + 1 },
  { header: t('column.name'), cell: (r) => r.name },
  { header: t('column.status'), cell: (r) => <RoadmapStatus status={r.status} /> },
];
