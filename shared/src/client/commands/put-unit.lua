--[[
  Stores a unit's result with its calibration sums, a disagreement and, for a unit that is its
  whole (n, D), N(n, D), in one step: a unit delivered twice counts once, and a conflicting count
  is never lost.

  Input:
    KEYS[1] units               the unit results of (n, D), or of its second count (hash)
    KEYS[2] calibration         measured and estimated seconds per algorithm (hash)
    KEYS[3] disagreements       units counted twice with different values (hash)
    KEYS[4] counters            units begun and counted again (hash)
    KEYS[5] depths              N(n, D) of n, or of its second count (hash)

    ARGV[1]  unit               the unit's key (field of KEYS[1])
    ARGV[2]  result             the unit result JSON
    ARGV[3]  algorithm          the algorithm whose sums it adds to, or '' (it does not calibrate)
    ARGV[4]  modelSeconds       its estimated seconds
    ARGV[5]  actualSeconds      its measured seconds
    ARGV[6]  value              its count
    ARGV[7]  disagreementField  its field in KEYS[3]
    ARGV[8]  disagreement       the disagreement JSON kept when another value is stored
    ARGV[9]  untrusted          the stored record the caller found untrusted (unverified, or its
                                MAC fails), or ''
    ARGV[10] importNote         the note kept when an unverified import said another value
    ARGV[11] depth              D, or '' (no N(n, D) to write)
    ARGV[12] depthResult        the N(n, D) JSON
    ARGV[13] read               'read' once the caller has judged the stored record (ARGV[8..10]
                                are about it)

  Output:
    3 - a record is stored and the caller has not read it: nothing written (a new unit, the
        common case, takes one call)
    1 - stored
    2 - the same value was stored already
    0 - another value was: the new count is kept aside as a disagreement, the stored one is not
        touched, and no N(n, D) is written

  An untrusted record is no result: a count replaces it.
]]
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old and ARGV[13] ~= 'read' then return 3 end
if old and old == ARGV[9] then
  local ok, stored = pcall(cjson.decode, old)
  if ok and type(stored) == 'table' and stored['unverified'] == true and stored['value'] ~= ARGV[6] then
    redis.call('HSET', KEYS[3], ARGV[7], ARGV[10])
  end
  old = false
end
local outcome = 1
if old then
  local ok, stored = pcall(cjson.decode, old)
  if not (ok and type(stored) == 'table' and stored['value'] == ARGV[6]) then
    redis.call('HSET', KEYS[3], ARGV[7], ARGV[8])
    return 0
  end
  redis.call('HINCRBY', KEYS[4], 'duplicates', 1)
  outcome = 2
else
  redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
  if ARGV[3] ~= '' then
    redis.call('HINCRBY', KEYS[2], ARGV[3] .. ':units', 1)
    redis.call('HINCRBYFLOAT', KEYS[2], ARGV[3] .. ':model', ARGV[4])
    redis.call('HINCRBYFLOAT', KEYS[2], ARGV[3] .. ':actual', ARGV[5])
  end
end
if ARGV[11] ~= '' then redis.call('HSET', KEYS[5], ARGV[11], ARGV[12]) end
return outcome
