/**
 * The award tables of the statistics cards (mentor §2.4): certificates (Name, Email, Roadmap Name,
 * Percentage, 'View Certificate'), badges (adds Section Name, 'View Badge') and feathers (adds Resource
 * Name, 'View Feather'), titled as the awards' file is (shared/reports/columns.ts; the specification's
 * 'Username' is the learner's name, as in every other report). Each View opens the award in a modal.
 * Empty: 'No data found'.
 */
import { type CERTIFICATE_TYPES, tenantAwardsByType } from '@shared/contract/tenant';
import { tenantExportAwards } from '@shared/contract/tenant-exports';
import type { MessageKey } from '@shared/i18n/keys';
import { AWARDS_REPORT } from '@shared/reports/columns';
import { scoreDisplay } from '@shared/rules/test-status';
import type { AwardKind } from '@shared/schemas/award';
import type { AwardRow } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
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
  title: MessageKey;
  action: MessageKey;
  actionOf: MessageKey;
  columns: { header: MessageKey; cell: (r: Row) => string }[];
}

const roadmap = {
  header: AWARDS_REPORT.roadmap.key,
  cell: (r: Row) => r.testlinks.assignedRoadMapName ?? '—',
};
const section = {
  header: AWARDS_REPORT.section.key,
  cell: (r: Row) => r.testlinks.assignedSectionName ?? '—',
};
const resource = {
  header: AWARDS_REPORT.resource.key,
  cell: (r: Row) => r.testlinks.assignedResourceName ?? '—',
};
const PERCENTAGE = AWARDS_REPORT.percentage.key;

export const AWARD_TABLES: Record<AwardKind, TableDef> = {
  certificate: {
    certificateType: 'ROADMAP',
    kind: 'certificate',
    title: 'stats.totalCertificate',
    action: 'awards.viewCertificate',
    actionOf: 'awards.viewCertificateOf',
    columns: [roadmap],
  },
  badge: {
    certificateType: 'SECTION',
    kind: 'badge',
    title: 'stats.totalBadge',
    action: 'awards.viewBadge',
    actionOf: 'awards.viewBadgeOf',
    columns: [roadmap, section],
  },
  feather: {
    certificateType: 'RESOURCE',
    kind: 'feather',
    title: 'stats.totalFeather',
    action: 'awards.viewFeather',
    actionOf: 'awards.viewFeatherOf',
    columns: [roadmap, section, resource],
  },
};

const percentage = (r: Row) =>
  scoreDisplay({ isCompleted: true, percentage: r.testlinks.percentage, score: null }) ?? '—';

function AwardsTable({ kind }: { kind: AwardKind }) {
  const { t } = useI18n();
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
      title={t(def.title)}
      download={
        <DownloadCsv
          call={tenantExportAwards}
          args={{ query: { certificateType: def.certificateType } }}
          what={t(def.title)}
        />
      }
      report={list}
      head={
        <>
          {def.columns.map((c) => (
            <th key={c.header} scope="col">
              {t(c.header)}
            </th>
          ))}
          <th scope="col">{t(PERCENTAGE)}</th>
          <th scope="col">{t('column.action')}</th>
        </>
      }
      columns={columns}
      rowKey={(r) => r.testlinks.linkId}
      cells={(r) => (
        <>
          {def.columns.map((c) => (
            <td key={c.header} data-label={t(c.header)}>
              {c.cell(r)}
            </td>
          ))}
          <td data-label={t(PERCENTAGE)}>{percentage(r)}</td>
          <td data-label={t('column.action')}>
            <button
              type="button"
              className="btn btn-secondary"
              onClick={() => setViewing(r)}
              aria-label={t(def.actionOf, { name: r.name ?? r.email })}
            >
              {t(def.action)}
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
