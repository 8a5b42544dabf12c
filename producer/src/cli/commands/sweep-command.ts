// The commands that act on one sweep by its id (`wq cancel|replan|retry <sweep>`): the same
// command line, and a pipeline client opened only when the command runs (`--help` loads none).
import type { PipelineClient } from '@weak-queens/shared/client';
import { InvalidInputError, type PositionalDefinition } from '@weak-queens/shared/process';
import { type CommandModule, defineCommand } from '../command.js';

const SWEEP_ID: PositionalDefinition = {
  name: 'sweep',
  allowed: 'one sweep id (see wq status)',
};

/**
 * `wq <verb> <sweep>`: `act` gets a connected client and the sweep id and resolves to the exit
 * code. `description` is the text of `wq <verb> --help` beyond the summary, if any.
 */
export function defineSweepCommand(
  verb: string,
  description: string | undefined,
  act: (client: PipelineClient, id: string) => Promise<number>,
): CommandModule {
  return defineCommand(
    { description, positionals: [SWEEP_ID], options: {} },
    async ({ positionals }) => {
      const id = positionals[0] ?? '';
      if (!id) throw new InvalidInputError('sweep', id, SWEEP_ID.allowed);
      const { withPipelineClient } = await import('../pipeline-connection.js');
      return withPipelineClient(verb, (client) => act(client, id));
    },
  );
}
