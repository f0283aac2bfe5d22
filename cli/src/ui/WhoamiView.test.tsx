import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { WhoamiView } from './WhoamiView';

const server = 'http://127.0.0.1:8080';

describe('the whoami view', () => {
  it('shows the name, e-mail, role and server in aligned rows', () => {
    const { lastFrame } = render(
      <WhoamiView
        user={{ name: 'Ravi Mentor', email: 'mentor@waymark.local', role: 'TENANT' }}
        server={server}
        source="session"
      />,
    );
    expect(lastFrame()!.split('\n')).toEqual([
      'Name    Ravi Mentor',
      'E-mail  mentor@waymark.local',
      'Role    TENANT (mentor or organisation)',
      `Server  ${server}`,
    ]);
  });

  it('says when the token came from WAYMARK_TOKEN, and when the name is not set yet', () => {
    const frame = render(
      <WhoamiView
        user={{ name: null, email: 'new@example.com', role: 'USER' }}
        server={server}
        source="WAYMARK_TOKEN"
      />,
    ).lastFrame();
    expect(frame).toContain('Name    (not set)');
    expect(frame).toContain('Role    USER (learner)');
    expect(frame).toContain('Token   from WAYMARK_TOKEN');
  });
});
