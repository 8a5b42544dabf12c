// The entry of dist/vendor/redis-libraries.cjs (see bundle-redis-libraries.mjs): the BullMQ
// classes and enums the project uses, from their own modules. BullMQ's index also loads its
// PostgreSQL backend (a sixth of the bundle), which nothing here uses; its job schedulers'
// cron parser is left out by the build (a third of the rest, with luxon).
const classes = require('bullmq/dist/cjs/classes/index.js');
const enums = require('bullmq/dist/cjs/enums/index.js');

const bullmq = {
  Queue: classes.Queue,
  Worker: classes.Worker,
  FlowProducer: classes.FlowProducer,
  QueueEvents: classes.QueueEvents,
  UnrecoverableError: classes.UnrecoverableError,
  DelayedError: classes.DelayedError,
  WaitingError: classes.WaitingError,
  MetricsTime: enums.MetricsTime,
};

module.exports = { bullmq, ioredis: require('ioredis') };
