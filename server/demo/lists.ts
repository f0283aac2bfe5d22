/**
 * The demo's lists: the subjects with their topics and the languages a question may be in, seeded by
 * server/db/seed.ts (beside the roadmaps and questions of subjects/).
 */
export const DEMO_SUBJECTS: Record<string, string[]> = {
  Programming: ['JavaScript', 'TypeScript', 'Python', 'Web Development', 'Git'],
  'Data Science': ['Statistics', 'SQL', 'Machine Learning', 'Data Visualisation'],
  Mathematics: ['Algebra', 'Calculus', 'Probability'],
  'Cloud and DevOps': ['Linux', 'Docker', 'Networking'],
  Design: ['UI Design', 'UX Research'],
};
export const DEMO_LANGUAGES = ['English', 'Hindi', 'Tamil', 'Telugu', 'Kannada', 'Spanish'];
