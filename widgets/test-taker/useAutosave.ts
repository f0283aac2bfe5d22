/**
 * The answers of the running test and their autosave: each answer given is saved on the server at once
 * (typing after a pause, saver.ts), with the attempt token this browser holds (attempt.ts); what the server
 * has not confirmed yet is kept in this tab's memory (memory.ts), so a reload sends it again.
 */
import type { ApiError } from '@shared/client/client';
import * as takerCalls from '@shared/contract/assessments';
import { attemptHeaders } from '@shared/rules/attempt-token';
import { isTextAnswer } from '@shared/rules/question-types';
import { useEffect, useRef, useState } from 'react';
import { useWidgetHost } from '../embed/host';
import { type AnswerSheet, answer, sheetFrom, toPayload } from './answers';
import { attemptTokenOf } from './attempt';
import { readMemory, writeMemory } from './memory';
import { AnswerSaver, type SaveStatus, TYPING_DEBOUNCE_MS } from './saver';
import type { TakerTest } from './screen';

/** The saver of the test's answers while it runs, and its status; `onFatal` when it can take no more. */
export function useAutosave(linkId: string, onFatal: (err: ApiError) => void) {
  const host = useWidgetHost();
  const [status, setStatus] = useState<SaveStatus>({ state: 'idle', unsaved: 0, retryAt: null });
  const saver = useRef<AnswerSaver | null>(null);
  const fatal = useRef(onFatal);
  fatal.current = onFatal;

  useEffect(() => {
    const s = new AnswerSaver({
      send: (a) =>
        host.client.call(takerCalls.saveAnswer, {
          params: { id: linkId },
          body: a,
          headers: attemptHeaders(attemptTokenOf(linkId)),
        }),
      onStatus: (st) => {
        setStatus(st);
        writeMemory(linkId, { unsaved: s.unsaved() });
      },
      onFatal: (err) => fatal.current(err),
    });
    saver.current = s;
    for (const a of readMemory(linkId).unsaved ?? []) s.put(a);
    const online = () => s.retryNow();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      s.stop();
    };
  }, [host.client, linkId]);

  return { saver, status };
}

type TakerQuestion = TakerTest['questions']['questions'][number];

/** The answer sheet: the server's answers with this tab's unconfirmed ones over them; `give` saves one. */
export function useAnswerSheet(
  linkId: string,
  test: TakerTest,
  saver: { readonly current: AnswerSaver | null },
) {
  const [sheet, setSheet] = useState<AnswerSheet>(() => {
    const restored = { ...sheetFrom(test.answers) };
    // answers given in this tab that the server had not confirmed: they win, and are sent again
    Object.assign(restored, sheetFrom(readMemory(linkId).unsaved ?? []));
    return restored;
  });
  const sheetRef = useRef(sheet);

  const give = (q: TakerQuestion, value: string) => {
    const next = answer(sheetRef.current, q, value);
    sheetRef.current = next;
    setSheet(next);
    const payload = toPayload(q, next[q._id]);
    if (!payload || !saver.current) return;
    saver.current.put(payload, isTextAnswer(q.questionType) ? TYPING_DEBOUNCE_MS : 0);
    writeMemory(linkId, { unsaved: saver.current.unsaved() });
  };

  return { sheet, sheetRef, give };
}
