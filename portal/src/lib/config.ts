import { config as configCall, type PublicConfig } from '@shared/contract/system';
import { client } from '@widgets/core/api';

let loaded: PublicConfig | null = null;

/** The server's public settings (Firebase project, extension store links, mailbox). Loaded once at start. */
export async function loadConfig(): Promise<PublicConfig> {
  if (loaded) return loaded;
  const res = await client.call(configCall);
  loaded = res.data;
  return loaded;
}

export function appConfig(): PublicConfig {
  if (!loaded) throw new Error('The configuration is not loaded yet');
  return loaded;
}
