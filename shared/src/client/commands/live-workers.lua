--[[
  The live workers' info, stale entries pruned on the way: the server's clock, the cut and the
  read agree.

  Input:
    KEYS[1] workers     live workers by heartbeat time (sorted set)
    KEYS[2] workerInfo  each worker's info (hash)

    ARGV[1] ttl         a heartbeat older than this (ms) is stale

  Output: the info JSON of each live worker, false for none
]]
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local cutoff = string.format('(%.0f', now - tonumber(ARGV[1]))
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', cutoff)
for _, id in ipairs(stale) do
  redis.call('ZREM', KEYS[1], id)
  redis.call('HDEL', KEYS[2], id)
end
local ids = redis.call('ZRANGE', KEYS[1], 0, -1)
local infos = {}
for i, id in ipairs(ids) do infos[i] = redis.call('HGET', KEYS[2], id) end
return infos
