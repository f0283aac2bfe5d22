/**
 * The portal as the host of its widgets: the portal's API client (with the session's tokens), its
 * router for the widgets' default actions, and the signed-in person's role.
 */
import { client } from '@widgets/core/api';
import { session } from '@widgets/core/session';
import {
  type WidgetEventMap,
  type WidgetEventName,
  type WidgetHost,
  WidgetHostProvider,
} from '@widgets/embed/host';
import { type ReactNode, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';

type Listener = <E extends WidgetEventName>(type: E, detail: WidgetEventMap[E]) => boolean | undefined;

export function PortalWidgets({ children, onEvent }: { children: ReactNode; onEvent?: Listener }) {
  const navigate = useNavigate();
  const listener = useRef(onEvent);
  listener.current = onEvent;
  const host = useMemo<WidgetHost>(
    () => ({
      client,
      siteBase: '',
      emit: (type, detail) => listener.current?.(type, detail) !== false,
      navigate: (path) => navigate(path),
      role: () => session.peek()?.user.role ?? null,
    }),
    [navigate],
  );
  return <WidgetHostProvider host={host}>{children}</WidgetHostProvider>;
}
