// The result store's Lua: a unit's result, its calibration sums, a disagreement and, for a unit
// that is its whole (n, D), N(n, D) written in one step, so a unit delivered twice counts once
// and a conflicting count is never lost.

/**
 * KEYS: units hash, calibration hash, disagreements hash, counters hash, N(n, D) hash.
 * ARGV: 1 unit key, 2 result JSON, 3 algorithm or '', 4 model s, 5 actual s, 6 value,
 * 7 disagreement field, 8 disagreement JSON, 9 the stored record the caller found untrusted
 * (unverified, or its MAC fails) or '', 10 the note kept when an unverified import said another
 * value, 11 D or '' (no N(n, D) to write), 12 the N(n, D) record, 13 'read' once the caller has
 * judged the stored record (8–10 are about it).
 * Returns PUT_UNIT_SEEN, writing nothing, when a record is stored and the caller has not read it
 * (a new unit, the common case, takes one call); otherwise 1 when stored, 2 when the same value
 * was already there, 0 when another value was (then the new count is kept aside as a
 * disagreement, the stored one is not touched, and no N(n, D) is written).
 * An untrusted record is no result: a count replaces it.
 */
export const PUT_UNIT = `
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
return outcome`;

/** PUT_UNIT's reply when a record is stored that the caller must read first. */
export const PUT_UNIT_SEEN = 3;
