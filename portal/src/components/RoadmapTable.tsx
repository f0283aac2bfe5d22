import type { MessageKey } from '@shared/i18n/keys';
import { roadmapColumns } from '@widgets/catalogue/columns';
import { useI18n } from '@widgets/core/i18n';
import type { CallState } from '@widgets/core/useCall';
import { DataTable } from '@widgets/ui/DataTable';
import { Loader } from '@widgets/ui/Loader';
import { LoadFailed } from '@widgets/ui/LoadFailed';
import { Link } from 'react-router';

/** What a roadmap list says when it could not be loaded (learner §2, mentor §2.6). */
export const ROADMAP_LIST_FAILED = 'catalogue.listFailed' satisfies MessageKey;

type RoadmapRow = { _id: string } & Parameters<ReturnType<typeof roadmapColumns>[number]['cell']>[0];

/**
 * A list of catalogue roadmaps as a table — Name, Language, Subject, Topic and one action link per row —
 * with its loader and its load failure: the learner's and a mentor's All Roadmaps (View) and the mentor's
 * Roadmap List (Manage).
 */
export function RoadmapTable<R extends RoadmapRow>({
  list,
  caption,
  empty,
  action,
}: {
  list: CallState<R[]>;
  caption: string;
  empty: string;
  /** The last column: its header, the link's text (its accessible name adds the roadmap's) and address. */
  action: { header: string; label: string; to: (roadmap: R) => string };
}) {
  const { t } = useI18n();
  return (
    <>
      {list.error ? <LoadFailed error={list.error} fallback={t(ROADMAP_LIST_FAILED)} /> : null}
      {list.loading && !list.data ? <Loader /> : null}
      {list.data ? (
        <DataTable
          caption={caption}
          rows={list.data}
          rowKey={(r) => r._id}
          empty={empty}
          columns={[
            ...roadmapColumns(t),
            {
              header: action.header,
              cell: (r) => (
                <Link
                  className="btn btn-secondary"
                  to={action.to(r)}
                  aria-label={t('roadmaps.actionOf', { action: action.label, name: r.name })}
                >
                  {action.label}
                </Link>
              ),
            },
          ]}
        />
      ) : null}
    </>
  );
}
