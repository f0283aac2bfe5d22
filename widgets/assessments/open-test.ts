/**
 * Starting a test (learner §4): the new link opens /test/{testLinkId} in a new tab. The tab is opened at
 * once, inside the click, so pop-up blockers let it through, and pointed at the test once the link exists.
 */

/** The test page of a link, under `portalUrl` ('' in the portal itself). */
export const testPath = (linkId: string, portalUrl = '') =>
  `${portalUrl.replace(/\/$/, '')}/test/${encodeURIComponent(linkId)}`;

/**
 * Opens a tab now, runs `create` (which resolves to the new link id) and sends the tab to the test. On
 * failure the tab is closed, 'Something went wrong' is logged (learner §8) and the error is passed on, so
 * the caller can tell the person too. Where no tab could be opened, this page goes to the test.
 */
export async function openTestInNewTab(
  create: () => Promise<string>,
  portalUrl = '',
  preparing: string,
): Promise<string> {
  const tab = typeof window !== 'undefined' ? window.open('', '_blank') : null;
  if (tab) {
    try {
      tab.document.title = preparing;
      tab.document.body.textContent = preparing;
    } catch {
      // not ours to write to: it only shows a blank page for a moment
    }
  }
  try {
    const linkId = await create();
    const url = testPath(linkId, portalUrl);
    if (tab && !tab.closed) {
      tab.opener = null;
      tab.location.href = url;
    } else if (typeof window !== 'undefined') {
      window.location.assign(url);
    }
    return linkId;
  } catch (err) {
    tab?.close();
    console.error('Something went wrong', err);
    throw err;
  }
}
