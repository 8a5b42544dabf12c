--[[
  Sum jobs (by id), running units and failures of both queues in one read (BullMQ's own getState
  reads one job per call).

  Input:
    KEYS[1] aggregateCompleted  the aggregate queue's completed set
    KEYS[2] aggregateFailed     the aggregate queue's failed set
    KEYS[3] countActive         the count queue's active list
    KEYS[4] countFailed         the count queue's failed set
    KEYS[5] workerClocks        each worker's clock skew (hash)

    ARGV[1]   maxActive          at most this many running units
    ARGV[2]   maxFailed          at most this many failures per queue
    ARGV[3]   aggregatePrefix    the aggregate queue's job key prefix
    ARGV[4]   countPrefix        the count queue's job key prefix
    ARGV[5..] the sum job ids

  Output: {states, active, failed, now, clocks}: per sum job 'completed' | 'failed' | 'pending' |
  'unknown' with its failedReason; per active count job its id, processedOn, progress and
  processedBy; per failed job (both queues, newest first) its id and failedReason; the server's
  time (microseconds); each worker's clock skew (flat).
]]
local aggregate, count = ARGV[3], ARGV[4]
local states = {}
for i = 5, #ARGV do
  local id = ARGV[i]
  local state = 'unknown'
  if redis.call('ZSCORE', KEYS[1], id) then state = 'completed'
  elseif redis.call('ZSCORE', KEYS[2], id) then state = 'failed'
  elseif redis.call('EXISTS', aggregate .. id) == 1 then state = 'pending' end
  states[#states + 1] = {state, redis.call('HGET', aggregate .. id, 'failedReason') or ''}
end
local active = {}
for _, id in ipairs(redis.call('LRANGE', KEYS[3], 0, tonumber(ARGV[1]) - 1)) do
  local f = redis.call('HMGET', count .. id, 'processedOn', 'progress', 'processedBy')
  active[#active + 1] = {id, f[1] or '', f[2] or '', f[3] or ''}
end
local failed = {}
for q, key in ipairs({KEYS[4], KEYS[2]}) do
  local prefix = q == 1 and count or aggregate
  for _, id in ipairs(redis.call('ZREVRANGE', key, 0, tonumber(ARGV[2]) - 1)) do
    failed[#failed + 1] = {id, redis.call('HGET', prefix .. id, 'failedReason') or ''}
  end
end
local t = redis.call('TIME')
local now = t[1] .. string.format('%06d', tonumber(t[2]))
return {states, active, failed, now, redis.call('HGETALL', KEYS[5])}
