/**
 * Navigation between the questions of the running test: the question shown (kept in this tab's memory,
 * so a reload opens it again), and the focus moved to its heading when the learner goes to another one.
 */
import { useEffect, useRef, useState } from 'react';
import { readMemory, writeMemory } from './memory';

/** The index of the question shown, `go` to another, and the heading that gets the focus. */
export function useQuestionNavigation(
  linkId: string,
  total: number,
  resumed: boolean,
  questionShown: { current: number },
) {
  const [index, setIndex] = useState(() =>
    Math.min(Math.max(0, readMemory(linkId).index ?? 0), Math.max(0, total - 1)),
  );
  const heading = useRef<HTMLHeadingElement>(null);
  // after Start the first question gets the focus (the Start button is gone)
  const focusQuestion = useRef(!resumed);

  useEffect(() => {
    questionShown.current = index + 1;
    writeMemory(linkId, { index });
    if (focusQuestion.current) {
      focusQuestion.current = false;
      heading.current?.focus();
    }
  }, [index, linkId, questionShown]);

  const go = (i: number) => {
    if (i < 0 || i >= total) return;
    focusQuestion.current = true;
    setIndex(i);
  };

  return { index, go, heading };
}
