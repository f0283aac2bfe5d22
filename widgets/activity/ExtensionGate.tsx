/**
 * What needs the browser extension: `ExtensionRequired` shows its children only when the extension is
 * present (learner §2: the my-roadmap detail shows 'Please Install Extension' and an Install button
 * otherwise); `InstallExtension` is the prompt alone, with the store of this browser (Firefox add-ons in
 * Firefox, otherwise the Chrome Web Store).
 */
import { type Client, createClient } from '@shared/client/client';
import * as System from '@shared/contract/system';
import { extensionReady, extensionStatus, storeUrlFor } from '@widgets/core/extension';
import { useSignalValue } from '@widgets/core/useSignal';
import { Loader } from '@widgets/ui/Loader';
import { type ReactNode, useEffect, useState } from 'react';

export const INSTALL_MESSAGE = 'Please Install Extension';

export interface StoreUrls {
  chromeStoreUrl: string;
  firefoxStoreUrl: string;
}

let storeUrls: Promise<StoreUrls> | null = null;
/** GET /config is public: no session needed (and none of the session's code in the embed files). */
let publicClient: Client | null = null;
const defaultClient = () => {
  publicClient ??= createClient({ baseUrl: '/api', device: 'WEB_APP' });
  return publicClient;
};
/** The store addresses from the server's public settings (GET /config), read once. */
function loadStoreUrls(client: Client): Promise<StoreUrls> {
  storeUrls ??= client.call(System.config).then(
    (res) => res.data.extension,
    (err) => {
      storeUrls = null;
      throw err;
    },
  );
  return storeUrls;
}

/** The store page for this browser, from `urls` or the server's settings. */
export function useStoreUrl(urls?: StoreUrls, client: Client = defaultClient()): string | null {
  const [loaded, setLoaded] = useState<StoreUrls | null>(urls ?? null);
  useEffect(() => {
    if (urls) return;
    let alive = true;
    loadStoreUrls(client).then(
      (u) => alive && setLoaded(u),
      () => undefined,
    );
    return () => {
      alive = false;
    };
  }, [urls, client]);
  const chosen = urls ?? loaded;
  return chosen ? storeUrlFor(typeof navigator === 'undefined' ? '' : navigator.userAgent, chosen) : null;
}

export interface InstallExtensionProps {
  /** The sentence above the button. */
  message?: ReactNode;
  /** The button's text. */
  buttonLabel?: string;
  storeUrls?: StoreUrls;
  client?: Client;
  /** Compact (inside a card): no heading, smaller spacing. */
  compact?: boolean;
}

/** 'Please Install Extension' and an Install button opening this browser's extension store. */
export function InstallExtension({
  message = INSTALL_MESSAGE,
  buttonLabel = 'Install',
  storeUrls: urls,
  client,
  compact,
}: InstallExtensionProps) {
  const href = useStoreUrl(urls, client);
  return (
    <div className={compact ? 'install-prompt install-prompt-compact' : 'card center install-prompt'}>
      {compact ? <p>{message}</p> : <h2>{message}</h2>}
      {!compact ? (
        <p className="muted">
          The Waymark extension counts the time you spend on your roadmap's resources, and only those.
        </p>
      ) : null}
      <a
        className="btn"
        href={href ?? undefined}
        aria-disabled={href ? undefined : 'true'}
        target="_blank"
        rel="noopener noreferrer"
      >
        {buttonLabel}
      </a>
    </div>
  );
}

export interface ExtensionRequiredProps extends InstallExtensionProps {
  children: ReactNode;
  /** Shown above the install prompt (the page's heading, so the page still says what it is). */
  heading?: ReactNode;
}

/** Renders `children` when the extension is present; otherwise the install prompt (under `heading`). */
export function ExtensionRequired({ children, heading, ...prompt }: ExtensionRequiredProps) {
  const status = useSignalValue(extensionStatus);
  useEffect(() => {
    if (!status.isChecked) void extensionReady();
  }, [status.isChecked]);
  if (!status.isChecked) return <Loader text="Checking for the Waymark extension…" />;
  if (!status.isPresent)
    return (
      <>
        {heading}
        <InstallExtension {...prompt} />
      </>
    );
  return <>{children}</>;
}
