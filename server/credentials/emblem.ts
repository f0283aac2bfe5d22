/** A small emblem per award level, the credential's image until the award's own image is generated. */
import type { AwardKind } from '@shared/schemas/award';

const SHAPES: Record<AwardKind, string> = {
  feather:
    '<path d="M150 40c-60 20-90 70-90 130l-20 40 16 4 18-34c60 0 100-40 110-110-14 4-26 10-34 18 4-18 4-32 0-48z" fill="#0f766e"/>',
  badge:
    '<path d="M128 24l28 20 34-2 10 32 28 20-12 32 12 32-28 20-10 32-34-2-28 20-28-20-34 2-10-32-28-20 12-32-12-32 28-20 10-32 34 2z" fill="#3730a3"/><circle cx="128" cy="138" r="46" fill="#fff" opacity=".9"/>',
  certificate:
    '<rect x="28" y="48" width="200" height="150" rx="8" fill="#fff" stroke="#92400e" stroke-width="8"/><path d="M60 96h136M60 124h136M60 152h84" stroke="#92400e" stroke-width="8"/><circle cx="190" cy="188" r="26" fill="#b45309"/>',
};

export function emblemSvg(kind: AwardKind): string {
  const label = kind[0]!.toUpperCase() + kind.slice(1);
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 256 256" width="256" height="256" role="img" aria-label="Waymark ${label}"><title>Waymark ${label}</title><rect width="256" height="256" rx="32" fill="#f5f5f4"/>${SHAPES[kind]}</svg>`;
}
