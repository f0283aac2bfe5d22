/**
 * The demo content by subject: a folder per subject, a file per roadmap holding the roadmap and the
 * questions aimed at it. (The subjects' topics and the languages are listed in ../lists.ts.)
 */
import type { DemoQuestion, DemoRoadmap } from '../types';
import * as sqlEssentials from './data-science/sql-essentials';
import * as gitAndGithub from './programming/git-and-github';
import * as javascriptFoundations from './programming/javascript-foundations';
import * as modernJavascript from './programming/modern-javascript-and-the-dom';
import * as pythonParaPrincipiantes from './programming/python-para-principiantes';
import * as typescript from './programming/typescript-for-javascript-developers';

interface RoadmapContent {
  roadmap: DemoRoadmap;
  questions: DemoQuestion[];
}

/** Each subject's demo roadmaps, with their questions; every roadmap's `subject` names the one it is under. */
export const DEMO_SUBJECT_CONTENT: Record<string, RoadmapContent[]> = {
  Programming: [javascriptFoundations, modernJavascript, typescript, pythonParaPrincipiantes, gitAndGithub],
  'Data Science': [sqlEssentials],
};

/**
 * The order the seed inserts them in. It is part of the content: a question's place in DEMO_QUESTIONS
 * decides where its correct options stand among the wrong ones (catalogue.ts, demoOptions), so a new
 * roadmap goes at the end.
 */
const SEED_ORDER: RoadmapContent[] = [
  javascriptFoundations,
  modernJavascript,
  typescript,
  pythonParaPrincipiantes,
  sqlEssentials,
  gitAndGithub,
];

export const DEMO_ROADMAPS: DemoRoadmap[] = SEED_ORDER.map((c) => c.roadmap);
export const DEMO_QUESTIONS: DemoQuestion[] = SEED_ORDER.flatMap((c) => c.questions);
