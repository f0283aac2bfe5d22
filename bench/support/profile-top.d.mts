/** Types of profile-top.mjs for the benches written in TypeScript. */
import type { CpuProfile } from './inspector';

export interface ProfileShare {
  name: string;
  share: string;
}

/** The functions (and, up to 15, the packages) where `profile` spent its self time, largest first. */
export function topOfProfile(
  profile: CpuProfile,
  n?: number,
): { sampledMs: number; functions: ProfileShare[]; packages: ProfileShare[] };
