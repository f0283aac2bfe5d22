/**
 * axe-core for the end-to-end suites (Playwright in Chromium, puppeteer in Firefox): its source, to inject
 * into a page, and the run every page must pass, to evaluate in the page once axe is there.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  help: string;
  targets: string[];
}

/** Runs in the page (self-contained): WCAG 2.1 A and AA and axe's best practices; the violations. */
export async function axeViolations(): Promise<AxeViolation[]> {
  // biome-ignore lint/suspicious/noExplicitAny: axe is injected at run time
  const axe = (window as any).axe;
  const result = await axe.run(document, {
    resultTypes: ['violations'],
    runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
  });
  return result.violations.map((v: { id: string; help: string; nodes: { target: string[] }[] }) => ({
    id: v.id,
    help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
  }));
}
