/**
 * The demo catalogue, seeded on first start (server/db/seed.ts): six roadmaps in two subjects and two
 * languages, of real public resources (MDN, the TypeScript handbook, the Python documentation in Spanish,
 * the PostgreSQL manual, Pro Git, and YouTube lessons with start and end marks), with tasks, curators,
 * prerequisites and the demo question bank (server/demo/questions.ts).
 *
 * Idempotent: a `catalogue-seed` version in system_state skips it once done; below that, every item is
 * looked up before it is inserted (roadmaps by name, resources by short id, authors by name, questions by
 * text and target), so a half-seeded database is completed rather than duplicated.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_QUESTION_TYPE, isTextAnswer } from '@shared/rules/question-types';
import { and, eq, isNull } from 'drizzle-orm';
import {
  authors,
  resources,
  roadmapAuthors,
  roadmapPrerequisites,
  roadmaps,
  sectionResources,
  sections,
  tasks,
} from '../catalogue/tables';
import type { Db } from '../db/client';
import { inTx } from '../db/helpers';
import { languages, subjects, systemState, topics } from '../db/schema';
import { questionOptions, questions, questionTargets } from '../questions/tables';
import { DEMO_QUESTIONS, type DemoQuestion } from './questions';

export const CATALOGUE_SEED_KEY = 'catalogue-seed';
/** 2: Git and GitHub has eight tasks (the course page's 'Show More' has something to show). */
export const CATALOGUE_SEED_VERSION = 2;

export interface DemoAuthor {
  name: string;
  designation: string;
  shortDescription: string;
  longDescription: string;
  profilePath: string;
}

export interface DemoResource {
  /** Unique across the demo: questions aim at it, and a section of another roadmap may reuse it by key. */
  key: string;
  title: string;
  type: 'WATCH' | 'READ';
  url: string;
  /** Lesson marks inside a video, 'h:mm:ss'. */
  start?: string;
  end?: string;
}

export interface DemoSection {
  /** `{roadmap key}.{section}`: questions aim at it. */
  key: string;
  name: string;
  /** New resources, or the key of one defined in another section. */
  resources: (DemoResource | string)[];
}

export interface DemoTask {
  title: string;
  url: string;
}

export interface DemoRoadmap {
  key: string;
  name: string;
  description: string;
  language: string;
  subject: string;
  topic: string;
  image: string;
  authors: string[];
  prerequisites: string[];
  sections: DemoSection[];
  tasks: DemoTask[];
}

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

const MDN = 'https://developer.mozilla.org/en-US/docs';
const TS = 'https://www.typescriptlang.org/docs/handbook';
const PY = 'https://docs.python.org/es/3/tutorial';
const PG = 'https://www.postgresql.org/docs/current';
const PROGIT = 'https://git-scm.com/book/en/v2';
const YT = 'https://www.youtube.com/watch?v=';

export const DEMO_ROADMAPS: DemoRoadmap[] = [
  {
    key: 'jsf',
    name: 'JavaScript Foundations',
    description:
      'Learn the language the web runs on, from values and operators to functions, closures, objects and arrays. Short videos to start, then the MDN JavaScript Guide, the reference that professionals use every day.',
    language: 'English',
    subject: 'Programming',
    topic: 'JavaScript',
    image: '/images/roadmaps/javascript-foundations.svg',
    authors: ['meera', 'kabir'],
    prerequisites: [],
    sections: [
      {
        key: 'jsf.start',
        name: 'How JavaScript runs',
        resources: [
          {
            key: 'jsf-100s',
            title: 'JavaScript in 100 Seconds',
            type: 'WATCH',
            url: `${YT}DHjqpvDnNGE`,
            start: '0:00:00',
            end: '0:02:20',
          },
          {
            key: 'mdn-js-intro',
            title: 'JavaScript Guide: Introduction',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Introduction`,
          },
        ],
      },
      {
        key: 'jsf.values',
        name: 'Values, variables and operators',
        resources: [
          {
            key: 'fcc-js-course',
            title: 'Learn JavaScript – Full Course for Beginners (the first 30 minutes)',
            type: 'WATCH',
            url: `${YT}PkZNo7MFNFg`,
            start: '0:00:00',
            end: '0:30:00',
          },
          {
            key: 'mdn-grammar',
            title: 'Grammar and types',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Grammar_and_types`,
          },
          {
            key: 'mdn-operators',
            title: 'Expressions and operators',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Expressions_and_operators`,
          },
        ],
      },
      {
        key: 'jsf.flow',
        name: 'Control flow',
        resources: [
          {
            key: 'mdn-control-flow',
            title: 'Control flow and error handling',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Control_flow_and_error_handling`,
          },
          {
            key: 'mdn-loops',
            title: 'Loops and iteration',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Loops_and_iteration`,
          },
        ],
      },
      {
        key: 'jsf.functions',
        name: 'Functions and closures',
        resources: [
          {
            key: 'mdn-functions',
            title: 'Functions',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Functions`,
          },
          { key: 'mdn-closures', title: 'Closures', type: 'READ', url: `${MDN}/Web/JavaScript/Closures` },
        ],
      },
      {
        key: 'jsf.data',
        name: 'Objects and arrays',
        resources: [
          {
            key: 'mdn-objects',
            title: 'Working with objects',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Working_with_objects`,
          },
          {
            key: 'mdn-arrays',
            title: 'Indexed collections',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Indexed_collections`,
          },
        ],
      },
    ],
    tasks: [
      {
        title: 'Complete the first five exercises of the JavaScript track on Exercism',
        url: 'https://exercism.org/tracks/javascript',
      },
      {
        title: 'Write FizzBuzz with a for loop and if…else',
        url: `${MDN}/Web/JavaScript/Reference/Statements/for`,
      },
      { title: 'Build a counter with a closure (makeCounter)', url: `${MDN}/Web/JavaScript/Closures` },
      {
        title: 'Sort a list of people by age with Array.prototype.sort() and a compare function',
        url: `${MDN}/Web/JavaScript/Reference/Global_Objects/Array/sort`,
      },
    ],
  },
  {
    key: 'mjs',
    name: 'Modern JavaScript and the DOM',
    description:
      'Make web pages interactive: find and change elements, react to events, understand the event loop, work with promises and async functions, and load data with fetch and ES modules.',
    language: 'English',
    subject: 'Programming',
    topic: 'Web Development',
    image: '/images/roadmaps/modern-javascript-dom.svg',
    authors: ['meera'],
    prerequisites: ['jsf'],
    sections: [
      {
        key: 'mjs.dom',
        name: 'The Document Object Model',
        resources: [
          {
            key: 'traversy-dom',
            title: 'JavaScript DOM Crash Course – Part 1',
            type: 'WATCH',
            url: `${YT}0ik6X4DJKCc`,
            start: '0:00:00',
            end: '0:33:00',
          },
          {
            key: 'mdn-dom-intro',
            title: 'Introduction to the DOM',
            type: 'READ',
            url: `${MDN}/Web/API/Document_Object_Model/Introduction`,
          },
          {
            key: 'mdn-queryselector',
            title: 'Document: querySelector() method',
            type: 'READ',
            url: `${MDN}/Web/API/Document/querySelector`,
          },
        ],
      },
      {
        key: 'mjs.events',
        name: 'Events',
        resources: [
          {
            key: 'mdn-addeventlistener',
            title: 'EventTarget: addEventListener() method',
            type: 'READ',
            url: `${MDN}/Web/API/EventTarget/addEventListener`,
          },
          {
            key: 'mdn-preventdefault',
            title: 'Event: preventDefault() method',
            type: 'READ',
            url: `${MDN}/Web/API/Event/preventDefault`,
          },
        ],
      },
      {
        key: 'mjs.async',
        name: 'Asynchronous JavaScript',
        resources: [
          {
            key: 'event-loop-talk',
            title: 'What the heck is the event loop anyway? (Philip Roberts, JSConf EU)',
            type: 'WATCH',
            url: `${YT}8aGhZQkoFbQ`,
            start: '0:00:00',
            end: '0:26:50',
          },
          {
            key: 'mdn-promises',
            title: 'Using promises',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Using_promises`,
          },
          {
            key: 'mdn-async-function',
            title: 'async function',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Reference/Statements/async_function`,
          },
        ],
      },
      {
        key: 'mjs.modules',
        name: 'Modules and the network',
        resources: [
          {
            key: 'mdn-modules',
            title: 'JavaScript modules',
            type: 'READ',
            url: `${MDN}/Web/JavaScript/Guide/Modules`,
          },
          {
            key: 'mdn-fetch',
            title: 'Using the Fetch API',
            type: 'READ',
            url: `${MDN}/Web/API/Fetch_API/Using_Fetch`,
          },
        ],
      },
    ],
    tasks: [
      {
        title: 'Build a to-do list: add, tick and remove items with DOM methods',
        url: `${MDN}/Web/API/Document/createElement`,
      },
      { title: 'Day 1 of JavaScript30: the drum kit', url: 'https://javascript30.com/' },
      {
        title: 'Fetch a public API and render the results, with a loading and an error state',
        url: `${MDN}/Web/API/Fetch_API/Using_Fetch`,
      },
      {
        title: 'Validate a form on submit without reloading the page',
        url: `${MDN}/Web/API/HTMLFormElement/submit_event`,
      },
      { title: 'Split your to-do app into ES modules', url: `${MDN}/Web/JavaScript/Guide/Modules` },
    ],
  },
  {
    key: 'ts',
    name: 'TypeScript for JavaScript Developers',
    description:
      'Add types to the JavaScript you already write: everyday types, narrowing, typed functions and objects, generics and the utility types, following the official TypeScript handbook.',
    language: 'English',
    subject: 'Programming',
    topic: 'TypeScript',
    image: '/images/roadmaps/typescript-for-js-developers.svg',
    authors: ['daniel', 'meera'],
    prerequisites: ['jsf'],
    sections: [
      {
        key: 'ts.why',
        name: 'Why TypeScript',
        resources: [
          {
            key: 'ts-100s',
            title: 'TypeScript in 100 Seconds',
            type: 'WATCH',
            url: `${YT}zQnBQ4tB3ZA`,
            start: '0:00:00',
            end: '0:02:20',
          },
          {
            key: 'ts-for-js',
            title: 'TypeScript for JavaScript Programmers',
            type: 'READ',
            url: `${TS}/typescript-in-5-minutes.html`,
          },
        ],
      },
      {
        key: 'ts.types',
        name: 'Everyday types and narrowing',
        resources: [
          { key: 'ts-everyday', title: 'Everyday Types', type: 'READ', url: `${TS}/2/everyday-types.html` },
          { key: 'ts-narrowing', title: 'Narrowing', type: 'READ', url: `${TS}/2/narrowing.html` },
        ],
      },
      {
        key: 'ts.objects',
        name: 'Functions and object types',
        resources: [
          { key: 'ts-functions', title: 'More on Functions', type: 'READ', url: `${TS}/2/functions.html` },
          { key: 'ts-objects', title: 'Object Types', type: 'READ', url: `${TS}/2/objects.html` },
        ],
      },
      {
        key: 'ts.generics',
        name: 'Generics, utility types and modules',
        resources: [
          { key: 'ts-generics', title: 'Generics', type: 'READ', url: `${TS}/2/generics.html` },
          { key: 'ts-utility', title: 'Utility Types', type: 'READ', url: `${TS}/utility-types.html` },
          'mdn-modules',
        ],
      },
    ],
    tasks: [
      {
        title: 'Turn on strict mode in a project and fix every error',
        url: 'https://www.typescriptlang.org/tsconfig#strict',
      },
      {
        title: 'Migrate a small JavaScript project to TypeScript',
        url: `${TS}/migrating-from-javascript.html`,
      },
      {
        title: 'Solve five warm-up and easy Type Challenges',
        url: 'https://github.com/type-challenges/type-challenges',
      },
      {
        title: 'Complete the first exercises of the TypeScript track on Exercism',
        url: 'https://exercism.org/tracks/typescript',
      },
    ],
  },
  {
    key: 'py',
    name: 'Python para principiantes',
    description:
      'Aprende Python desde cero con el tutorial oficial en español: el intérprete, números y cadenas, control de flujo, funciones, estructuras de datos, módulos, archivos y clases.',
    language: 'Spanish',
    subject: 'Programming',
    topic: 'Python',
    image: '/images/roadmaps/python-para-principiantes.svg',
    authors: ['lucia'],
    prerequisites: [],
    sections: [
      {
        key: 'py.start',
        name: 'Primeros pasos',
        resources: [
          {
            key: 'mouredev-python',
            title: 'Curso de Python desde cero (la primera hora)',
            type: 'WATCH',
            url: `${YT}Kp4Mvapo5kc`,
            start: '0:00:00',
            end: '1:00:00',
          },
          {
            key: 'py-interpreter',
            title: 'Usando el intérprete de Python',
            type: 'READ',
            url: `${PY}/interpreter.html`,
          },
          {
            key: 'py-intro',
            title: 'Una introducción informal a Python',
            type: 'READ',
            url: `${PY}/introduction.html`,
          },
        ],
      },
      {
        key: 'py.flow',
        name: 'Control de flujo y funciones',
        resources: [
          {
            key: 'py-controlflow',
            title: 'Más herramientas para control de flujo',
            type: 'READ',
            url: `${PY}/controlflow.html`,
          },
          { key: 'py-errors', title: 'Errores y excepciones', type: 'READ', url: `${PY}/errors.html` },
        ],
      },
      {
        key: 'py.data',
        name: 'Estructuras de datos y módulos',
        resources: [
          {
            key: 'py-datastructures',
            title: 'Estructuras de datos',
            type: 'READ',
            url: `${PY}/datastructures.html`,
          },
          { key: 'py-modules', title: 'Módulos', type: 'READ', url: `${PY}/modules.html` },
        ],
      },
      {
        key: 'py.classes',
        name: 'Archivos y clases',
        resources: [
          { key: 'py-inputoutput', title: 'Entrada y salida', type: 'READ', url: `${PY}/inputoutput.html` },
          { key: 'py-classes', title: 'Clases', type: 'READ', url: `${PY}/classes.html` },
        ],
      },
    ],
    tasks: [
      {
        title: 'Resuelve los cinco primeros ejercicios del track de Python en Exercism',
        url: 'https://exercism.org/tracks/python',
      },
      {
        title: 'Escribe un programa que cuente las palabras de un archivo de texto',
        url: `${PY}/inputoutput.html#reading-and-writing-files`,
      },
      { title: 'Crea una clase CuentaBancaria con depósitos y retiros', url: `${PY}/classes.html` },
      {
        title: 'Pide un número al usuario y maneja la entrada inválida con try/except',
        url: `${PY}/errors.html#handling-exceptions`,
      },
    ],
  },
  {
    key: 'sql',
    name: 'SQL Essentials',
    description:
      'Query and change relational data with confidence: SELECT, filtering, aggregates and grouping, joins, updates, constraints and transactions, with the PostgreSQL manual as the guide.',
    language: 'English',
    subject: 'Data Science',
    topic: 'SQL',
    image: '/images/roadmaps/sql-essentials.svg',
    authors: ['arjun', 'lucia'],
    prerequisites: [],
    sections: [
      {
        key: 'sql.select',
        name: 'Relational databases and SELECT',
        resources: [
          {
            key: 'sql-100s',
            title: 'SQL Explained in 100 Seconds',
            type: 'WATCH',
            url: `${YT}zsjvFFKOm3c`,
            start: '0:00:00',
            end: '0:02:20',
          },
          {
            key: 'pg-concepts',
            title: 'The SQL Language: Concepts',
            type: 'READ',
            url: `${PG}/tutorial-concepts.html`,
          },
          { key: 'pg-select', title: 'Querying a Table', type: 'READ', url: `${PG}/tutorial-select.html` },
        ],
      },
      {
        key: 'sql.aggregates',
        name: 'Aggregates and grouping',
        resources: [
          {
            key: 'fcc-sql',
            title: 'SQL Tutorial – Full Database Course for Beginners (the first 40 minutes)',
            type: 'WATCH',
            url: `${YT}HXV3zeQKqGY`,
            start: '0:00:00',
            end: '0:40:00',
          },
          { key: 'pg-agg', title: 'Aggregate Functions', type: 'READ', url: `${PG}/tutorial-agg.html` },
        ],
      },
      {
        key: 'sql.joins',
        name: 'Joins',
        resources: [
          { key: 'pg-join', title: 'Joins Between Tables', type: 'READ', url: `${PG}/tutorial-join.html` },
          {
            key: 'pg-table-expressions',
            title: 'Table Expressions',
            type: 'READ',
            url: `${PG}/queries-table-expressions.html`,
          },
        ],
      },
      {
        key: 'sql.changes',
        name: 'Changing data safely',
        resources: [
          { key: 'pg-update', title: 'Updates', type: 'READ', url: `${PG}/tutorial-update.html` },
          { key: 'pg-constraints', title: 'Constraints', type: 'READ', url: `${PG}/ddl-constraints.html` },
          {
            key: 'pg-transactions',
            title: 'Transactions',
            type: 'READ',
            url: `${PG}/tutorial-transactions.html`,
          },
        ],
      },
    ],
    tasks: [
      { title: 'SQLBolt: lessons 1 to 6', url: 'https://sqlbolt.com/' },
      { title: 'PostgreSQL Exercises: Basic', url: 'https://pgexercises.com/questions/basic/' },
      {
        title: 'PostgreSQL Exercises: Joins and Subqueries',
        url: 'https://pgexercises.com/questions/joins/',
      },
      { title: 'PostgreSQL Exercises: Aggregation', url: 'https://pgexercises.com/questions/aggregates/' },
      { title: 'Read Select Star SQL from start to finish', url: 'https://selectstarsql.com/' },
    ],
  },
  {
    key: 'git',
    name: 'Git and GitHub',
    description:
      'Version control from the first commit to your first pull request: recording changes, reading history, branching and merging, remotes, and the fork-and-pull-request workflow of GitHub, with Pro Git as the book.',
    language: 'English',
    subject: 'Programming',
    topic: 'Git',
    image: '/images/roadmaps/git-and-github.svg',
    authors: ['sara', 'daniel', 'kabir'],
    prerequisites: [],
    sections: [
      {
        key: 'git.basics',
        name: 'Version control',
        resources: [
          {
            key: 'git-100s',
            title: 'Git Explained in 100 Seconds',
            type: 'WATCH',
            url: `${YT}hwP7WQkmECE`,
            start: '0:00:00',
            end: '0:01:50',
          },
          {
            key: 'progit-about',
            title: 'Getting Started: About Version Control',
            type: 'READ',
            url: `${PROGIT}/Getting-Started-About-Version-Control`,
          },
          {
            key: 'progit-what',
            title: 'Getting Started: What is Git?',
            type: 'READ',
            url: `${PROGIT}/Getting-Started-What-is-Git%3F`,
          },
        ],
      },
      {
        key: 'git.record',
        name: 'Recording changes',
        resources: [
          {
            key: 'mosh-git',
            title: 'Git Tutorial for Beginners: Learn Git in 1 Hour',
            type: 'WATCH',
            url: `${YT}8JJ101D3knE`,
            start: '0:00:00',
            end: '1:00:00',
          },
          {
            key: 'progit-recording',
            title: 'Git Basics: Recording Changes to the Repository',
            type: 'READ',
            url: `${PROGIT}/Git-Basics-Recording-Changes-to-the-Repository`,
          },
          {
            key: 'progit-history',
            title: 'Git Basics: Viewing the Commit History',
            type: 'READ',
            url: `${PROGIT}/Git-Basics-Viewing-the-Commit-History`,
          },
        ],
      },
      {
        key: 'git.branching',
        name: 'Branching and merging',
        resources: [
          {
            key: 'progit-branches',
            title: 'Git Branching: Branches in a Nutshell',
            type: 'READ',
            url: `${PROGIT}/Git-Branching-Branches-in-a-Nutshell`,
          },
          {
            key: 'progit-merging',
            title: 'Git Branching: Basic Branching and Merging',
            type: 'READ',
            url: `${PROGIT}/Git-Branching-Basic-Branching-and-Merging`,
          },
        ],
      },
      {
        key: 'git.github',
        name: 'Collaborating on GitHub',
        resources: [
          {
            key: 'fcc-git-github',
            title: 'Git and GitHub for Beginners – Crash Course',
            type: 'WATCH',
            url: `${YT}RGOj5yH7evk`,
            start: '0:00:00',
            end: '1:08:00',
          },
          {
            key: 'progit-remotes',
            title: 'Git Basics: Working with Remotes',
            type: 'READ',
            url: `${PROGIT}/Git-Basics-Working-with-Remotes`,
          },
          {
            key: 'progit-contributing',
            title: 'GitHub: Contributing to a Project',
            type: 'READ',
            url: `${PROGIT}/GitHub-Contributing-to-a-Project`,
          },
        ],
      },
    ],
    tasks: [
      { title: 'Learn Git Branching: the Introduction Sequence', url: 'https://learngitbranching.js.org/' },
      {
        title: 'Create a repository on GitHub and push a project to it',
        url: 'https://docs.github.com/en/repositories/creating-and-managing-repositories/quickstart-for-repositories',
      },
      {
        title: 'Open a pull request from a branch',
        url: 'https://docs.github.com/en/pull-requests/collaborating-with-pull-requests/proposing-changes-to-your-work-with-pull-requests/creating-a-pull-request',
      },
      {
        title: 'Resolve a merge conflict on the command line',
        url: 'https://docs.github.com/en/pull-requests/collaborating-with-pull-requests/addressing-merge-conflicts/resolving-a-merge-conflict-using-the-command-line',
      },
      { title: 'Write a .gitignore for a Node.js project', url: 'https://git-scm.com/docs/gitignore' },
      {
        title: 'Undo a commit with git revert and git reset',
        url: 'https://git-scm.com/book/en/v2/Git-Basics-Undoing-Things',
      },
      {
        title: 'Tag a release and push the tag',
        url: 'https://git-scm.com/book/en/v2/Git-Basics-Tagging',
      },
      {
        title: 'Review a pull request and suggest a change',
        url: 'https://docs.github.com/en/pull-requests/collaborating-with-pull-requests/reviewing-changes-in-pull-requests/reviewing-proposed-changes-in-a-pull-request',
      },
    ],
  },
];

/** 'h:mm:ss' → seconds. */
export function parseMark(mark: string | undefined): number | null {
  if (!mark) return null;
  const parts = mark.split(':').map(Number);
  if (parts.length !== 3 || parts.some((n) => !Number.isInteger(n) || n < 0)) {
    throw new Error(`A time mark is written h:mm:ss, not ${mark}`);
  }
  const [h, m, s] = parts as [number, number, number];
  return h * 3600 + m * 60 + s;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A stable short id for a demo resource (the same on every fresh install): /resource/{shortId}. */
export function demoShortId(key: string): string {
  const digest = createHash('sha256').update(`waymark-demo-resource:${key}`).digest();
  return [...digest.subarray(0, 8)].map((b) => BASE62[b % 62]).join('');
}

/** Every demo resource by key (each defined once; sections of other roadmaps refer to it by key). */
export function demoResources(): Map<string, DemoResource> {
  const all = new Map<string, DemoResource>();
  for (const r of DEMO_ROADMAPS) {
    for (const s of r.sections) {
      for (const res of s.resources) {
        if (typeof res === 'string') continue;
        if (all.has(res.key)) throw new Error(`The demo resource ${res.key} is defined twice`);
        all.set(res.key, res);
      }
    }
  }
  return all;
}

async function languageId(db: Db, name: string): Promise<string> {
  await db.insert(languages).values({ name }).onConflictDoNothing();
  const [row] = await db
    .select({ id: languages.id })
    .from(languages)
    .where(eq(languages.name, name))
    .limit(1);
  return row!.id;
}

async function subjectId(db: Db, name: string): Promise<string> {
  await db.insert(subjects).values({ name }).onConflictDoNothing();
  const [row] = await db.select({ id: subjects.id }).from(subjects).where(eq(subjects.name, name)).limit(1);
  return row!.id;
}

async function topicId(db: Db, subjectId: string, name: string): Promise<string> {
  await db.insert(topics).values({ subjectId, name }).onConflictDoNothing();
  const [row] = await db
    .select({ id: topics.id })
    .from(topics)
    .where(and(eq(topics.subjectId, subjectId), eq(topics.name, name)))
    .limit(1);
  return row!.id;
}

interface Ids {
  roadmaps: Map<string, { id: string; subjectId: string; topicId: string; languageId: string }>;
  sections: Map<string, string>;
  resources: Map<string, string>;
}

async function seedRoadmaps(db: Db): Promise<Ids & { created: number }> {
  const ids: Ids = { roadmaps: new Map(), sections: new Map(), resources: new Map() };
  const defined = demoResources();
  const authorIds = new Map<string, string>();
  for (const [key, a] of Object.entries(DEMO_AUTHORS)) {
    const [found] = await db
      .select({ id: authors.id })
      .from(authors)
      .where(eq(authors.name, a.name))
      .limit(1);
    authorIds.set(
      key,
      found?.id ?? (await db.insert(authors).values(a).returning({ id: authors.id }))[0]!.id,
    );
  }
  const resourceId = async (key: string): Promise<string> => {
    const known = ids.resources.get(key);
    if (known) return known;
    const r = defined.get(key);
    if (!r) throw new Error(`No demo resource ${key}`);
    const shortId = demoShortId(key);
    const [found] = await db
      .select({ id: resources.id })
      .from(resources)
      .where(eq(resources.shortId, shortId))
      .limit(1);
    const id =
      found?.id ??
      (
        await db
          .insert(resources)
          .values({
            actualTitle: r.title,
            type: r.type,
            url: r.url,
            shortId,
            startSeconds: parseMark(r.start),
            endSeconds: parseMark(r.end),
          })
          .returning({ id: resources.id })
      )[0]!.id;
    ids.resources.set(key, id);
    return id;
  };

  let created = 0;
  for (const r of DEMO_ROADMAPS) {
    const language = await languageId(db, r.language);
    const subject = await subjectId(db, r.subject);
    const topic = await topicId(db, subject, r.topic);
    const [found] = await db
      .select({ id: roadmaps.id })
      .from(roadmaps)
      .where(eq(roadmaps.name, r.name))
      .limit(1);
    let roadmapId = found?.id;
    if (!roadmapId) {
      const [row] = await db
        .insert(roadmaps)
        .values({
          name: r.name,
          description: r.description,
          languageId: language,
          subjectId: subject,
          topicId: topic,
          imgPath: r.image,
        })
        .returning({ id: roadmaps.id });
      roadmapId = row!.id;
      created++;
      await db
        .insert(roadmapAuthors)
        .values(
          r.authors.map((a, position) => ({ roadmapId: roadmapId!, authorId: authorIds.get(a)!, position })),
        );
    }
    // tasks by title: a roadmap seeded by an older version gets the tasks added since
    const taskTitles = new Set(
      (await db.select({ title: tasks.actualTitle }).from(tasks).where(eq(tasks.roadmapId, roadmapId))).map(
        (t) => t.title,
      ),
    );
    const newTasks = r.tasks
      .map((t, position) => ({
        roadmapId: roadmapId!,
        actualTitle: t.title,
        url: t.url,
        type: 'READ' as const,
        position,
      }))
      .filter((t) => !taskTitles.has(t.actualTitle));
    if (newTasks.length) await db.insert(tasks).values(newTasks);
    ids.roadmaps.set(r.key, { id: roadmapId, subjectId: subject, topicId: topic, languageId: language });
    for (const [position, s] of r.sections.entries()) {
      const [existing] = await db
        .select({ id: sections.id })
        .from(sections)
        .where(and(eq(sections.roadmapId, roadmapId), eq(sections.name, s.name)))
        .limit(1);
      const sectionId =
        existing?.id ??
        (
          await db
            .insert(sections)
            .values({ roadmapId, name: s.name, position })
            .returning({ id: sections.id })
        )[0]!.id;
      ids.sections.set(s.key, sectionId);
      for (const [i, res] of s.resources.entries()) {
        const rid = await resourceId(typeof res === 'string' ? res : res.key);
        await db
          .insert(sectionResources)
          .values({ sectionId, resourceId: rid, position: i })
          .onConflictDoNothing();
      }
    }
  }
  for (const r of DEMO_ROADMAPS) {
    for (const [position, p] of r.prerequisites.entries()) {
      await db
        .insert(roadmapPrerequisites)
        .values({ roadmapId: ids.roadmaps.get(r.key)!.id, prerequisiteId: ids.roadmaps.get(p)!.id, position })
        .onConflictDoNothing();
    }
  }
  return { ...ids, created };
}

/** Which demo roadmap a question target belongs to (`r:` resource, `s:` section, `m:` roadmap keys). */
export function roadmapKeyOf(target: DemoQuestion['at']): string {
  const [kind, key] = target.split(':') as [string, string];
  if (kind === 'm') return key;
  if (kind === 's') return key.split('.')[0]!;
  for (const r of DEMO_ROADMAPS) {
    for (const s of r.sections) {
      if (s.resources.some((x) => typeof x !== 'string' && x.key === key)) return r.key;
    }
  }
  throw new Error(`No demo resource ${key}`);
}

/** Spreads the correct options among the wrong ones, the same way on every install. */
export function demoOptions(q: DemoQuestion, index: number): { value: string; isCorrect: boolean }[] {
  if (isTextAnswer(q.type)) return (q.accept ?? []).map((value) => ({ value, isCorrect: true }));
  const out = (q.wrong ?? []).map((value) => ({ value, isCorrect: false }));
  for (const [i, value] of (q.right ?? []).entries()) {
    out.splice((index * 7 + i * 3) % (out.length + 1), 0, { value, isCorrect: true });
  }
  return out;
}

async function seedQuestions(db: Db, ids: Ids): Promise<number> {
  const existing = await db
    .select({ text: questions.question, kind: questionTargets.kind, targetId: questionTargets.targetId })
    .from(questions)
    .innerJoin(questionTargets, eq(questionTargets.questionId, questions.id))
    .where(isNull(questions.createdBy));
  const seen = new Set(existing.map((e) => `${e.kind}:${e.targetId}:${e.text}`));
  let added = 0;
  for (const [index, q] of DEMO_QUESTIONS.entries()) {
    const [kind, key] = q.at.split(':') as ['r' | 's' | 'm', string];
    const target =
      kind === 'r'
        ? { kind: 'RESOURCE' as const, id: ids.resources.get(key) }
        : kind === 's'
          ? { kind: 'SECTION' as const, id: ids.sections.get(key) }
          : { kind: 'ROADMAP' as const, id: ids.roadmaps.get(key)?.id };
    if (!target.id) throw new Error(`The demo question "${q.q}" aims at ${q.at}, which does not exist`);
    if (seen.has(`${target.kind}:${target.id}:${q.q}`)) continue;
    const roadmap = ids.roadmaps.get(roadmapKeyOf(q.at))!;
    const [row] = await db
      .insert(questions)
      .values({
        question: q.q,
        questionType: q.type ?? DEFAULT_QUESTION_TYPE,
        code: q.code ?? null,
        questionImagePath: q.image ?? null,
        points: 10,
        subjectId: roadmap.subjectId,
        topicId: roadmap.topicId,
        // in the language of the roadmap it assesses
        languageId: roadmap.languageId,
        explanation: [{ type: 'TEXT', value: q.why }],
        tags: q.tags,
        status: 'PUBLISH',
      })
      .returning({ id: questions.id });
    await db.insert(questionOptions).values(
      demoOptions(q, index).map((o, position) => ({
        questionId: row!.id,
        value: o.value,
        isCorrect: o.isCorrect,
        points: o.isCorrect ? 10 : 0,
        position,
      })),
    );
    await db.insert(questionTargets).values({ questionId: row!.id, kind: target.kind, targetId: target.id });
    added++;
  }
  return added;
}

/** Seeds the demo catalogue and question bank once (see the file comment). */
export async function seedCatalogue(
  db: Db,
  opts: { log?: (m: string) => void } = {},
): Promise<{ roadmaps: number; questions: number }> {
  const log = opts.log ?? (() => {});
  const [state] = await db.select().from(systemState).where(eq(systemState.key, CATALOGUE_SEED_KEY)).limit(1);
  const version = (state?.value as { version?: number } | undefined)?.version ?? 0;
  if (version >= CATALOGUE_SEED_VERSION) return { roadmaps: 0, questions: 0 };
  const result = await inTx(db, async (tx) => {
    const ids = await seedRoadmaps(tx);
    const added = await seedQuestions(tx, ids);
    await tx
      .insert(systemState)
      .values({ key: CATALOGUE_SEED_KEY, value: { version: CATALOGUE_SEED_VERSION } })
      .onConflictDoUpdate({
        target: systemState.key,
        set: { value: { version: CATALOGUE_SEED_VERSION }, updatedAt: new Date() },
      });
    return { roadmaps: ids.created, questions: added };
  });
  log(`seeded the demo catalogue: ${result.roadmaps} roadmaps, ${result.questions} questions`);
  return result;
}
