import { describe, expect, it } from 'vitest';
import { classifyPeople, peopleFromArguments, readPeopleText } from './people';

describe('a file of people', () => {
  it('reads one per line, skipping blank lines and # comments, with line numbers', () => {
    const { entries } = readPeopleText('asha@example.com\r\n\r\n# the new ones\n  ravi@example.com  \n');
    expect(entries).toEqual([
      { where: 'line 1', raw: 'asha@example.com' },
      { where: 'line 4', raw: 'ravi@example.com' },
    ]);
  });

  it('skips the header of a one-column file', () => {
    expect(readPeopleText('Email\nasha@example.com\n').entries).toEqual([
      { where: 'line 2', raw: 'asha@example.com' },
    ]);
  });

  it('reads the email column of a CSV, whatever its place, and names rows without one', () => {
    const text =
      '\uFEFFName,"E-mail",Class\n"Rao, Asha",asha@example.com,3B\nRavi,,3B\n\nMeera,meera@example.com,3C\n';
    expect(readPeopleText(text)).toEqual({
      entries: [
        { where: 'line 2', raw: 'asha@example.com' },
        { where: 'line 5', raw: 'meera@example.com' },
      ],
      problems: [{ where: 'line 3', raw: '', message: 'the e-mail column is empty' }],
    });
  });
});

describe('people on the command line', () => {
  it('splits comma-separated lists and numbers the entries in order', () => {
    expect(peopleFromArguments(['a@example.com,b@example.com', ' c@example.com '])).toEqual([
      { where: 'argument 1', raw: 'a@example.com' },
      { where: 'argument 2', raw: 'b@example.com' },
      { where: 'argument 3', raw: 'c@example.com' },
    ]);
  });
});

describe('sorting people out', () => {
  const entries = peopleFromArguments([
    'Asha@Example.com',
    '<ravi@example.com>',
    'asha@example.com',
    '74EF7C03-542B-408B-86B4-D3433BBF6C37',
    'not-an-address',
  ]);

  it('lower-cases addresses, drops repeats (naming the first), and names what is neither', () => {
    const { people, duplicates, problems } = classifyPeople(entries, { ids: true });
    expect(people).toEqual([
      { kind: 'email', email: 'asha@example.com', where: 'argument 1', raw: 'Asha@Example.com' },
      { kind: 'email', email: 'ravi@example.com', where: 'argument 2', raw: '<ravi@example.com>' },
      {
        kind: 'id',
        id: '74ef7c03-542b-408b-86b4-d3433bbf6c37',
        where: 'argument 4',
        raw: '74EF7C03-542B-408B-86B4-D3433BBF6C37',
      },
    ]);
    expect(duplicates).toEqual([{ where: 'argument 3', raw: 'asha@example.com', of: 'argument 1' }]);
    expect(problems).toEqual([
      { where: 'argument 5', raw: 'not-an-address', message: 'not an e-mail address or a learner id' },
    ]);
  });

  it('takes only e-mail addresses where ids make no sense', () => {
    const { problems } = classifyPeople(entries, { ids: false });
    expect(problems.map((p) => [p.where, p.message])).toEqual([
      ['argument 4', 'Invalid email address'],
      ['argument 5', 'Invalid email address'],
    ]);
  });
});
