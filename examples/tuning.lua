--- tuning.lua: one jump under three sets of rules, side by side in one world.
--
-- Rules are per entity: three players stand next to each other, each spawned with
-- its own `bp.rules.beta173{...}` (jump impulse and gravity changed), and all jump
-- on the same tick. It prints their heights per tick in three columns, then the
-- apex and the airtime of each. Last it writes a rule live through the entity's
-- rules view (`e.rules.jump_impulse = 0.5`) and jumps again.
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/tuning.lua
-- (a copy installed by `make install` or LuaRocks, if any, is found first)
--
-- The chunk returns the apexes and airtimes for a spec.
local bp = require "blockphys"

local world = bp.World()
world:define_block{ name = "stone" }
world:fill(-2, 63, -2, 10, 63, 2, "stone")

local default = bp.rules.beta173()
local presets = { -- impulse in blocks/tick, gravity in blocks/tick^2 (both per tick)
  { name = "default", rules = default },
  { name = "moon", rules = bp.rules.beta173{ jump_impulse = default.jump_impulse, gravity = 0.02 } },
  { name = "heavy", rules = bp.rules.beta173{ jump_impulse = 0.6, gravity = 0.16 } },
}
for i, p in ipairs(presets) do -- three blocks apart: too far to push each other
  p.e = world:spawn{ x = 0.5 + 3 * (i - 1), y = 64, z = 0.5, rules = p.rules }
end
world:step(); world:step() -- a new entity's first tick is an air tick; let them land

--- Jump every entity in `list` on the same tick (jump held for that one tick) and
-- step until all are back on the ground; print heights and return apex and airtime.
local function jump_all(list)
  local header = { ("%4s"):format("tick") }
  for _, p in ipairs(list) do
    p.apex, p.airtime = 0, nil
    p.e.jumping = true
    header[#header + 1] = ("%10s"):format(p.name)
  end
  print(table.concat(header, "  "))
  local t = 0
  repeat
    t = t + 1
    world:step()
    local cols, all_down = { ("%4d"):format(t) }, true
    for _, p in ipairs(list) do
      p.e.jumping = false
      local h = p.e.y - 64
      p.apex = math.max(p.apex, h)
      if p.e.on_ground then
        p.airtime = p.airtime or t
      else
        all_down = false
      end
      cols[#cols + 1] = p.airtime and p.airtime < t and ("%10s"):format("-")
                        or ("%10.6f"):format(h)
    end
    print(table.concat(cols, "  "))
  until all_down or t >= 200
  print()
  for _, p in ipairs(list) do
    -- airtime: the ticks that ended in the air (the landing tick is the next one).
    p.landed, p.airtime = p.airtime, p.airtime - 1
    print(("%-8s impulse %.6f, gravity %.4f: apex %.6f, airtime %2d ticks (%.2f s), lands on tick %d")
      :format(p.name, p.e.rules.jump_impulse, p.e.rules.gravity, p.apex, p.airtime,
              p.airtime / 20, p.landed))
  end
end

print("Heights (feet, y - 64) after each tick; '-' once back on the ground.")
jump_all(presets)
local results = {}
for _, p in ipairs(presets) do
  results[p.name] = { apex = p.apex, airtime = p.airtime, landed = p.landed }
end

-- A live write: e.rules is a view of the entity's own rules, so this changes the
-- next jump of that one entity only (not the table it was spawned from, nor the
-- others).
local d = presets[1]
d.e.rules.jump_impulse = 0.5
print(("\nlive write: default.e.rules.jump_impulse = 0.5 (now %.6f; the spawn table still %.6f)")
  :format(d.e.rules.jump_impulse, default.jump_impulse))
d.name = "default'"
jump_all({ d })
results.live = { apex = d.apex, airtime = d.airtime, landed = d.landed }
print(("the others are untouched: moon %.6f, heavy %.6f"):format(
  presets[2].e.rules.jump_impulse, presets[3].e.rules.jump_impulse))

return results
