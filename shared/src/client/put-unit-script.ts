// The result store's Lua: a unit's result, its calibration sums and a disagreement written in
// one step, so a unit delivered twice counts once and a conflicting count is never lost.

/**
 * KEYS: units hash, calibration hash, disagreements hash. ARGV: unit key, result JSON,
 * algorithm or '', model s, actual s, value, disagreement field, disagreement JSON, the
 * stored record the caller found untrusted (unverified, or its MAC fails) or '', and the note
 * kept when an unverified import said another value.
 * Returns 1 when stored, 2 when the same value was already there, 0 when another value was
 * (then the new count is kept aside as a disagreement and the stored one is not touched).
 * An untrusted record is no result: a count replaces it.
 */
export const PUT_UNIT = `
local old = redis.call('HGET', KEYS[1], ARGV[1])
if old and old == ARGV[9] then
  local ok, stored = pcall(cjson.decode, old)
  if ok and type(stored) == 'table' and stored['unverified'] == true and stored['value'] ~= ARGV[6] then
    redis.call('HSET', KEYS[3], ARGV[7], ARGV[10])
  end
  old = false
end
if old then
  local ok, stored = pcall(cjson.decode, old)
  if ok and type(stored) == 'table' and stored['value'] == ARGV[6] then
    redis.call('HINCRBY', KEYS[4], 'duplicates', 1)
    return 2
  end
  redis.call('HSET', KEYS[3], ARGV[7], ARGV[8])
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if ARGV[3] ~= '' then
  redis.call('HINCRBY', KEYS[2], ARGV[3] .. ':units', 1)
  redis.call('HINCRBYFLOAT', KEYS[2], ARGV[3] .. ':model', ARGV[4])
  redis.call('HINCRBYFLOAT', KEYS[2], ARGV[3] .. ':actual', ARGV[5])
end
return 1`;
