import type { RenderLink } from '@widgets/assessments/links';
import { Link } from 'react-router';

/** The assessment widgets' links as router links, so the single-page app keeps its state. */
export const routerLink: RenderLink = ({ href, className, children }) => (
  <Link to={href} className={className}>
    {children}
  </Link>
);
