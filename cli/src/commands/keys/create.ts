/** `waymark keys create <name> --scopes <list>`: a new API key (POST /tenant/api-keys), printed once. */
import { createApiKey } from '@shared/contract/integrations';
import { CreateApiKeyInput } from '@shared/schemas/integrations';
import type { Context } from '../../core/context';
import { usageError } from '../../core/errors';

export interface KeysCreateOptions {
  name: string;
  scopes: string;
  /** Days, as given; false with --no-expiry. */
  expires?: string | boolean;
  expiry?: boolean;
}

export async function createKey(ctx: Context, options: KeysCreateOptions): Promise<void> {
  const never = options.expiry === false || options.expires === false;
  const parsed = CreateApiKeyInput.safeParse({
    name: options.name,
    scopes: options.scopes
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    expiresInDays: never ? null : Number(options.expires ?? 90),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const option =
      { name: '<name>', scopes: '--scopes', expiresInDays: '--expires' }[String(issue.path[0])] ?? '';
    throw usageError(`${option}: ${issue.message}`);
  }
  const { client } = ctx.signedIn();
  const { data } = await client.call(createApiKey, { body: parsed.data, signal: ctx.signal });
  const { output } = ctx;
  if (output.json) {
    output.emit({ event: 'created', ...data });
    return;
  }
  output.line(data.key);
  output.note(
    `API key “${data.name}” (${data.prefix}) with ${data.scopes.join(', ')}, ${data.expiresAt ? `until ${data.expiresAt.slice(0, 10)}` : 'never expiring'}. Copy it now: it is shown only once.`,
  );
}
