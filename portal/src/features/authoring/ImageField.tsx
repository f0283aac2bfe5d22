/**
 * The editor's image fields (mentor §2.8): a file button for jpeg, png or webp, the check of a question
 * image's 1200×400 size before anything is sent, the upload to a signed address, and the image shown with
 * its Remove button.
 */
import { imageSignedUrl } from '@shared/contract/authoring';
import type { MessageKey } from '@shared/i18n/keys';
import { DROPZONE_HEIGHT, DROPZONE_WIDTH, IMAGE_TYPES_ALLOWED } from '@shared/schemas/authoring';
import { client } from '@widgets/core/api';
import { useI18n } from '@widgets/core/i18n';
import type { ReactNode } from 'react';
import { currentTranslator } from '../../lib/i18n';
import { editorKey } from './editorText';

/** Checks an image file: type, and for the question image the 1200×400 dropzone size (a message key). */
export async function checkImage(file: File, exact: boolean): Promise<MessageKey | null> {
  if (!(IMAGE_TYPES_ALLOWED as readonly string[]).includes(file.type)) return 'editor.imageType';
  if (!exact) return null;
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    await new Promise<void>((done, fail) => {
      img.onload = () => done();
      img.onerror = () => fail(new Error('not an image'));
      img.src = url;
    });
    return img.naturalWidth === DROPZONE_WIDTH && img.naturalHeight === DROPZONE_HEIGHT
      ? null
      : editorKey('imageDimension');
  } catch {
    return 'editor.imageUnreadable';
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Uploads an image of the question or of one option; the path it is stored at. */
export async function uploadImage(
  questionId: string,
  file: File,
  type: 'question' | 'option',
  optionIndex?: number,
): Promise<string> {
  const fileType = file.type.split('/')[1] as 'jpeg' | 'png' | 'webp';
  // the exact size is signed into the address, which then takes no other file
  const signed = await client.call(imageSignedUrl, {
    body: { type, questionId, optionIndex, fileType, size: file.size },
  });
  const res = await fetch(signed.data.url, {
    method: 'PUT',
    headers: { 'content-type': file.type },
    body: file,
  });
  if (!res.ok) throw new Error(currentTranslator().t('editor.uploadFailed'));
  return signed.data.path;
}

/** A button that opens the file chooser for one image. */
export function ImagePicker({
  children,
  onPick,
}: {
  children: ReactNode;
  onPick: (file: File | undefined) => void;
}) {
  return (
    <label className="btn btn-secondary file-button">
      {children}
      <input
        type="file"
        accept={IMAGE_TYPES_ALLOWED.join(',')}
        className="visually-hidden"
        onChange={(e) => onPick(e.target.files?.[0])}
      />
    </label>
  );
}

/** The question's illustration, with its Remove button. */
export function QuestionImage({ path, onRemove }: { path: string; onRemove: () => void }) {
  const { t } = useI18n();
  return (
    <figure className="question-image">
      <img src={path} alt={t('editor.questionImage')} />
      <button type="button" className="btn btn-link" onClick={onRemove}>
        {t('editor.removeImage')}
      </button>
    </figure>
  );
}

/** An option's image: the image or 'No image yet', Choose or Replace, and Remove. */
export function OptionImage({
  index,
  path,
  onPick,
  onRemove,
}: {
  index: number;
  path: string;
  onPick: (file: File | undefined) => void;
  onRemove: () => void;
}) {
  const { t } = useI18n();
  return (
    <div className="option-image">
      {path ? (
        <img src={path} alt={t('editor.option', { number: index + 1 })} />
      ) : (
        <span className="muted">{t('editor.noImage')}</span>
      )}
      <ImagePicker onPick={onPick}>
        {path ? t('editor.replaceImage') : t('editor.chooseImage')}
        <span className="visually-hidden"> {t('editor.forOption', { number: index + 1 })}</span>
      </ImagePicker>
      {path ? (
        <button type="button" className="btn btn-link" onClick={onRemove}>
          {t('editor.removeImage')}
        </button>
      ) : null}
    </div>
  );
}
