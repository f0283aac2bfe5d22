/**
 * The `waymark` program: global options, one module per subcommand, and help that states the exit codes.
 * Building the program does no I/O; the handler's context is built when a command runs.
 */
import { readFileSync } from 'node:fs';
import { Command } from 'commander';
import type { CommandModule } from './commands/command';
import { COMMANDS } from './commands/index';
import {
  type Context,
  type ContextDeps,
  createContext,
  DEFAULT_SERVER,
  type GlobalOptions,
} from './core/context';

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return pkg.version;
}

export const EXIT_CODES_HELP = `
Exit codes:
  0    ok
  1    unexpected error
  2    usage error (unknown command or option, missing value)
  3    not signed in, or the session has expired
  4    permission denied (403)
  5    not found (404)
  6    server unreachable
  7    bad input (400; a file with invalid rows: nothing was written)
  8    partly done: some items of a bulk command failed (each is reported)
  9-12 awards verify: revoked (9), tampered (10), unknown issuer (11), expired or not valid yet (12)
  130  cancelled (Ctrl+C)`;

export const ENVIRONMENT_HELP = `
Environment:
  WAYMARK_SERVER   the server when --server is not given
  WAYMARK_TOKEN    an access token to use instead of the stored session (for scripts; never refreshed)
  XDG_CONFIG_HOME  where the session is kept (default ~/.config): <dir>/waymark/session.json`;

export interface ProgramDeps extends Omit<ContextDeps, 'controller'> {
  controller: AbortController;
  /** Told of the context a command runs with (main uses it to word errors). */
  onContext?: (ctx: Context) => void;
}

export function createProgram(deps: ProgramDeps): Command {
  const program = new Command('waymark')
    .description('Waymark from a terminal: sign in, and script what the portal does.')
    .version(version(), '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help for a command')
    .option(
      '--server <url>',
      `the Waymark server (default: $WAYMARK_SERVER, the signed-in server, or ${DEFAULT_SERVER})`,
    )
    .option('--json', 'print JSON (one value per line); automatic when output is not a terminal')
    .option('--no-json', 'print plain text even when output is not a terminal')
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => deps.io.stdout.write(text),
      writeErr: (text) => deps.io.stderr.write(text),
      outputError: (text, write) => write(withDashIdAdvice(text)),
    })
    .addHelpText('afterAll', `${ENVIRONMENT_HELP}\n${EXIT_CODES_HELP}`);
  program.helpCommand('help [command]', 'show help for a command');

  const mount = (parent: Command, module: CommandModule<object>) => {
    const command = module.define(parent);
    command.action(async (...args: unknown[]) => {
      const cmd = args[args.length - 1] as Command;
      const globals = cmd.optsWithGlobals() as GlobalOptions;
      const ctx = createContext({ server: globals.server, json: globals.json }, deps);
      deps.onContext?.(ctx);
      await module.handler(ctx, { ...cmd.opts(), ...positionalArguments(cmd) });
    });
  };
  for (const module of COMMANDS) {
    if ('commands' in module) {
      const group = module.define(program);
      for (const sub of module.commands) mount(group, sub);
    } else mount(program, module);
  }
  return program;
}

/**
 * An award or link id that starts with '-' (one in 64 of those made before ids stopped doing so) reads as an
 * option: commander's "unknown option" for what looks like an id says how to pass it.
 */
export function withDashIdAdvice(text: string): string {
  const id = /^error: unknown option '(-[A-Za-z0-9_-]{9,})'/.exec(text)?.[1];
  if (!id) return text;
  return `${text}(an id that starts with "-" goes last, after --: waymark … -- ${id})\n`;
}

/** The command's positional arguments by name, in camelCase: `<email...>` → `{ email: [...] }`. */
function positionalArguments(cmd: Command): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  cmd.registeredArguments.forEach((argument, i) => {
    const name = argument.name().replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
    out[name] = cmd.processedArgs[i];
  });
  return out;
}
