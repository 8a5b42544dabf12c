--[[
  Stores a classic unit's subtotals unless they are there. An untrusted record is no result: a
  count replaces it.

  Input:
    KEYS[1] units              the classic unit results of n, or of its second count (hash)
    KEYS[2] disagreements      the classic disagreements (hash)

    ARGV[1] unit               the unit's key (field of KEYS[1])
    ARGV[2] result             the unit result JSON
    ARGV[3] boards             its board count
    ARGV[4] classes            its class count
    ARGV[5] disagreementField  its field in KEYS[2]
    ARGV[6] untrusted          the stored record the caller found untrusted (unverified, or its
                               MAC fails), or ''

  Output:
    1 - stored
    2 - the same subtotals were there already (a re-run after a kill)
    0 - other subtotals were: the new ones are kept aside as a disagreement
]]
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old and old == ARGV[6] then old = false end
if not old then
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  return 1
end
local stored = cjson.decode(old)
if stored.boards == ARGV[3] and stored.classes == ARGV[4] then return 2 end
redis.call('HSET', KEYS[2], ARGV[5], ARGV[2])
return 0
