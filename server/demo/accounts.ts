/** The demo learner and demo mentor, made on the Auth emulator by server/db/seed.ts. */
export const DEMO_ACCOUNTS = {
  learner: {
    email: 'learner@waymark.local',
    password: 'Learner#2026',
    name: 'Asha Learner',
    role: 'USER' as const,
  },
  mentor: {
    email: 'mentor@waymark.local',
    password: 'Mentor#2026',
    name: 'Ravi Mentor',
    role: 'TENANT' as const,
  },
};
