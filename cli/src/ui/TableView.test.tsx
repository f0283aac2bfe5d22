import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { TableView } from './TableView';

interface Row {
  name: string;
  questions: number;
  id: string;
}

const columns = [
  { header: 'Name', value: (r: Row) => r.name },
  { header: 'Questions', value: (r: Row) => String(r.questions), align: 'right' as const },
  { header: 'Id', value: (r: Row) => r.id, dim: true },
];

describe('the table view', () => {
  it('aligns the columns under their headers, numbers to the right', () => {
    const frame = render(
      <TableView
        columns={columns}
        rows={[
          { name: 'Week 1', questions: 12, id: 'b477' },
          { name: 'Closures and scope', questions: 3, id: 'c9f5' },
        ]}
        footer="2 assessments."
      />,
    ).lastFrame()!;
    expect(frame.split('\n')).toEqual([
      'Name                Questions  Id',
      'Week 1                     12  b477',
      'Closures and scope          3  c9f5',
      '',
      '2 assessments.',
    ]);
  });

  it('says when there is nothing to show', () => {
    expect(render(<TableView columns={columns} rows={[]} />).lastFrame()).toBe('No data found');
    expect(render(<TableView columns={columns} rows={[]} empty="No assessments yet." />).lastFrame()).toBe(
      'No assessments yet.',
    );
  });
});
