/**
 * The learner-name layout (mentor §2.6): the learner's name (and e-mail) above the pages of one learner,
 * /portal/users/{userId}/*. The pages read the learner through `useLearner()`.
 */
import { tenantUserInfo } from '@shared/contract/tenant';
import type { TenantUserInfo } from '@shared/schemas/tenant';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import { useCall } from '@widgets/core/useCall';
import { Arrow } from '@widgets/ui/Arrow';
import { Loader } from '@widgets/ui/Loader';
import { Link, Outlet, useOutletContext, useParams } from 'react-router';
import type { z } from 'zod';
import { Tip } from '../ui';
import '../tenant.css';
import { LoadFailed } from '@widgets/ui/LoadFailed';

export type Learner = z.infer<typeof TenantUserInfo>;

export function useLearner() {
  return useOutletContext<Learner>();
}

/** The learner's user id from the route. */
export function useUserId() {
  return useParams().userId ?? '';
}

export default function LearnerLayout() {
  const userId = useUserId();
  const { t } = useI18n();
  const info = useCall(
    (signal) => client.call(tenantUserInfo, { params: { id: userId }, signal }).then((r) => r.data),
    [userId],
  );
  return (
    <div className="page">
      <nav aria-label={t('tenant.breadcrumb')} className="learner-head">
        <p>
          <Link to="/portal/users">
            <Arrow to="back" /> {t('nav.users')}
          </Link>
        </p>
      </nav>
      {info.error ? (
        <LoadFailed error={info.error} />
      ) : !info.data ? (
        <Loader />
      ) : (
        <>
          <div className="learner-head row">
            <p>
              <span className="muted">{t('tenant.learnerLabel')} </span>
              <strong className="learner-name">{info.data.name || info.data.email}</strong>
              {info.data.name ? <span className="muted"> · {info.data.email}</span> : null}
            </p>
            {info.data.isDisabled ? (
              <Tip label={t('tenant.disabled')} tip={t('tenant.disabledTip')} className="badge" />
            ) : null}
          </div>
          <Outlet context={info.data} />
        </>
      )}
    </div>
  );
}
