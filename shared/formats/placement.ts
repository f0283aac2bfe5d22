/**
 * Where an imported question goes: its subject and topic (decision 032). In order:
 *
 * 1. what the person chose (`--subject`/`--topic`, the dialog's selects): it decides for every question of
 *    the file, whatever the file says;
 * 2. the subject and topic the file names (Waymark's JSON and CSV), by name or id, misspellings reported per
 *    question with a "did you mean";
 * 3. the question's category (GIFT's `$CATEGORY:`, Moodle XML's category questions, a QTI manifest's taxon
 *    path), matched against the server's subjects and topics by name, ignoring case: the deepest name that
 *    is a topic of a subject named above it in the path (`$course$/top/Programming/Week 3/Git` is
 *    Programming / Git), else the deepest name that is the topic of exactly one subject (`$course$/top/Default
 *    for Git/Git/Branching` is Programming / Git when only Programming has a topic Git).
 *
 * A question none of these places is "unplaced": not a problem per question, but said once for the file,
 * with what to pass and the server's subjects and topics (describeUnplaced).
 */

import type { Subject } from '../schemas/lists';
import { type Said, said } from './problems';

type Topic = Subject['topics'][number];

/** Edit distance, for "did you mean" on a misspelt subject or topic. */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length]!;
}

/** The name closest to a misspelt one, when it is close enough to be a typo. */
function closest(name: string, names: readonly string[]): string | null {
  const key = name.trim().toLowerCase();
  let best: { name: string; d: number } | null = null;
  for (const n of names) {
    const d = distance(key, n.toLowerCase());
    if (d <= Math.max(1, Math.floor(key.length / 4)) && (!best || d < best.d)) best = { name: n, d };
  }
  return best?.name ?? null;
}

const same = (ref: string, thing: { _id: string; name: string }) => {
  const key = ref.trim().toLowerCase();
  return thing._id.toLowerCase() === key || thing.name.trim().toLowerCase() === key;
};
const subjectNamed = (subjects: readonly Subject[], ref: string) =>
  subjects.find((s) => s._id.toLowerCase() === ref.trim().toLowerCase()) ??
  subjects.find((s) => same(ref, s)) ??
  null;
const topicNamed = (subject: Subject, ref: string) =>
  subject.topics.find((t) => t._id.toLowerCase() === ref.trim().toLowerCase()) ??
  subject.topics.find((t) => same(ref, t)) ??
  null;

/** Why a subject the person or the file named is not on the server. */
function noSubject(subjects: readonly Subject[], ref: string): Said {
  const guess = closest(
    ref,
    subjects.map((s) => s.name),
  );
  const name = ref.trim();
  if (guess) return said('import.problem.noSubjectGuess', { name, guess });
  return subjects.length
    ? said('import.problem.noSubject', { name, subjects: subjects.map((s) => s.name).join(', ') })
    : said('import.problem.noSubjects', { name });
}

/** Why a topic is not one of the subject's. */
function noTopic(subjects: readonly Subject[], subject: Subject, ref: string): Said {
  const elsewhere = subjects.find((s) => s !== subject && s.topics.some((t) => same(ref, t)));
  const guess = elsewhere
    ? null
    : closest(
        ref,
        subject.topics.map((t) => t.name),
      );
  const name = ref.trim();
  if (guess) return said('import.problem.notTopicGuess', { name, subject: subject.name, guess });
  const topics = subject.topics.map((t) => t.name).join(', ') || 'none';
  return elsewhere
    ? said('import.problem.notTopicElsewhere', { name, subject: subject.name, other: elsewhere.name, topics })
    : said('import.problem.notTopic', { name, subject: subject.name, topics });
}

/** The subject and topic a category path names (the rules of this module's comment), or null. */
function placeInCategory(
  subjects: readonly Subject[],
  path: readonly string[],
  within?: Subject,
): { subject: Subject; topic: Topic } | null {
  for (let j = path.length - 1; j >= 0; j--) {
    const name = path[j]!;
    if (within) {
      const topic = topicNamed(within, name);
      if (topic) return { subject: within, topic };
      continue;
    }
    for (let i = j - 1; i >= 0; i--) {
      const subject = subjects.find((s) => same(path[i]!, s));
      const topic = subject && topicNamed(subject, name);
      if (subject && topic) return { subject, topic };
    }
  }
  if (within) return null;
  for (let j = path.length - 1; j >= 0; j--) {
    const owners = ownersOf(subjects, path[j]!);
    if (owners.length === 1) return { subject: owners[0]!, topic: topicNamed(owners[0]!, path[j]!)! };
  }
  return null;
}

export interface PlacementRefs {
  /** Chosen by the person: decides for every question of the file. */
  chosen?: { subject?: string; topic?: string };
  /** Named by the file for this question. */
  named?: { subject?: string; topic?: string };
  /** The question's category in the file, outermost first. */
  category?: readonly string[];
}

export type Placement =
  | { ok: true; subject: Subject; topic: Topic }
  /** Neither the person nor the file says where it goes (or its category names nothing of the server). */
  | { ok: false; unplaced: true }
  /** A subject or topic was named that the server does not have. */
  | { ok: false; unplaced?: false; field: 'subject' | 'topic'; problem: Said };

const text = (s: string | undefined) => (s?.trim() ? s : undefined);

/** The subjects having a topic of this name or id, and what is said when none has. */
const ownersOf = (subjects: readonly Subject[], topicRef: string) =>
  subjects.filter((s) => s.topics.some((t) => same(topicRef, t)));
const noOwner = (topicRef: string) => ({
  ok: false as const,
  field: 'topic' as const,
  problem: said('import.problem.noTopicAnywhere', { name: topicRef.trim() }),
});

/** The subject having this topic: the one the file or its category names, else the only one. */
function ownerOf(subjects: readonly Subject[], topicRef: string, hints: readonly string[]): Placement {
  const owners = ownersOf(subjects, topicRef);
  if (!owners.length) return noOwner(topicRef);
  const subject =
    owners.find((s) => hints.some((h) => same(h, s))) ?? (owners.length === 1 ? owners[0]! : null);
  return subject
    ? { ok: true, subject, topic: topicNamed(subject, topicRef)! }
    : { ok: false, unplaced: true };
}

/** A named subject, and its named topic or else the first of `candidates` that is one of its topics. */
function placeNamed(
  subjects: readonly Subject[],
  subjectRef: string,
  topicRef: string | undefined,
  candidates: readonly string[],
): Placement {
  const subject = subjectNamed(subjects, subjectRef);
  if (!subject) return { ok: false, field: 'subject', problem: noSubject(subjects, subjectRef) };
  if (topicRef) {
    const topic = topicNamed(subject, topicRef);
    return topic
      ? { ok: true, subject, topic }
      : { ok: false, field: 'topic', problem: noTopic(subjects, subject, topicRef) };
  }
  const found = placeInCategory(subjects, candidates, subject);
  return found ? { ok: true, ...found } : { ok: false, unplaced: true };
}

/** Where one question goes (this module's rules). */
export function placeQuestion(subjects: readonly Subject[], refs: PlacementRefs): Placement {
  const category = refs.category ?? [];
  const chosenSubject = text(refs.chosen?.subject);
  const chosenTopic = text(refs.chosen?.topic);
  const namedSubject = text(refs.named?.subject);
  const namedTopic = text(refs.named?.topic);
  // a chosen subject without a topic takes the file's topic, or its category's, when it is one of its own
  if (chosenSubject)
    return placeNamed(subjects, chosenSubject, chosenTopic, [
      ...category,
      ...(namedTopic ? [namedTopic] : []),
    ]);
  if (chosenTopic)
    return ownerOf(subjects, chosenTopic, [...(namedSubject ? [namedSubject] : []), ...category]);
  if (namedSubject) return placeNamed(subjects, namedSubject, namedTopic, category);
  if (namedTopic) return ownerOf(subjects, namedTopic, category);
  const found = placeInCategory(subjects, category);
  return found ? { ok: true, ...found } : { ok: false, unplaced: true };
}

/**
 * The person's choice, checked once for the whole file: a wrong `--subject` or `--topic` is one problem,
 * not one per question. A topic chosen alone must be the topic of one subject only.
 */
export function checkChoice(
  subjects: readonly Subject[],
  chosen: { subject?: string; topic?: string },
): { ok: true } | { ok: false; field: 'subject' | 'topic'; message: string } {
  const subjectRef = text(chosen.subject);
  const topicRef = text(chosen.topic);
  if (subjectRef) {
    const subject = subjectNamed(subjects, subjectRef);
    if (!subject) return { ok: false, field: 'subject', message: noSubject(subjects, subjectRef).message };
    if (topicRef && !topicNamed(subject, topicRef))
      return { ok: false, field: 'topic', message: noTopic(subjects, subject, topicRef).message };
    return { ok: true };
  }
  if (topicRef) {
    const owners = ownersOf(subjects, topicRef);
    if (!owners.length) return { ok: false, field: 'topic', message: noOwner(topicRef).problem.message };
    if (owners.length > 1)
      return {
        ok: false,
        field: 'topic',
        message: said('import.problem.topicOfSeveral', {
          name: topicRef.trim(),
          subjects: owners.map((s) => s.name).join(' and '),
        }).message,
      };
  }
  return { ok: true };
}

/** A question no subject and topic were found for, and the category it had. */
export interface UnplacedQuestion {
  line: number;
  item?: number;
  part?: string;
  category: readonly string[] | null;
}

/** The categories of the questions without a subject and topic, counted, and how many have none. */
export function unplacedCategories(unplaced: readonly UnplacedQuestion[]) {
  const counts = new Map<string, number>();
  let bare = 0;
  for (const u of unplaced) {
    if (!u.category?.length) bare++;
    else {
      const path = u.category.join(' / ');
      counts.set(path, (counts.get(path) ?? 0) + 1);
    }
  }
  return { counts, bare };
}

/**
 * What is said once of the questions without a subject and topic: how many of the file's, and the
 * categories that named nothing of the server. "9 of 9 questions have no subject and topic on this server:
 * the file gives none" / "…: their categories name none of its subjects and topics (“Iota” 6, …)".
 */
export function describeUnplaced(unplaced: readonly UnplacedQuestion[], total: number): string {
  const { counts, bare } = unplacedCategories(unplaced);
  const listed = [...counts].slice(0, 5).map(([path, n]) => `“${path}” (${n})`);
  const more = counts.size > 5 ? `, and ${counts.size - 5} more` : '';
  const categories = counts.size
    ? `${bare ? `${bare} have no category, and the categories of the others` : 'their categories'} name none of its subjects and topics: ${listed.join(', ')}${more}`
    : 'the file gives none';
  const n = unplaced.length;
  return `${n} of ${total} question${total === 1 ? '' : 's'} ${n === 1 ? 'has' : 'have'} no subject and topic on this server: ${categories}`;
}

/** The server's subjects and their topics, to choose from: "Programming: JavaScript, Git; Mathematics: …". */
export const subjectsAndTopics = (subjects: readonly Subject[]) =>
  subjects.length
    ? subjects.map((s) => `${s.name}: ${s.topics.map((t) => t.name).join(', ') || 'no topics'}`).join('; ')
    : 'the server has no subjects yet';
