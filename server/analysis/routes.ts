/**
 * Item analysis over HTTP (shared/contract/analysis.ts; decision 037): an assessment's statistics and its
 * question table as a file, the question bank's column and one question's figures — to the tenant whose
 * assessments they are (another tenant's assessment is 404, a learner is refused by the calls' role) — and
 * the platform's own tests to its staff (PLATFORM_STAFF_EMAILS, e-mail verified; 403 for anyone else).
 * Every read first folds the attempts evaluated in the last minutes (fold.ts catchUp).
 */
import { analysisRouter } from '@shared/contract/analysis';
import { CSV_CONTENT_TYPE, downloadName } from '@shared/rules/csv';
import { STATS_COLUMNS, statsFileRow } from '@shared/rules/test-figures';
import { and, asc, eq, isNull, param, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ownedAssessment, publishedQuestionIds, readableQuestion } from '../authoring/access';
import { tenantAssessmentQuestions, tenantAssessments } from '../authoring/tables';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { rowsOf } from '../db/helpers';
import { fileResponse } from '../http/download';
import { forbidden } from '../http/errors';
import { type Caller, ok, serve } from '../http/routes';
import type { QuestionCounts } from '../questions/load';
import { questions } from '../questions/tables';
import { serialise } from '../tenant/exports';
import { figuresOf, itemAggregates, questionFacts, questionRows, testStats } from './figures';
import { catchUp } from './fold';
import { itemAttempts, itemSums } from './tables';

/** The test key of a tenant's assessment. */
export const assessmentKey = (assessmentId: string) => `CUSTOM-TEST:${assessmentId}`;

type Row = ReturnType<typeof questionRows>[number];

/** The tenant's assessments. */
const assessmentsOf = (db: Db, tenantId: string) =>
  db
    .select({ id: tenantAssessments.id, name: tenantAssessments.name })
    .from(tenantAssessments)
    .where(eq(tenantAssessments.tenantId, tenantId))
    .orderBy(asc(tenantAssessments.createdAt));

/** The bank's questions and figures over the tests `keys`: `own` first, then any other with attempts. */
async function bank(db: Db, keys: string[], own: string[]) {
  const agg = await itemAggregates(db, keys);
  const ids = [...new Set([...own, ...agg.sums.keys()])];
  const facts = await questionFacts(db, ids);
  const [attempts] = rowsOf<{ n: unknown }>(
    await db.execute(
      sql`select count(*) as n from ${itemAttempts} where test_key = any(${param(keys)}::text[])`,
    ),
  );
  return { attempts: Number(attempts?.n ?? 0), questions: questionRows(ids, facts, agg) };
}

/** A tenant's bank: the questions they wrote or use in an assessment, over their assessments' attempts. */
async function tenantBank(db: Db, tenantId: string) {
  const mine = await assessmentsOf(db, tenantId);
  const own = rowsOf<{ id: string }>(
    await db.execute(sql`
      select q.id from ${questions} q where q.created_by = ${tenantId}::uuid and q.status = 'PUBLISH'
      union
      select aq.question_id from ${tenantAssessmentQuestions} aq
        join ${tenantAssessments} a on a.id = aq.assessment_id
      where a.tenant_id = ${tenantId}::uuid`),
  ).map((r) => r.id);
  return bank(
    db,
    mine.map((a) => assessmentKey(a.id)),
    own,
  );
}

/** Refuses (403) anyone but the platform's staff: PLATFORM_STAFF_EMAILS, e-mail verified. */
function requireStaff(config: Config, caller: Caller) {
  const staff =
    caller.user.emailVerified && config.credentials.platformStaff.includes(caller.user.email.toLowerCase());
  if (!staff) throw forbidden("Only the platform's staff may see the statistics of its own tests.");
}

/** An item-analysis question table as a CSV or NDJSON download. */
const statsFile = (reply: FastifyReply, what: string, format: 'csv' | 'ndjson', rows: Row[]) =>
  fileResponse(reply, {
    filename: downloadName(what, format === 'csv' ? 'csv' : 'json').replace(/\.json$/, '.ndjson'),
    contentType: format === 'csv' ? CSV_CONTENT_TYPE : 'application/x-ndjson; charset=utf-8',
    chunks: serialise(
      {
        columns: STATS_COLUMNS,
        rows: (async function* () {
          for (const row of rows) yield statsFileRow(row);
        })(),
      },
      format,
    ),
  });

export function analysisRoutes(
  app: FastifyInstance,
  deps: { db: Db; config: Config; questionCounts: QuestionCounts },
) {
  const { db, config, questionCounts } = deps;
  const fresh = () => catchUp(db, new Date());

  const assessmentQuestionIds = (assessmentId: string) => publishedQuestionIds(db, assessmentId);

  serve(app, analysisRouter, {
    async assessmentStats({ params, caller }) {
      const a = await ownedAssessment(db, params.assessmentId, caller);
      await fresh();
      const stats = await testStats(db, assessmentKey(a.id), await assessmentQuestionIds(a.id));
      return ok({ data: { assessment: { _id: a.id, name: a.name }, ...stats } });
    },

    async assessmentStatsExport({ params, query, caller, reply }) {
      const a = await ownedAssessment(db, params.assessmentId, caller);
      await fresh();
      const stats = await testStats(db, assessmentKey(a.id), await assessmentQuestionIds(a.id));
      return statsFile(reply, 'assessment-statistics', query.format, stats.questions);
    },

    async questionBankStats({ caller }) {
      await fresh();
      return ok({ data: await tenantBank(db, caller.id) });
    },

    async questionBankStatsExport({ query, caller, reply }) {
      await fresh();
      return statsFile(
        reply,
        'question-statistics',
        query.format,
        (await tenantBank(db, caller.id)).questions,
      );
    },

    async questionStats({ params, caller }) {
      const q = await readableQuestion(db, params.id, caller, questionCounts);
      await fresh();
      const mine = await assessmentsOf(db, caller.id);
      const keys = mine.map((a) => assessmentKey(a.id));
      const [facts, all, used] = await Promise.all([
        questionFacts(db, [q._id]),
        itemAggregates(db, keys, [q._id]),
        keys.length
          ? db
              .select({ key: itemSums.testKey })
              .from(itemSums)
              .where(
                and(eq(itemSums.questionId, q._id), sql`${itemSums.testKey} = any(${param(keys)}::text[])`),
              )
          : Promise.resolve([]),
      ]);
      const usedKeys = new Set(used.map((u) => u.key));
      const byAssessment = [];
      for (const a of mine) {
        if (!usedKeys.has(assessmentKey(a.id))) continue;
        const agg = await itemAggregates(db, [assessmentKey(a.id)], [q._id]);
        byAssessment.push({
          assessmentId: a.id,
          name: a.name,
          figures: figuresOf(facts.get(q._id), agg, q._id),
        });
      }
      return ok({
        data: { questionId: q._id, overall: figuresOf(facts.get(q._id), all, q._id), byAssessment },
      });
    },

    async platformTestStats({ params, caller }) {
      requireStaff(config, caller);
      await fresh();
      const [kind, id] = params.testKey.split(':') as [string, string];
      const stats = await testStats(db, `${kind.toUpperCase()}:${id.toLowerCase()}`, []);
      return ok({ data: { assessment: { _id: params.testKey, name: params.testKey }, ...stats } });
    },

    async platformQuestionStats({ caller }) {
      requireStaff(config, caller);
      await fresh();
      const own = await db.select({ id: questions.id }).from(questions).where(isNull(questions.createdBy));
      const keys = rowsOf<{ key: string }>(
        await db.execute(
          sql`select distinct test_key as key from ${itemSums} where test_key not like 'CUSTOM-TEST:%'`,
        ),
      ).map((r) => r.key);
      const all = await bank(
        db,
        keys,
        own.map((r) => r.id),
      );
      // the platform's bank: its own questions (figures over its tests)
      const ownSet = new Set(own.map((r) => r.id));
      return ok({ data: { ...all, questions: all.questions.filter((r) => ownSet.has(r.questionId)) } });
    },
  });
}
