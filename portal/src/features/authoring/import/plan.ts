/**
 * The check step of "Import questions": the chosen files read and checked by the same readers and rules as
 * `waymark questions import` (shared/formats), each question placed by the selects or the file
 * (shared/formats/placement.ts), then the server asked which questions it already has (planImport).
 */
import { planImport } from '@shared/client/question-import';
import { FORMAT_NAMES } from '@shared/formats/detect';
import { sha256Hex } from '@shared/formats/fingerprint';
import { checkFile } from '@shared/formats/prepare';
import type { Subject } from '@shared/schemas/lists';
import { client } from '@widgets/core/api';
import { currentTranslator } from '../../../lib/i18n';
import { type ChosenFile, readChosenFiles } from './importFiles';
import type { Report } from './parts';

/** The selects' subject and topic (ids; empty: from the file) and what questions without them are given. */
export interface Defaults {
  subject: string;
  topic: string;
  tags: string;
  explanation: string;
}
export const NO_DEFAULTS: Defaults = { subject: '', topic: '', tags: '', explanation: '' };

/** Reads and checks the chosen files, then asks the server which questions it has. */
export async function planFiles(
  files: ChosenFile[],
  subjects: Subject[],
  defaults: Defaults,
  signal: AbortSignal,
): Promise<{ report: Report } | { message: string }> {
  const chosen = readChosenFiles(files);
  if (!chosen.ok) return { message: chosen.message };
  const { file, read } = chosen;
  if (!read.format) return { message: currentTranslator().t('import.unknownFormat', { file: file.name }) };
  const tags = defaults.tags
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  const checked = checkFile(read.result, subjects, {
    images: chosen.images,
    defaults: {
      ...(tags.length ? { tags } : {}),
      ...(defaults.explanation.trim() ? { explanation: defaults.explanation.trim() } : {}),
    },
    ...(defaults.subject
      ? { overrides: { subject: defaults.subject, ...(defaults.topic ? { topic: defaults.topic } : {}) } }
      : {}),
  });
  const planned =
    checked.errors.length || checked.unplaced.length
      ? []
      : await planImport(client, checked.questions, sha256Hex, signal);
  return {
    report: {
      fileName: file.name,
      formatName: FORMAT_NAMES[read.format],
      total: read.result.total,
      notes: read.result.notes,
      errors: checked.errors,
      unsupported: checked.unsupported,
      unplaced: checked.unplaced,
      planned,
    },
  };
}
