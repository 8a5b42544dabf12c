// Which errors mean "Redis is not reachable right now" (a restart, a failover, a cut link) as
// opposed to a real answer: a follower rides those out and polls again once ioredis reconnects.
// The rule itself is a contract the worker and the dashboard share.
export { isConnectionError } from '@weak-queens/shared';
