/**
 * Award images (learner §4 Award generation): the live design rendered to a JPEG with html2canvas — loaded
 * only here, when an image is made, so neither the viewer nor <wm-award> carries it — then, for the
 * learner who earned the award, stored: POST /certificate/create-presigned-url, PUT the JPEG to the
 * address it gives (with the signed Content-Type), PUT /certificate/create-v2/{id}.
 */
import type { Client } from '@shared/client/client';
import { createCertificate, createPresignedUrl } from '@shared/contract/awards';
import { AWARD_IMAGE_EXTENSION } from '@shared/rules/award';
import type { AwardKind, CertificateInfo } from '@shared/schemas/award';
import { IMAGE_SIZE } from '@widgets/award/model';

const JPEG = 'image/jpeg';

/** The design in `node` as a JPEG (or a PNG, for baking a credential in) of the kind's IMAGE_SIZE. */
export async function renderAwardImage(
  node: HTMLElement,
  kind: AwardKind,
  type: 'image/jpeg' | 'image/png' = JPEG,
): Promise<Blob> {
  const { default: html2canvas } = await import('html2canvas');
  await document.fonts?.ready;
  const width = node.getBoundingClientRect().width || node.offsetWidth;
  if (!width) throw new Error('The award is not on the screen');
  const canvas = await html2canvas(node, {
    scale: IMAGE_SIZE[kind].width / width,
    backgroundColor: '#ffffff',
    logging: false,
  });
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error('The image could not be encoded'))),
      type,
      0.92,
    ),
  );
}

/** Renders, uploads and marks the award generated; returns what PUT /certificate/create-v2/{id} returns. */
export async function generateAwardImage(
  client: Client,
  node: HTMLElement,
  info: CertificateInfo,
  kind: AwardKind,
): Promise<CertificateInfo> {
  const image = await renderAwardImage(node, kind);
  const signed = await client.call(createPresignedUrl, {
    // the exact size is signed into the address, which then takes no other file
    body: { fileDetails: { extension: AWARD_IMAGE_EXTENSION, size: image.size }, certificateId: info.linkId },
  });
  // the address names the type it was signed for (local storage); S3 addresses are signed for JPEG
  const contentType = new URL(signed.data.url, window.location.href).searchParams.get('ct') ?? JPEG;
  const put = await fetch(signed.data.url, {
    method: 'PUT',
    headers: { 'content-type': contentType },
    body: image,
  });
  if (!put.ok) throw new Error(`The image upload failed (${put.status})`);
  const done = await client.call(createCertificate, { params: { id: info.linkId } });
  return done.data;
}

/** Saves a file the browser already holds. */
export function saveBlob(blob: Blob, fileName: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export const imageFileName = (kind: AwardKind, linkId: string) =>
  `waymark-${kind}-${linkId}.${AWARD_IMAGE_EXTENSION}`;
