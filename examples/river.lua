--- river.lua: water currents (Beta's flow push) carry entities downstream.
--
-- A channel one block deep runs along +X: a source at x = 0, flowing water of levels
-- 1..7 after it (one block type per level, `define_block{ liquid = "water", level = n }`),
-- then the channel ends at a drop into a pool of still water. Three players start in
-- three such channels: one with the default rules and no input (drifts with the
-- current, over the edge and into the pool), one with `water_current = 0` (stays
-- put), and one walking upstream (-X) against it. It prints their X every 10 ticks,
-- then where each ended.
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/river.lua
-- (a copy installed by `make install` or LuaRocks, if any, is found first)
--
-- The chunk returns the final X of each player for a spec.
local bp = require "blockphys"

local world = bp.World()
world:define_block{ name = "stone" }
for level = 0, 7 do
  world:define_block{ name = "water" .. level, liquid = "water", level = level }
end

-- Three channels side by side (z = 0, 3, 6), one per player, so that they never
-- push each other: each a stone bed at y = 0, banks on both sides up to y = 2, water
-- at y = 1 along x = 0..7 (level = x). Past x = 7 the bed drops to a still pool.
local function channel(z)
  world:fill(-2, 0, z - 1, 7, 0, z + 1, "stone")
  world:fill(-2, 1, z - 1, 7, 2, z - 1, "stone")
  world:fill(-2, 1, z + 1, 7, 2, z + 1, "stone")
  world:fill(-2, 1, z, -1, 2, z, "stone")
  for x = 0, 7 do world:set_block(x, 1, z, "water" .. x) end
end
for _, z in ipairs{ 0, 3, 6 } do channel(z) end
world:fill(8, -3, -2, 12, -3, 8, "stone")   -- the pool's floor
world:fill(8, -2, -1, 12, 0, 7, "water0")   -- still water, three deep

local players = {
  { name = "drifter", e = world:spawn{ x = 1.5, y = 1, z = 0.5 } },
  { name = "anchored", e = world:spawn{ x = 1.5, y = 1, z = 3.5,
                                        rules = bp.rules.beta173{ water_current = 0 } } },
  { name = "upstream", e = world:spawn{ x = 5.5, y = 1, z = 6.5, yaw = 90 } }, -- faces -X
}
players[3].e.forward = 1

local header = { ("%4s"):format("tick") }
for _, p in ipairs(players) do header[#header + 1] = ("%10s"):format(p.name) end
print(table.concat(header, "  "))
for tick = 1, 120 do
  world:step()
  if tick % 10 == 0 then
    local row = { ("%4d"):format(tick) }
    for _, p in ipairs(players) do row[#row + 1] = ("%10.4f"):format(p.e.x) end
    print(table.concat(row, "  "))
  end
end

print()
local result = {}
for _, p in ipairs(players) do
  result[p.name] = p.e.x
  print(("%-9s ends at x = %.4f, y = %.4f, in water: %s"):format(p.name, p.e.x, p.e.y,
    tostring(p.e.in_water)))
end
return result
