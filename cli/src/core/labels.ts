/** Words the CLI shows for things of the API, shared by its plain output and its terminal views. */

export const ROLE_LABELS: Record<string, string> = {
  USER: 'learner',
  TENANT: 'mentor or organisation',
};

export const describeUser = (user: { name?: string | null; email: string; role: string }) =>
  `${user.name ? `${user.name} <${user.email}>` : user.email} (${user.role})`;
