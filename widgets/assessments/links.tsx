/**
 * How the assessment widgets draw an in-app link: a plain anchor by default (an embedding page), the
 * router's Link in the portal, so that moving between pages keeps the single-page app.
 */
import type { ReactNode } from 'react';

export interface LinkProps {
  href: string;
  className?: string;
  children: ReactNode;
}

export type RenderLink = (props: LinkProps) => ReactNode;

export const anchorLink: RenderLink = ({ href, className, children }) => (
  <a href={href} className={className}>
    {children}
  </a>
);
