import type { Command } from 'commander';
import type { Context } from '../core/context';

/**
 * One subcommand: its definition (name, description, options, help) and its handler. The program mounts
 * each module; the handler gets the command's own options and the context built from the global ones.
 */
export interface CommandModule<Options> {
  define(program: Command): Command;
  handler(ctx: Context, options: Options): Promise<void>;
}
