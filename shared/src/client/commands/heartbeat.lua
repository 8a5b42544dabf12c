--[[
  Lists a worker as live, scored by the Redis server's clock. TIME before a write needs effects
  replication, the default from Redis 5 (and asked for on older servers).

  Input:
    KEYS[1] workers       live workers by heartbeat time (sorted set)
    KEYS[2] workerInfo    each worker's info (hash)
    KEYS[3] workerClocks  each worker's clock skew (hash)

    ARGV[1] id            the worker's id
    ARGV[2] info          its info JSON
    ARGV[3] skew          its clock minus the server's (ms)

  Output: the server's time of the heartbeat (ms)
]]
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], string.format('%.0f', now), ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[3])
return now
