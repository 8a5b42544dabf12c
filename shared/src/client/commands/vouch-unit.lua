--[[
  Rewrites a unit record only while it is still the unverified import of the same value.

  Input:
    KEYS[1] units    the unit results of (n, D), or of its second count (hash)

    ARGV[1] unit     the unit's key (field of KEYS[1])
    ARGV[2] result   the vouched unit result JSON
    ARGV[3] value    the count the import said

  Output:
    1 - rewritten
    0 - left as it is (gone, not an unverified import, or another value)
]]
local stored = redis.call('HGET', KEYS[1], ARGV[1])
if not stored then return 0 end
local ok, record = pcall(cjson.decode, stored)
if not ok or type(record) ~= 'table' or record['unverified'] ~= true or record['value'] ~= ARGV[3] then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
