/** Limits the commands' help states: apart from the modules that apply them, so `--help` loads none of those. */

/** The most questions an export reads from the search, page by page. */
export const EXPORT_LIMIT = 10_000;
