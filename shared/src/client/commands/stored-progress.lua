--[[
  The stored part of a sweep's progress in one read: what the result store holds of each n.

  Input:
    KEYS[1]   sums         S(n) by n (hash)
    KEYS[2]   mismatches   why S(n) was withdrawn, by n (hash)
    KEYS[3]   records      S(n)'s completion record by n (hash)
    KEYS[4..] per n in ARGV's order: its depths hash, then the units and the check-units hash of
              each D from 0 to n - 1

    ARGV[1]   unitSeconds  '1' to return the unit results of every unfinished D (for their seconds)
    ARGV[2..] the n

  Output: per n {S or '', mismatch JSON or '', depths HGETALL, [HLEN units, HLEN check units] per
  D, [HVALS units] per D, record JSON or ''}
]]
local out = {}
local k = 4
for i = 2, #ARGV do
  local n = tonumber(ARGV[i])
  local S = redis.call('HGET', KEYS[1], ARGV[i])
  local mismatch = redis.call('HGET', KEYS[2], ARGV[i])
  local record = redis.call('HGET', KEYS[3], ARGV[i])
  local depths = redis.call('HGETALL', KEYS[k])
  k = k + 1
  local stored = {}
  for j = 1, #depths, 2 do stored[depths[j]] = true end
  local counts = {}
  local units = {}
  for d = 0, n - 1 do
    counts[#counts + 1] = redis.call('HLEN', KEYS[k])
    counts[#counts + 1] = redis.call('HLEN', KEYS[k + 1])
    if ARGV[1] == '1' and not S and not stored[tostring(d)] then
      units[#units + 1] = redis.call('HVALS', KEYS[k])
    else
      units[#units + 1] = {}
    end
    k = k + 2
  end
  out[#out + 1] = {S or '', mismatch or '', depths, counts, units, record or ''}
end
return out
