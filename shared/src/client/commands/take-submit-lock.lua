--[[
  Takes an n's submit lock, or keeps it when this owner holds it already: a submission cut by a
  Redis restart and made again under the same sweep id must not wait out its own lock.

  Input:
    KEYS[1] lock   the n's submit lock

    ARGV[1] owner  the submitter's token
    ARGV[2] ttl    the lock lapses after this (ms)

  Output: 'OK' when taken, false when another owner holds it
]]
local held = redis.call('GET', KEYS[1])
if held == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2]) end
if held then return false end
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
