/** `waymark whoami` at a terminal: the signed-in person, and where the token came from. */
import { Box, Text } from 'ink';

export interface WhoamiUser {
  name: string | null;
  email: string;
  role: string;
}

import { ROLE_LABELS } from '../core/labels';

export { ROLE_LABELS };

export function WhoamiView({
  user,
  server,
  source,
}: {
  user: WhoamiUser;
  server: string;
  source: 'session' | 'WAYMARK_TOKEN';
}) {
  const rows: [string, string][] = [
    ['Name', user.name ?? '(not set)'],
    ['E-mail', user.email],
    ['Role', ROLE_LABELS[user.role] ? `${user.role} (${ROLE_LABELS[user.role]})` : user.role],
    ['Server', server],
  ];
  if (source === 'WAYMARK_TOKEN') rows.push(['Token', 'from WAYMARK_TOKEN']);
  const width = Math.max(...rows.map(([label]) => label.length));
  return (
    <Box flexDirection="column">
      {rows.map(([label, value]) => (
        <Text key={label}>
          <Text dimColor>{label.padEnd(width)}</Text>
          {'  '}
          {label === 'Name' ? <Text bold>{value}</Text> : value}
        </Text>
      ))}
    </Box>
  );
}
