-- Decision 040: the language a person reads Waymark in (its interface, its mail, its award images).
-- Everyone before this read English; a person signing up from now on starts in the language their browser
-- asks for (Accept-Language), and changes it on their profile.
ALTER TABLE "users" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;
