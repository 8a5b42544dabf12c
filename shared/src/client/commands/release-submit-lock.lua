--[[
  Deletes an n's submit lock only if it still holds this submitter's token (it may have lapsed).

  Input:
    KEYS[1] lock   the n's submit lock

    ARGV[1] owner  the submitter's token

  Output: 1 when deleted, 0 when another owner (or none) held it
]]
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
