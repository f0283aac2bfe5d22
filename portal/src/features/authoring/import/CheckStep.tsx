/** The check step of "Import questions", while the file is read and planned (plan.ts): said as it goes. */
import { Spinner } from '@widgets/ui/Loader';

export function CheckStep() {
  return (
    <p role="status" className="import-status">
      <Spinner /> Checking the questions…
    </p>
  );
}
