/**
 * The screens that end the test page without a score — Link Expired, Test Completed, Assessment Not Yet
 * Started, Something Went Wrong — and the notices of a test open in another tab or another browser; with
 * the links to Waymark's pages every screen uses.
 */
import { LINK_GONE, type LinkGoneCode } from '@shared/rules/test-links';
import type { ReactNode } from 'react';
import { Rich, useI18n } from '../core/i18n';
import { isPlainClick, useWidgetHost, type WidgetHost } from '../embed/host';
import { GONE, type GoneCode } from './screen';
import { TEST_TEXT } from './text';

export type HeadingTag = 'h1' | 'h2';

/** A path of Waymark's site as the page can open it ('' prefix in the portal). */
export const siteHref = (host: Pick<WidgetHost, 'siteBase'>, path: string | null) =>
  path === null ? null : `${host.siteBase}${path}`;

/** A link to one of Waymark's pages (Home, new link): the host may take it over through `wm-home`. */
export function SiteLink({
  path,
  children,
  className,
}: {
  path: string;
  children: ReactNode;
  className?: string;
}) {
  const host = useWidgetHost();
  const href = `${host.siteBase}${path}`;
  return (
    <a
      href={href}
      className={className}
      onClick={(e) => {
        if (!isPlainClick(e)) return;
        e.preventDefault();
        if (host.emit('wm-home', { href })) host.navigate(path);
      }}
    >
      {children}
    </a>
  );
}

export function EndScreen({
  title,
  message,
  Title,
  titleId,
  isError,
  action,
  children,
}: {
  title: string;
  message: string;
  Title: HeadingTag;
  titleId: string;
  isError?: boolean;
  /** Beside Home. */
  action?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useI18n();
  return (
    <section className="wm-test wm-test-center wm-end" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>{title}</Title>
      <p className={isError ? 'alert alert-error' : 'wm-end-message'} part={isError ? 'error' : undefined}>
        {message}
      </p>
      {children}
      <p className="wm-actions wm-actions-center">
        {action}
        <SiteLink path="/" className="btn">
          {t('common.home')}
        </SiteLink>
      </p>
    </section>
  );
}

/** A refusal with a screen of its own; the new-link advice where a new link helps. */
export function GoneScreen({
  code,
  message,
  Title,
  titleId,
}: {
  code: GoneCode;
  message: string;
  Title: HeadingTag;
  titleId: string;
}) {
  const { t } = useI18n();
  const gone = GONE[code];
  // a spent link's statement is the shared one (the server sends it with its advice, said here once, with its link)
  const shown = code in LINK_GONE ? t(LINK_GONE[code as LinkGoneCode]) : message;
  return (
    <EndScreen title={t(gone.title)} Title={Title} titleId={titleId} message={shown}>
      {gone.newLink ? (
        <p>
          <Rich k="test.newLinkAdvice" components={{ 0: <SiteLink path="/assesments">{''}</SiteLink> }} />
        </p>
      ) : null}
    </EndScreen>
  );
}

/** Something Went Wrong, with Try again when trying again may help. */
export function ErrorScreen({
  message,
  retry,
  onRetry,
  Title,
  titleId,
}: {
  message: string;
  retry: boolean;
  onRetry: () => void;
  Title: HeadingTag;
  titleId: string;
}) {
  const { t } = useI18n();
  return (
    <EndScreen
      title={t(TEST_TEXT.error)}
      Title={Title}
      titleId={titleId}
      message={message}
      isError
      action={
        retry ? (
          <button type="button" className="btn btn-secondary" onClick={onRetry}>
            {t('common.tryAgain')}
          </button>
        ) : null
      }
    />
  );
}

/**
 * A started test another browser holds (decision 031): only that browser saves its answers. The learner,
 * signed in here, may continue it here (the other browser then stops saving); anyone else is told how.
 */
export function HeldElsewhereScreen({
  signedIn,
  moving,
  error,
  onMoveHere,
  Title,
  titleId,
}: {
  signedIn: boolean;
  moving: boolean;
  error?: string;
  onMoveHere: () => void;
  Title: HeadingTag;
  titleId: string;
}) {
  const { t } = useI18n();
  return (
    <EndScreen
      title={t(TEST_TEXT.heldElsewhere)}
      Title={Title}
      titleId={titleId}
      message={t(TEST_TEXT.heldElsewhereText)}
      action={
        signedIn ? (
          <button
            type="button"
            className="btn"
            onClick={onMoveHere}
            disabled={moving}
            aria-busy={moving || undefined}
          >
            {moving ? t(TEST_TEXT.moving) : t(TEST_TEXT.moveHere)}
          </button>
        ) : null
      }
    >
      <p>{signedIn ? t(TEST_TEXT.moveHereText) : t(TEST_TEXT.signInToMove)}</p>
      {error ? (
        <p className="alert alert-error" part="error" role="alert">
          {error}
        </p>
      ) : null}
    </EndScreen>
  );
}

/** A started test another tab is in charge of: this one saves nothing until the learner continues here. */
export function ElsewhereScreen({
  onTakeOver,
  Title,
  titleId,
}: {
  onTakeOver: () => void;
  Title: HeadingTag;
  titleId: string;
}) {
  const { t } = useI18n();
  return (
    <section className="wm-test wm-test-center wm-end" part="test" aria-labelledby={titleId}>
      <Title id={titleId}>{t(TEST_TEXT.elsewhere)}</Title>
      <p className="wm-end-message">{t(TEST_TEXT.elsewhereText)}</p>
      <p className="wm-actions wm-actions-center">
        <button type="button" className="btn" part="take-over-button" onClick={onTakeOver}>
          {t(TEST_TEXT.takeOver)}
        </button>
      </p>
    </section>
  );
}
