/** The placeholder mentor photo (no file to load, so it also works on a partner page). */
const MENTOR_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="#e0e7ff"/><circle cx="32" cy="25" r="11" fill="#3730a3"/><path d="M12 58c2-11 10-17 20-17s18 6 20 17z" fill="#3730a3"/></svg>`;
export const PLACEHOLDER_MENTOR_IMAGE = `data:image/svg+xml,${encodeURIComponent(MENTOR_SVG)}`;

/** The product's own name, shown as the curator of a roadmap without authors. */
export const PRODUCT_NAME = 'Waymark';
