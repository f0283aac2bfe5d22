/**
 * An arrow that points along the reading direction: `back` (←) and `forward` (→) in English, mirrored right
 * to left (styles.css, `.wm-mirror`), so 'back' points towards where the line starts in Arabic too.
 * Decorative: the text beside it says where it goes.
 */
export function Arrow({ to }: { to: 'back' | 'forward' }) {
  return (
    <span className="wm-mirror" aria-hidden="true">
      {to === 'back' ? '←' : '→'}
    </span>
  );
}
