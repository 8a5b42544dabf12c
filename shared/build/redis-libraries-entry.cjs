// The entry of dist/vendor/redis-libraries.cjs (see bundle-redis-libraries.mjs).
module.exports = { bullmq: require('bullmq'), ioredis: require('ioredis') };
