export const PINNED_NODE: string;
export function assertPinnedNode(how: string): void;
