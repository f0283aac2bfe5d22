import { LoadFailed } from '@widgets/ui/LoadFailed';

/** The mentor portal's words for data it could not obtain (mentor §8 tables). */
export const TABLE_FAILED = {
  title: 'Failed',
  text: 'At this time, we are unable to obtain the data. Please consider trying again later.',
} as const;

/** 'Failed' / 'At this time, we are unable to obtain the data…' in place of a table that did not load. */
export function TableFailure() {
  return (
    <LoadFailed>
      <strong>{TABLE_FAILED.title}</strong>&nbsp;{TABLE_FAILED.text}
    </LoadFailed>
  );
}
