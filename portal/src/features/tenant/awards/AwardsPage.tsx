/**
 * The award tables of the statistics cards (mentor §2.4): certificates (Name, Email, Roadmap Name,
 * Percentage, 'View Certificate'), badges (adds Section Name, 'View Badge') and feathers (adds Resource
 * Name, 'View Feather'), titled as the awards' file is (shared/reports/columns.ts; the specification's
 * 'Username' is the learner's name, as in every other report). Each View opens the award in a modal.
 * Empty: 'No data found'.
 */
import { type CERTIFICATE_TYPES, tenantAwardsByType, tenantExportAwards } from '@shared/contract/tenant';
import { AWARDS_REPORT } from '@shared/reports/columns';
import { scoreDisplay } from '@shared/rules/test-status';
import type { AwardKind } from '@shared/schemas/award';
import type { AwardRow } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { useCall } from '@widgets/core/useCall';
import { useState } from 'react';
import type { z } from 'zod';
import { DownloadCsv } from '../../../components/DownloadCsv';
import { ReportPage } from '../ui';
import { AwardDialog } from './AwardDialog';

type Row = z.infer<typeof AwardRow>;
type CertificateType = (typeof CERTIFICATE_TYPES)[number];

interface TableDef {
  certificateType: CertificateType;
  kind: AwardKind;
  title: string;
  action: string;
  columns: { header: string; cell: (r: Row) => string }[];
}

const roadmap = {
  header: AWARDS_REPORT.roadmap.title,
  cell: (r: Row) => r.testlinks.assignedRoadMapName ?? '—',
};
const section = {
  header: AWARDS_REPORT.section.title,
  cell: (r: Row) => r.testlinks.assignedSectionName ?? '—',
};
const resource = {
  header: AWARDS_REPORT.resource.title,
  cell: (r: Row) => r.testlinks.assignedResourceName ?? '—',
};
const PERCENTAGE = AWARDS_REPORT.percentage.title;

export const AWARD_TABLES: Record<AwardKind, TableDef> = {
  certificate: {
    certificateType: 'ROADMAP',
    kind: 'certificate',
    title: 'Total Certificate',
    action: 'View Certificate',
    columns: [roadmap],
  },
  badge: {
    certificateType: 'SECTION',
    kind: 'badge',
    title: 'Total Badge',
    action: 'View Badge',
    columns: [roadmap, section],
  },
  feather: {
    certificateType: 'RESOURCE',
    kind: 'feather',
    title: 'Total Feather',
    action: 'View Feather',
    columns: [roadmap, section, resource],
  },
};

const percentage = (r: Row) =>
  scoreDisplay({ isCompleted: true, percentage: r.testlinks.percentage, score: null }) ?? '—';

function AwardsTable({ kind }: { kind: AwardKind }) {
  const def = AWARD_TABLES[kind];
  const [viewing, setViewing] = useState<Row | null>(null);
  const list = useCall(
    (signal) =>
      client
        .call(tenantAwardsByType, { query: { certificateType: def.certificateType }, signal })
        .then((r) => r.data),
    [def.certificateType],
  );
  const columns = 4 + def.columns.length;
  return (
    <ReportPage
      title={def.title}
      download={
        <DownloadCsv
          call={tenantExportAwards}
          args={{ query: { certificateType: def.certificateType } }}
          what={def.title.toLowerCase()}
        />
      }
      report={list}
      head={
        <>
          {def.columns.map((c) => (
            <th key={c.header} scope="col">
              {c.header}
            </th>
          ))}
          <th scope="col">{PERCENTAGE}</th>
          <th scope="col">Action</th>
        </>
      }
      columns={columns}
      rowKey={(r) => r.testlinks.linkId}
      cells={(r) => (
        <>
          {def.columns.map((c) => (
            <td key={c.header} data-label={c.header}>
              {c.cell(r)}
            </td>
          ))}
          <td data-label={PERCENTAGE}>{percentage(r)}</td>
          <td data-label="Action">
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setViewing(r)}
              aria-label={`${def.action} of ${r.name ?? r.email}`}
            >
              {def.action}
            </button>
          </td>
        </>
      )}
    >
      <AwardDialog
        kind={kind}
        linkId={viewing?.testlinks.linkId ?? null}
        learner={viewing?.name ?? viewing?.email ?? ''}
        onClose={() => setViewing(null)}
      />
    </ReportPage>
  );
}

export function CertificatesPage() {
  return <AwardsTable kind="certificate" />;
}
export function BadgesPage() {
  return <AwardsTable kind="badge" />;
}
export function FeathersPage() {
  return <AwardsTable kind="feather" />;
}
