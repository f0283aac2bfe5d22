/**
 * `waymark questions export`: writes questions as a file that `waymark questions import` reads back —
 * Waymark JSON, NDJSON or CSV, Moodle GIFT or Moodle XML, IMS QTI 2.1 (a zip package), or Aiken (single-
 * answer questions only, counted as written) — with subjects and topics by name, each question's Waymark id
 * where the format has a place for one (so importing the file again creates nothing), and images as their
 * web addresses (carried inside Moodle XML and QTI).
 */
import { randomBytes } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { me } from '@shared/contract/profile';
import { aikenCanWrite, writeAiken } from '@shared/formats/aiken';
import { writeGift } from '@shared/formats/gift-write';
import type { EmbeddedImage } from '@shared/formats/moodle-xml';
import { writeMoodleXml } from '@shared/formats/moodle-xml';
import { writeQtiPackage } from '@shared/formats/qti-write';
import type { BankQuestion } from '@shared/formats/record';
import { toRecord, writeRecords } from '@shared/formats/waymark';
import { hasImageOptions } from '@shared/rules/question-types';
import { Id } from '@shared/schemas/common';
import type { Context } from '../../core/context';
import { CliError, ExitCode, usageError } from '../../core/errors';
import { EXPORT_LIMIT } from '../../core/limits';
import { loadQuestionsForExport, loadSubjects } from '../../core/questions';
import { EXPORT_FORMATS } from '../questions';

export interface QuestionsExportOptions {
  mine?: boolean;
  assessment?: string;
  search?: string;
  output?: string;
  format?: string;
}

export type ExportFormat = (typeof EXPORT_FORMATS)[number];

function formatFor(options: QuestionsExportOptions): ExportFormat {
  const given = options.format?.trim().toLowerCase();
  if (given !== undefined) {
    const alias = given === 'xml' || given === 'moodle' ? 'moodle-xml' : given === 'jsonl' ? 'ndjson' : given;
    if (!(EXPORT_FORMATS as readonly string[]).includes(alias))
      throw usageError(`--format: must be one of ${EXPORT_FORMATS.join(', ')}.`);
    return alias as ExportFormat;
  }
  const ext = options.output ? extname(options.output).toLowerCase() : '';
  if (ext === '.csv') return 'csv';
  if (ext === '.json') return 'json';
  if (ext === '.gift') return 'gift';
  if (ext === '.xml') return 'moodle-xml';
  if (ext === '.zip') return 'qti';
  return 'ndjson';
}

/** The images of these questions, fetched so Moodle XML and QTI can carry them inside the file. */
async function fetchImages(
  ctx: Context,
  questions: readonly BankQuestion[],
): Promise<Map<string, EmbeddedImage>> {
  const urls = new Set<string>();
  for (const q of questions) {
    if (q.image) urls.add(q.image);
    if (hasImageOptions(q.type)) for (const o of q.options) urls.add(o.value);
  }
  const out = new Map<string, EmbeddedImage>();
  const names = new Set<string>();
  for (const url of urls) {
    if (!/^https?:\/\//i.test(url)) continue;
    try {
      const res = await ctx.http.fetch(url, { signal: ctx.signal });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      let name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'image');
      for (let n = 2; names.has(name); n++) name = `${n}-${name}`;
      names.add(name);
      out.set(url, { name, bytes });
    } catch (err) {
      ctx.output.note(
        `Note: the image ${url} could not be fetched (${(err as Error).message}); the file links to it instead.`,
      );
    }
  }
  return out;
}

/** Writes a file whole or not at all. */
function writeAtomically(path: string, content: string | Uint8Array) {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(temp, content, { flag: 'wx' });
    renameSync(temp, path);
  } catch (err) {
    rmSync(temp, { force: true });
    throw new CliError(`Cannot write ${path}: ${(err as Error).message}`, ExitCode.usage, { cause: err });
  }
}

export async function exportQuestions(ctx: Context, options: QuestionsExportOptions): Promise<void> {
  const format = formatFor(options);
  if (options.assessment !== undefined && !Id.safeParse(options.assessment).success) {
    throw new CliError(`--assessment: "${options.assessment}" is not an assessment id.`, ExitCode.badInput);
  }
  const { client } = ctx.signedIn();
  const { output } = ctx;
  const subjects = await loadSubjects(client, ctx.signal);
  const mine = options.mine ? (await client.call(me, { signal: ctx.signal })).data._id : undefined;
  const { questions, truncated } = await loadQuestionsForExport(
    client,
    {
      ...(options.assessment ? { assessmentId: options.assessment } : {}),
      ...(options.search ? { searchText: options.search } : {}),
      ...(mine ? { mine } : {}),
    },
    ctx.signal,
  );
  // a draft (never saved) has no content to import
  const published = questions.filter((q) => q.status === 'PUBLISH');
  const drafts = questions.length - published.length;
  const records = published.map((q) => toRecord(q, subjects, ctx.server));
  const bank: BankQuestion[] = records.map((r) => ({
    id: r.id!,
    question: r.question,
    type: r.type,
    options: r.options.map((o) => ({ value: o.value, correct: o.correct ?? false })),
    ...(r.points !== undefined ? { points: r.points } : {}),
    subject: r.subject ?? '',
    topic: r.topic ?? '',
    explanation: typeof r.explanation === 'string' ? [r.explanation] : (r.explanation ?? []),
    tags: typeof r.tags === 'string' ? [r.tags] : (r.tags ?? []),
    code: r.code ?? null,
    image: r.image ?? null,
  }));
  const header = `Exported from ${ctx.server} on ${new Date().toISOString().slice(0, 10)} (${bank.length} questions).`;
  let content: string | Uint8Array;
  // what the file holds: Aiken leaves out what it cannot hold, and says so
  let count = bank.length;
  let left = 0;
  if (format === 'gift') content = writeGift(bank, { header });
  else if (format === 'moodle-xml')
    content = writeMoodleXml(bank, { images: await fetchImages(ctx, bank), comment: header });
  else if (format === 'qti') content = writeQtiPackage(bank, { images: await fetchImages(ctx, bank) });
  else if (format === 'aiken') {
    content = writeAiken(bank);
    count = bank.filter(aikenCanWrite).length;
    left = bank.length - count;
    if (left)
      output.note(
        `Left out ${left} question${left === 1 ? '' : 's'} Aiken cannot hold (it has single-answer text questions only).`,
      );
  } else content = writeRecords(records, format);
  if (format === 'qti' && !options.output)
    throw usageError('A QTI package is a zip file: give it a name with -o bank.zip.');

  if (truncated) {
    output.note(
      `Note: an export reads at most ${EXPORT_LIMIT.toLocaleString('en')} questions from the search, the most recently changed; narrow it with --search or export an assessment with --assessment.`,
    );
  }
  if (drafts) output.note(`Left out ${drafts} draft${drafts === 1 ? '' : 's'} that were never saved.`);
  if (!options.output) {
    ctx.io.stdout.write(content as string);
    return;
  }
  writeAtomically(options.output, content);
  if (output.json) {
    output.emit({
      event: 'exported',
      file: options.output,
      format,
      count,
      ...(left ? { leftOut: left } : {}),
      drafts,
      truncated,
    });
  } else {
    output.line(
      `Exported ${count} question${count === 1 ? '' : 's'} to ${options.output} (${format}${left ? `; ${left} left out` : ''}).`,
    );
  }
}
