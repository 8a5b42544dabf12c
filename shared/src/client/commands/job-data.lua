--[[
  The data of many BullMQ jobs in one read.

  Input:
    KEYS[1..] per unfinished (n, D), its depth job's key then its count job's key

  Output: each job's data, '' for a job that is gone
]]
local out = {}
for i = 1, #KEYS do out[i] = redis.call('HGET', KEYS[i], 'data') or '' end
return out
