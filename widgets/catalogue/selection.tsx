/**
 * Selecting a roadmap (mentor §2.9, §4, §8): Select fetches the roadmap's prerequisites; with
 * prerequisites the visitor is offered the prerequisite assessment (generated, then opened), without
 * them the assignment (created, then previewed). Works before sign-in. Used by the catalogue cards and
 * the course page.
 */
import { ApiError } from '@shared/client/client';
import * as Catalogue from '@shared/contract/catalogue';
import type { PrerequisiteSelection } from '@shared/schemas/catalogue';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import { ASSESSED_ROADMAP_KEY, pending, TENANT_PORTAL_KEY } from '../core/pending';
import { failure } from '../embed/failure';
import { type SignedInRole, useWidgetHost } from '../embed/host';
import { Dialog } from '../ui/Dialog';
import { Loader } from '../ui/Loader';

export const selectionText = {
  listFailed: "Couldn't fetch the Roadmap please try later.",
  detailFailed: "Couldn't load the roadmap, please try later",
  generateFailed: "Couldn't generate questions.",
  assignFailed: "Couldn't assign the roadmap now",
  courseFailed: 'Please, try again later. Thanks',
  generating: 'Generating questions',
  assigning: 'Assigning the roadmap for you.',
  takeAssessment: 'Yes, I like to take assessment',
  assign: 'Yes, I want to assign',
  notNow: 'Not now',
  mandatory: 'Taking an assessment on these prerequisites is mandatory before you start this roadmap.',
} as const;

export const assignQuestion = (roadmap: string, subject: string) =>
  `Would you like to assign ${roadmap} roadmap in ${subject} subject?`;

/**
 * Where a roadmap just assigned by selection or by the prerequisite assessment opens (mentor §4, §6): its
 * preview with the confetti, its sections and the prerequisite's result (/access-assigned-roadmap/{id}),
 * unless the stored tenant-portal flag is set — then a signed-in learner goes straight to their copy.
 */
export function assignedRoadmapPath(role: SignedInRole, assignedRoadmapId: string): string {
  return role === 'USER' && pending.get(TENANT_PORTAL_KEY)
    ? `/my-roadmap/${assignedRoadmapId}`
    : `/access-assigned-roadmap/${assignedRoadmapId}`;
}

/** Before sign-in the assigned roadmap is remembered, so that signing in claims it. */
export function rememberAssigned(role: SignedInRole, assignedRoadmapId: string) {
  if (!role) pending.set(ASSESSED_ROADMAP_KEY, assignedRoadmapId);
}

type Selection = z.infer<typeof PrerequisiteSelection>;

type Step =
  | { kind: 'closed' }
  | { kind: 'loading'; roadmapName: string }
  | { kind: 'failed'; roadmapName: string; message: string }
  | { kind: 'prerequisites'; selection: Selection }
  | { kind: 'generating'; selection: Selection }
  | { kind: 'assign'; selection: Selection; error?: string }
  | { kind: 'assigning'; selection: Selection };

export interface RoadmapSelection {
  /** Starts the selection of a roadmap (after the host allowed wm-select). */
  select(roadmapId: string, roadmapName: string): void;
  /** The dialog to render once. */
  dialog: React.ReactNode;
}

export function useRoadmapSelection(): RoadmapSelection {
  const host = useWidgetHost();
  const [step, setStep] = useState<Step>({ kind: 'closed' });
  const request = useRef(0);
  const close = () => {
    request.current++;
    setStep({ kind: 'closed' });
  };
  const fail = (message: string, err: unknown) => {
    host.emit('wm-error', failure(message, err));
  };

  function select(roadmapId: string, roadmapName: string) {
    if (!host.emit('wm-select', { roadmapId, roadmapName })) return;
    const mine = ++request.current;
    setStep({ kind: 'loading', roadmapName });
    host.client
      .call(Catalogue.prerequisiteSelectedRoadmap, { params: { id: roadmapId } })
      .then((res) => {
        if (mine !== request.current) return;
        const selection = res.data;
        setStep(
          selection.prerequisites.length > 0
            ? { kind: 'prerequisites', selection }
            : { kind: 'assign', selection },
        );
      })
      .catch((err: unknown) => {
        if (mine !== request.current) return;
        setStep({ kind: 'failed', roadmapName, message: selectionText.detailFailed });
        fail(selectionText.detailFailed, err);
      });
  }

  async function takeAssessment(selection: Selection) {
    const mine = ++request.current;
    setStep({ kind: 'generating', selection });
    const roadmapId = selection.selectedRoadmap.roadmapId;
    try {
      const res = await host.client.call(Catalogue.generateInitialAssessment, {
        params: { id: roadmapId },
      });
      if (mine !== request.current) return;
      const path = `/initial-assessment/${encodeURIComponent(res.data.linkId)}`;
      setStep({ kind: 'closed' });
      if (host.emit('wm-assessment', { roadmapId, linkId: res.data.linkId, href: host.siteBase + path })) {
        host.navigate(path);
      }
    } catch (err) {
      if (mine !== request.current) return;
      setStep({
        kind: 'failed',
        roadmapName: selection.selectedRoadmap.roadmapName,
        message: selectionText.generateFailed,
      });
      fail(selectionText.generateFailed, err);
    }
  }

  async function assign(selection: Selection) {
    const mine = ++request.current;
    setStep({ kind: 'assigning', selection });
    const roadmapId = selection.selectedRoadmap.roadmapId;
    try {
      const res = await host.client.call(Catalogue.createRoadmap, { params: { id: roadmapId } });
      if (mine !== request.current) return;
      const role = host.role();
      const assignedRoadmapId = res.data._id;
      rememberAssigned(role, assignedRoadmapId);
      const path = assignedRoadmapPath(role, assignedRoadmapId);
      setStep({ kind: 'closed' });
      if (host.emit('wm-assigned', { roadmapId, assignedRoadmapId, href: host.siteBase + path })) {
        host.navigate(path);
      }
    } catch (err) {
      if (mine !== request.current) return;
      // a refusal the learner can act on ('Can only learn two roadmaps at a time.') as the server says it;
      // anything else as the specification's 'Couldn't assign the roadmap now'
      const refused = err instanceof ApiError && err.status < 500 && err.status !== 404 && err.status !== 401;
      const error = refused ? err.message : selectionText.assignFailed;
      setStep({ kind: 'assign', selection, error });
      fail(error, err);
    }
  }

  return {
    select,
    dialog: <SelectionDialog step={step} onClose={close} onAssess={takeAssessment} onAssign={assign} />,
  };
}

function SelectionDialog({
  step,
  onClose,
  onAssess,
  onAssign,
}: {
  step: Step;
  onClose: () => void;
  onAssess: (s: Selection) => void;
  onAssign: (s: Selection) => void;
}) {
  const body = useRef<HTMLDivElement>(null);
  // the content changes with each step: put focus on its first action (or its status) each time
  useEffect(() => {
    if (step.kind === 'closed') return;
    const root = body.current?.closest('dialog') ?? body.current;
    const target = root?.querySelector<HTMLElement>('[data-autofocus]');
    target?.focus();
  }, [step]);
  if (step.kind === 'closed') return <Dialog open={false} title="" onClose={onClose} />;
  const busy = step.kind === 'loading' || step.kind === 'generating' || step.kind === 'assigning';
  const title =
    step.kind === 'loading' || step.kind === 'failed'
      ? step.roadmapName
      : step.selection.selectedRoadmap.roadmapName;
  let content: React.ReactNode;
  let actions: React.ReactNode = null;
  /** 'Not now' beside the step's action, which takes the focus. */
  const notNowOr = (label: string, act: () => void) => (
    <>
      <button type="button" className="btn btn-secondary" onClick={onClose}>
        {selectionText.notNow}
      </button>
      <button type="button" className="btn" onClick={act} data-autofocus>
        {label}
      </button>
    </>
  );
  switch (step.kind) {
    case 'loading':
      content = (
        <div tabIndex={-1} data-autofocus>
          <Loader text="Loading…" />
        </div>
      );
      break;
    case 'generating':
      content = (
        <div tabIndex={-1} data-autofocus>
          <Loader text={selectionText.generating} />
        </div>
      );
      break;
    case 'assigning':
      content = (
        <div tabIndex={-1} data-autofocus>
          <Loader text={selectionText.assigning} />
        </div>
      );
      break;
    case 'failed':
      content = (
        <p className="alert alert-error" role="alert">
          {step.message}
        </p>
      );
      actions = (
        <button type="button" className="btn btn-secondary" onClick={onClose} data-autofocus>
          Close
        </button>
      );
      break;
    case 'prerequisites':
      content = (
        <>
          <p>This roadmap builds on:</p>
          <ul className="wm-prerequisites" aria-label="Prerequisites">
            {step.selection.prerequisites.map((p) => (
              <li key={p.roadmapId}>{p.roadmapName}</li>
            ))}
          </ul>
          <p>
            <strong>{selectionText.mandatory}</strong>
          </p>
        </>
      );
      actions = notNowOr(selectionText.takeAssessment, () => onAssess(step.selection));
      break;
    case 'assign':
      content = (
        <>
          {step.error ? (
            <p className="alert alert-error" role="alert">
              {step.error}
            </p>
          ) : null}
          <p>
            {assignQuestion(
              step.selection.selectedRoadmap.roadmapName,
              step.selection.selectedRoadmap.subject.name,
            )}
          </p>
        </>
      );
      actions = notNowOr(selectionText.assign, () => onAssign(step.selection));
      break;
  }
  return (
    <Dialog open title={title} onClose={onClose} modalOnly={busy} actions={actions}>
      <div ref={body} className="wm-selection" data-step={step.kind}>
        {content}
      </div>
    </Dialog>
  );
}
