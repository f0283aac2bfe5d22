/** The columns every roadmap table shares, the learner's and the mentor's; each page adds its action. */
import type { Column } from '../ui/DataTable';

interface Named {
  name: string;
}

/** Name, Language, Subject, Topic: a catalogue roadmap. */
export const roadmapColumns: Column<{
  name: string;
  language: Named;
  subject: Named;
  topic?: Named | null;
}>[] = [
  { header: 'Name', cell: (r) => r.name },
  { header: 'Language', cell: (r) => r.language.name },
  { header: 'Subject', cell: (r) => r.subject.name },
  { header: 'Topic', cell: (r) => r.topic?.name ?? '—' },
];

/** An assigned roadmap's status, ONGOING or COMPLETED, as a badge. */
export function RoadmapStatus({ status }: { status: string }) {
  return (
    <span className={`badge ${status === 'COMPLETED' ? 'badge-success' : 'badge-primary'}`}>{status}</span>
  );
}

/** #, Name, Status: a learner's assigned roadmap. */
export const assignedRoadmapColumns: Column<{ name: string; status: string }>[] = [
  { header: '#', cell: (_r, i) => i + 1 },
  { header: 'Name', cell: (r) => r.name },
  { header: 'Status', cell: (r) => <RoadmapStatus status={r.status} /> },
];
