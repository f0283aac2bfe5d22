/**
 * The files an author chose in the "Import questions" dialog: one question file (any format of
 * shared/formats/detect.ts) and, optionally, the image files it names by path — a browser gives a page the
 * files' names, not their folders, so an image is found by its name. Images carried inside the file (Moodle
 * XML, a QTI package) need nothing more.
 */

import type { ImageLookup } from '@shared/formats/check';
import { MAX_IMAGE_BYTES } from '@shared/formats/check';
import { type QuestionFileRead, readQuestionBytes } from '@shared/formats/detect';
import { imageInfo } from '@shared/formats/image';
import { fileImages } from '@shared/formats/prepare';
import { said } from '@shared/formats/problems';
import { currentTranslator } from '../../../lib/i18n';

export interface ChosenFile {
  name: string;
  bytes: Uint8Array;
}

export type ChosenFiles =
  | { ok: true; file: ChosenFile; read: QuestionFileRead; images: ImageLookup; imageNames: string[] }
  | { ok: false; message: string };

const baseName = (path: string) => path.split(/[\\/]/).pop() ?? path;

/** Sorts the chosen files into the question file and its images, and reads the question file. */
export function readChosenFiles(files: readonly ChosenFile[]): ChosenFiles {
  if (!files.length) return { ok: false, message: currentTranslator().t('import.chooseFile') };
  const images = new Map<string, Uint8Array>();
  const others: ChosenFile[] = [];
  for (const f of files) {
    if (imageInfo(f.bytes)) images.set(f.name.toLowerCase(), f.bytes);
    else others.push(f);
  }
  if (others.length === 0)
    return {
      ok: false,
      message: currentTranslator().t('import.onlyImages'),
    };
  if (others.length > 1)
    return {
      ok: false,
      message: currentTranslator().t('import.oneAtATime', {
        files: currentTranslator().list(
          others.map((f) => f.name),
          { type: 'unit' },
        ),
      }),
    };
  const file = others[0]!;
  const read = readQuestionBytes(file.name, file.bytes);
  const lookup: ImageLookup = (ref) => {
    const bytes = images.get(baseName(ref).toLowerCase());
    if (!bytes) return { error: said('import.problem.imageNotChosen', { name: ref }) };
    if (bytes.length > MAX_IMAGE_BYTES)
      return {
        error: said('import.problem.imageTooLarge', { name: ref, megabytes: MAX_IMAGE_BYTES / 1024 / 1024 }),
      };
    return { bytes };
  };
  return {
    ok: true,
    file,
    read,
    images: fileImages(read.result, lookup),
    imageNames: [...images.keys()],
  };
}
