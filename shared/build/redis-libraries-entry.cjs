// The entry of dist/vendor/redis-libraries.cjs (see bundle-redis-libraries.mjs): the BullMQ
// classes and enums the project uses, from their own modules. BullMQ's index also loads its
// PostgreSQL backend (a sixth of the bundle), which nothing here uses; its job schedulers'
// cron parser is left out by the build (a third of the rest, with luxon).
// The names are those of the `BullMQ` type in src/client/redis-libraries.ts.
const PARTS = [
  'Queue',
  'Worker',
  'FlowProducer',
  'QueueEvents',
  'UnrecoverableError',
  'DelayedError',
  'WaitingError',
  'MetricsTime',
];
const exported = {
  ...require('bullmq/dist/cjs/classes/index.js'),
  ...require('bullmq/dist/cjs/enums/index.js'),
};

module.exports = {
  bullmq: Object.fromEntries(PARTS.map((name) => [name, exported[name]])),
  ioredis: require('ioredis'),
};
