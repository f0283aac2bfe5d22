/**
 * Saves a downloaded file (a call declared with `download`, fetched through the client so the session's
 * token is sent and refreshed): the browser's "save" of a Blob under the server's file name.
 */
import type { CallArgs, Client } from '@shared/client/client';
import type { CallDef } from '@shared/contract/define';

/** The file name of a Content-Disposition header, or the fallback. */
export function attachmentName(header: string | null, fallback: string): string {
  const m = header ? /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header) : null;
  return m?.[1] ? decodeURIComponent(m[1]) : fallback;
}

export async function downloadFile<C extends CallDef>(
  client: Client,
  call: C,
  args: CallArgs<C>,
  fallbackName: string,
): Promise<string> {
  const res = await (client.download as (c: CallDef, a: unknown) => Promise<Response>)(call, args);
  const blob = await res.blob();
  const name = attachmentName(res.headers.get('content-disposition'), fallbackName);
  const url = URL.createObjectURL(blob);
  try {
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    a.rel = 'noopener';
    document.body.append(a);
    a.click();
    a.remove();
  } finally {
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
  return name;
}
