/** Set by extension/build.mjs. */
declare const __WAYMARK_PORTAL_URL__: string;
declare const __WAYMARK_PRODUCTION_ORIGIN__: string;
