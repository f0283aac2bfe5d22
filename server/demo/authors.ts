/** The demo catalogue's curators, by the key its roadmaps name them with (`authors: ['meera', …]`). */
import type { DemoAuthor } from './types';

export const DEMO_AUTHORS: Record<string, DemoAuthor> = {
  meera: {
    name: 'Meera Iyer',
    designation: 'Senior Front-end Engineer',
    shortDescription: 'Builds accessible web applications and teaches JavaScript to career switchers.',
    longDescription:
      'Meera has spent ten years building web applications for banks and newsrooms. She runs a weekend JavaScript study group in Bengaluru and prefers primary sources — MDN and the language specification — to shortcuts, which is how her roadmaps are built.',
    profilePath: '/images/authors/meera-iyer.svg',
  },
  kabir: {
    name: 'Kabir Shah',
    designation: 'Engineering Manager',
    shortDescription: 'Hires and mentors junior developers; cares about fundamentals more than frameworks.',
    longDescription:
      'Kabir leads a team of twelve engineers and has reviewed hundreds of take-home assignments. He co-curates roadmaps with the skills he looks for when hiring: reading documentation, small focused commits and code that others can follow.',
    profilePath: '/images/authors/kabir-shah.svg',
  },
  daniel: {
    name: 'Daniel Okafor',
    designation: 'Staff Engineer, Developer Tools',
    shortDescription: 'Maintains build tooling and type definitions used by hundreds of developers.',
    longDescription:
      'Daniel works on compilers, linters and the plumbing between them. He migrated a 400,000-line JavaScript codebase to TypeScript one folder at a time and likes to explain type systems with small, runnable examples.',
    profilePath: '/images/authors/daniel-okafor.svg',
  },
  lucia: {
    name: 'Lucía Fernández',
    designation: 'Ingeniera de datos',
    shortDescription: 'Construye canalizaciones de datos en Python y SQL y enseña programación desde cero.',
    longDescription:
      'Lucía trabaja con Python y PostgreSQL todos los días y da talleres gratuitos de programación en Madrid. Sus rutas siguen la documentación oficial en español y proponen ejercicios cortos para practicar cada tema.',
    profilePath: '/images/authors/lucia-fernandez.svg',
  },
  arjun: {
    name: 'Arjun Rao',
    designation: 'Database Reliability Engineer',
    shortDescription: 'Keeps PostgreSQL clusters fast and correct; writes SQL that others can read.',
    longDescription:
      'Arjun has operated PostgreSQL in production for eight years, from a single server to sharded clusters. He teaches SQL through the PostgreSQL manual, with an eye on the mistakes that hurt in production: missing WHERE clauses, NULL surprises and unconstrained data.',
    profilePath: '/images/authors/arjun-rao.svg',
  },
  sara: {
    name: 'Sara Lindqvist',
    designation: 'Open-source Maintainer',
    shortDescription:
      'Maintains open-source libraries and reviews pull requests from first-time contributors.',
    longDescription:
      'Sara maintains several open-source libraries and has merged contributions from people all over the world. Her Git roadmap follows Pro Git and ends with the workflow she wishes every first pull request followed.',
    profilePath: '/images/authors/sara-lindqvist.svg',
  },
};
