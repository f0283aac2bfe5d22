/**
 * The image modal of the award tables (mentor §2.4): the award viewer (widgets/award) — the stored image
 * once the learner generated it, else the design drawn live — with a link to verify it on its public page.
 */
import { Award } from '@widgets/award/Award';
import '@widgets/award/award.css';
import type { AwardKind } from '@shared/schemas/award';
import { AWARD_KIND_KEYS } from '@widgets/award/model';
import { useI18n } from '@widgets/core/i18n';
import { Dialog } from '@widgets/ui/Dialog';
import { PortalWidgets } from '../../../components/PortalWidgets';

export function AwardDialog({
  kind,
  linkId,
  learner,
  onClose,
}: {
  kind: AwardKind;
  linkId: string | null;
  learner: string;
  onClose: () => void;
}) {
  const { t } = useI18n();
  return (
    <Dialog
      open={Boolean(linkId)}
      title={t('tenant.awardOf', { kind: t(AWARD_KIND_KEYS[kind]), name: learner })}
      onClose={onClose}
      actions={
        <button type="button" className="btn" onClick={onClose}>
          {t('common.close')}
        </button>
      }
    >
      {linkId ? (
        <div className="award-modal">
          <PortalWidgets>
            <Award linkId={linkId} kind={kind} />
          </PortalWidgets>
        </div>
      ) : null}
    </Dialog>
  );
}
