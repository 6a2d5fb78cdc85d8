-- The scene of main.c, run from Lua: the same world (rules.lua's setup), the same
-- 10,000 entities with the same velocities and inputs, the same ticks, the same
-- digest. spec/c_host_spec.lua compares its line with the C host's.
-- Usage: lua5.4 scene.lua [path/to/rules.lua [ticks]]   (blockphys on the paths)
local bp = require "blockphys"

local SIDE = 100

-- ticks: M.ticks unless given (the spec runs fewer)
local function run(rules_path, ticks)
  local M = dofile(rules_path or "rules.lua")
  ticks = ticks or M.ticks
  local w = bp.World()
  M.setup(w)
  for i = 0, SIDE * SIDE - 1 do
    local e = w:spawn{ x = i % SIDE - SIDE / 2 + 0.5, z = math.floor(i / SIDE) - SIDE / 2 + 0.5,
                       y = 1 + (i % 5) * 0.5, rules = M.rules,
                       vx = (i % 11 - 5) * 0.01, vz = (i % 13 - 6) * 0.01 }
    e:set_input(i % 3 == 0 and 1 or 0, 0, (i * 37) % 360, i % 7 == 0)
  end
  for _ = 1, ticks do w:step(0.05) end
  -- h = (h * 31 + byte) mod 2^32 over "%.17g %.17g %.17g\n" per entity: exact in
  -- doubles (h * 31 + 255 < 2^53), so the same on every Lua
  local h = 0
  for _, e in ipairs(w:entities()) do
    local line = string.format("%.17g %.17g %.17g\n", e.x, e.y, e.z)
    for k = 1, #line do h = (h * 31 + line:byte(k)) % 4294967296 end
  end
  local n = #w:entities()
  w:destroy()
  return h, n, ticks
end

if arg and arg[0] and arg[0]:match("scene%.lua$") then -- run as a script
  local h, n, ticks = run(arg[1], tonumber(arg[2]))
  print(string.format("scene %08x %d %d", h, n, ticks))
end
return run
