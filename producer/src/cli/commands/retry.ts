// `wq retry <sweep>`: re-run what a sweep is missing (failed or cancelled n), skipping stored work.
import { defineSweepCommand } from './sweep-command.js';

export const retryCommand = defineSweepCommand('retry', undefined, async (client, id) => {
  const { added } = await client.retry(id);
  process.stdout.write(`sweep ${id}: ${added} jobs added again\n`);
  return 0;
});
