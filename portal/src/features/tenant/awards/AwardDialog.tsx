/**
 * The image modal of the award tables (mentor §2.4): the award's stored image once the learner generated
 * it, else a word that it is not generated yet; with the public award page (/certificate/{id},
 * /badge/{id}, /feather/{id}) one click away.
 */
import { certificateInfo } from '@shared/contract/assessments';
import { AWARD_KIND_LABELS, awardTitle } from '@shared/rules/award';
import type { AwardKind } from '@shared/schemas/award';
import { client } from '@widgets/core/api';
import { messageOf, useCall } from '@widgets/core/useCall';
import { Dialog } from '@widgets/ui/Dialog';
import { Loader } from '@widgets/ui/Loader';

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
  const info = useCall(
    (signal) =>
      linkId
        ? client.call(certificateInfo, { params: { id: linkId }, signal }).then((r) => r.data)
        : Promise.resolve(null),
    [linkId],
  );
  const label = AWARD_KIND_LABELS[kind];
  const page = linkId ? `/${kind}/${encodeURIComponent(linkId)}` : '';
  const data = info.data;
  return (
    <Dialog
      open={Boolean(linkId)}
      title={`${label} of ${learner}`}
      onClose={onClose}
      actions={
        <>
          <a className="btn btn-secondary" href={page} target="_blank" rel="noopener noreferrer">
            Open the {label.toLowerCase()} page<span className="visually-hidden"> (opens in a new tab)</span>
          </a>
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
        </>
      }
    >
      {info.error ? (
        <p className="alert alert-error" role="alert">
          {messageOf(info.error)}
        </p>
      ) : !data ? (
        <Loader />
      ) : (
        <>
          <p>
            <strong>{awardTitle(data)}</strong>
          </p>
          {data.certificateGenerated && data.s3CertificateUrl ? (
            <img
              className="award-image"
              src={data.s3CertificateUrl}
              alt={`${awardTitle(data)}, awarded to ${data.userName}`}
            />
          ) : (
            <p className="muted">
              {data.userName} has not opened this {label.toLowerCase()} yet, so its image is not made yet. The{' '}
              {label.toLowerCase()} page shows it as it will look.
            </p>
          )}
        </>
      )}
    </Dialog>
  );
}
