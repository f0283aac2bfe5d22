-- Issue 15: an answer is checked against the question OF ITS LINK (one key, the link's own row locked),
-- not against the shared question row (locked by every taker of the same test at once) and the link.
ALTER TABLE "test_answers" DROP CONSTRAINT "test_answers_test_link_id_test_links_id_fk";
--> statement-breakpoint
ALTER TABLE "test_answers" DROP CONSTRAINT "test_answers_question_id_questions_id_fk";
--> statement-breakpoint
ALTER TABLE "test_answers" ADD CONSTRAINT "test_answers_link_question_fk" FOREIGN KEY ("test_link_id","question_id") REFERENCES "public"."test_link_questions"("test_link_id","question_id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
-- room in each page, so an answer changed by autosave or scored at evaluation is rewritten in place (HOT)
ALTER TABLE "test_answers" SET (fillfactor = 70);
