import type { Command } from 'commander';
import type { Context } from '../core/context';

/**
 * One subcommand: its definition (name, arguments, options, help) and its handler. The program mounts
 * each module; the handler gets the command's own options, with each positional argument under its name
 * in camelCase (`<email...>` → `email`), and the context built from the global options.
 */
export interface CommandModule<Options> {
  define(parent: Command): Command;
  handler(ctx: Context, options: Options): Promise<void>;
}

/** A command made of subcommands (`waymark questions import`), each its own module. */
export interface CommandGroup {
  define(parent: Command): Command;
  // biome-ignore lint/suspicious/noExplicitAny: each subcommand has its own options type
  commands: readonly CommandModule<any>[];
}
