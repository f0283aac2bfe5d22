import { extensionStatus } from '@widgets/core/extension';
import { useSignalValue } from '@widgets/core/useSignal';

/** Green: present and signed in; orange: present, signed out; grey: absent. */
export function ExtensionIcon() {
  const status = useSignalValue(extensionStatus);
  const state = !status.isPresent ? 'absent' : status.isLogedIn ? 'signed-in' : 'signed-out';
  const label =
    state === 'absent'
      ? 'Waymark extension not installed'
      : state === 'signed-in'
        ? 'Waymark extension signed in'
        : 'Waymark extension installed but signed out';
  return (
    <span className={`ext-icon ext-${state}`} role="img" aria-label={label} title={label} data-state={state}>
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          fill="currentColor"
          d="M20.5 11H19V7a2 2 0 0 0-2-2h-4V3.5a2.5 2.5 0 0 0-5 0V5H4a2 2 0 0 0-2 2v3.8h1.5a2.7 2.7 0 0 1 0 5.4H2V20a2 2 0 0 0 2 2h3.8v-1.5a2.7 2.7 0 0 1 5.4 0V22H17a2 2 0 0 0 2-2v-4h1.5a2.5 2.5 0 0 0 0-5z"
        />
      </svg>
    </span>
  );
}
