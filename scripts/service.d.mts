/** Types of service.mjs for the TypeScript that imports it (tests, benches): the one free-port helper. */

/** A port nobody listens on right now. */
export function freePort(host?: string): Promise<number>;
/** Distinct free ports. */
export function freePorts(count: number, host?: string): Promise<number[]>;
/** Whether a port is free to listen on. */
export function portFree(port: number, host?: string): Promise<boolean>;
/** The value given after `--name` on the command line, if any. */
export function option(argv: readonly string[], name: string): string | undefined;
/** Keeps a started service until Ctrl-C, SIGTERM or SIGHUP, then stops it and exits. */
export function stopOnSignal(stop: () => Promise<void>): void;
/** Runs `main` when the module at `moduleUrl` is the script node was started with (not when imported). */
export function runAsCommand(moduleUrl: string, main: () => Promise<void>): void;
