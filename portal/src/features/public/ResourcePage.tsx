/**
 * /resource/{shortId} (mentor §2.13): a resource's short link. Loads the resource and opens it in a new
 * tab — with a link to open it should the browser block the tab; without the extension, which measures
 * the learning time, it asks to install it first. Before sign-in the short id is remembered so that
 * signing in comes back here.
 */
import '../../layout/public.css';
import { ApiError } from '@shared/client/client';
import { resourceByShortId } from '@shared/contract/catalogue';
import type { MessageKey } from '@shared/i18n/keys';
import { client } from '@widgets/core/api';
import { extensionReady, storeUrlFor } from '@widgets/core/extension';
import { useI18n } from '@widgets/core/i18n';
import { pending, RESOURCE_SHORT_ID_KEY } from '@widgets/core/pending';
import { session } from '@widgets/core/session';
import { Loader } from '@widgets/ui/Loader';
import { toast } from '@widgets/ui/Toast';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PublicPage, useDocumentTitle } from '../../layout/PublicChrome';
import { appConfig } from '../../lib/config';
import { currentTranslator } from '../../lib/i18n';

export const INSTALL_EXTENSION = 'resourcePage.install' satisfies MessageKey;
export const RESOURCE_NOT_FOUND = 'resourcePage.notFound' satisfies MessageKey;
export const RESOURCE_FAILED = 'resourcePage.failed' satisfies MessageKey;

type State =
  | { kind: 'loading' }
  | { kind: 'no-extension'; url: string; title: string }
  | { kind: 'opened'; url: string; title: string; blocked: boolean };

export default function ResourcePage() {
  const { shortId = '' } = useParams();
  const navigate = useNavigate();
  const { t } = useI18n();
  const [state, setState] = useState<State>({ kind: 'loading' });
  useDocumentTitle(state.kind === 'loading' ? t('column.resource') : state.title);

  useEffect(() => {
    let cancelled = false;
    if (!session.peek()) pending.set(RESOURCE_SHORT_ID_KEY, shortId);
    (async () => {
      try {
        const res = await client.call(resourceByShortId, { params: { shortId }, query: { device: 'WEB' } });
        const { url, actualTitle: title } = res.data;
        const ext = await extensionReady();
        if (cancelled) return;
        if (!ext.isPresent) {
          setState({ kind: 'no-extension', url, title });
          return;
        }
        const opened = window.open(url, '_blank');
        if (opened) opened.opener = null;
        setState({ kind: 'opened', url, title, blocked: !opened });
      } catch (err) {
        if (cancelled) return;
        // nothing to come back to after signing in
        if (pending.get(RESOURCE_SHORT_ID_KEY) === shortId) pending.clear(RESOURCE_SHORT_ID_KEY);
        const { t: say } = currentTranslator();
        toast(say(err instanceof ApiError && err.status === 404 ? RESOURCE_NOT_FOUND : RESOURCE_FAILED), {
          kind: 'error',
        });
        navigate('/', { replace: true });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [shortId, navigate]);

  return (
    <PublicPage>
      <div className="page-narrow resource-page">
        {state.kind === 'loading' ? <Loader text={t('resourcePage.opening')} /> : null}
        {state.kind === 'no-extension' ? (
          <section className="card center" aria-labelledby="resource-title">
            <h1 id="resource-title">{state.title}</h1>
            <p className="alert alert-warning">{t(INSTALL_EXTENSION)}</p>
            <p>{t('resourcePage.measures')}</p>
            <div className="row resource-actions">
              <a
                className="btn"
                href={storeUrlFor(navigator.userAgent, appConfig().extension)}
                target="_blank"
                rel="noopener"
              >
                {t('extension.installExtension')}
                <span className="visually-hidden"> {t('common.opensInNewTab')}</span>
              </a>
              <a className="btn btn-secondary" href={state.url} target="_blank" rel="noopener noreferrer">
                {t('resourcePage.openAnyway')}
                <span className="visually-hidden"> {t('common.opensInNewTab')}</span>
              </a>
            </div>
          </section>
        ) : null}
        {state.kind === 'opened' ? (
          <section className="card center" aria-labelledby="resource-title">
            <h1 id="resource-title">{state.title}</h1>
            <p role="status">{state.blocked ? t('resourcePage.blocked') : t('resourcePage.opened')}</p>
            <a className="btn" href={state.url} target="_blank" rel="noopener noreferrer">
              {t('resourcePage.open', { title: state.title })}
              <span className="visually-hidden"> {t('common.opensInNewTab')}</span>
            </a>
          </section>
        ) : null}
      </div>
    </PublicPage>
  );
}
