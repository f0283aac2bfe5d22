import { describe, expect, it } from 'vitest';
import { setupServer } from '../test/helper';

const server = setupServer({ seed: true });

describe('lists', () => {
  it('names every country with its code, India among them, sorted by name', async () => {
    const res = await server.get('/api/countries/list');
    expect(res.status).toBe(200);
    const countries = res.body.data as { code: string; country: string }[];
    expect(countries.length).toBeGreaterThan(200);
    expect(countries).toContainEqual({ code: 'IN', country: 'India' });
    expect(countries).toContainEqual({ code: 'US', country: 'United States' });
    const names = countries.map((c) => c.country);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(new Set(countries.map((c) => c.code)).size).toBe(countries.length);
  });

  it('gives subjects with their topics', async () => {
    const res = await server.get('/api/subject/list');
    expect(res.status).toBe(200);
    const subjects = res.body.data as {
      _id: string;
      name: string;
      topics: { _id: string; name: string }[];
    }[];
    expect(subjects.length).toBeGreaterThan(0);
    for (const s of subjects) expect(s.topics.length).toBeGreaterThan(0);
    const programming = subjects.find((s) => s.name === 'Programming');
    expect(programming?.topics.map((t) => t.name)).toContain('TypeScript');
  });

  it('gives the languages', async () => {
    const res = await server.get('/api/languages/list');
    expect(res.status).toBe(200);
    expect(res.body.data.map((l: { name: string }) => l.name)).toContain('English');
  });

  it('needs no sign-in', async () => {
    expect((await server.get('/api/countries/list')).status).toBe(200);
  });
});
