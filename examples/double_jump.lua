--- double_jump.lua: a rules hook in Lua that gives the Beta player a double jump.
--
-- `bp.rules.beta173{ jump = fn }` replaces the native jump stage: `fn(e)` runs on
-- every tick that starts with `e.jumping` set, before the heading and the move, and
-- instead of the game's "jump if on the ground, swim up if in a liquid". The hook
-- wraps that native stage (`e:native_jump()`) and adds one extra jump in mid-air on a
-- new press.
--
-- Three entities stand side by side in one world: one with the native jump, one
-- with the hook pressing jump once, one with the hook pressing it a second time in
-- mid-air (and a third time, which does nothing). It prints their heights per tick
-- and the apex of each, then swims a hooked and a native entity up through water.
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/double_jump.lua
-- (a copy installed by `make install` or LuaRocks, if any, is found first)
--
-- The chunk returns the apexes and the swim speed for a spec.
local bp = require "blockphys"

-- 1. The hook --------------------------------------------------------------------
-- The hook is called only while jump is held, so a release shows up as a tick on
-- which it was not called. The hook cannot see the tick number, so the script
-- counts ticks itself (`ticks`, advanced by `step` below). Per-entity state lives
-- in a table keyed by the entity: the same userdata comes back every tick. Weak
-- keys let a removed entity's state go.
local ticks = 0
local state = setmetatable({}, { __mode = "k" })
local AIR_JUMPS = 1 -- extra jumps allowed before touching the ground again

local function double_jump(e)
  local s = state[e]
  if not s then
    s = { last = -1, air_jumps = 0 }
    state[e] = s
  end
  local new_press = s.last ~= ticks - 1
  s.last = ticks
  if e.in_water or e.in_lava or e.on_ground then
    e:native_jump()                       -- swim up, or the ordinary jump: the native stage
    if e.on_ground then s.air_jumps = 0 end
  elseif new_press and s.air_jumps < AIR_JUMPS then
    e.vy = e.rules.jump_impulse           -- the extra one, from wherever it is
    s.air_jumps = s.air_jumps + 1
  end
end

-- 2. The world and three jumpers ---------------------------------------------------------

local world = bp.World()
world:define_block{ name = "stone" }
world:define_block{ name = "water", boxes = {}, liquid = "water" }
world:fill(-2, 63, -2, 12, 63, 2, "stone")
world:fill(12, 56, -2, 14, 63, 2, "water") -- a deep pool for the swim at the end
world:fill(11, 55, -2, 15, 55, 2, "stone")

local function step()
  world:step()
  ticks = ticks + 1
end

local hooked = bp.rules.beta173{ jump = double_jump }
-- Which ticks (counted from the start of the jump) each one holds jump on.
local jumpers = {
  { name = "native",  e = world:spawn{ x = 0.5, y = 64, z = 0.5 }, held = { [1] = true, [2] = true } },
  { name = "hook x1", e = world:spawn{ x = 3.5, y = 64, z = 0.5, rules = hooked },
    held = { [1] = true, [2] = true } },
  { name = "hook x2", e = world:spawn{ x = 6.5, y = 64, z = 0.5, rules = hooked },
    held = { [1] = true, [2] = true, [7] = true, [8] = true, [12] = true } },
}
step(); step() -- a new entity's first tick is an air tick; let them land

print("Heights (feet, y - 64) per tick; J = jump held that tick.")
print("hook x2 presses again at tick 7 (second jump) and at tick 12 (no third jump).")
print(("%4s  %-14s %-14s %-14s"):format("tick", jumpers[1].name, jumpers[2].name, jumpers[3].name))
for _, j in ipairs(jumpers) do j.apex, j.apex_tick, j.air = 0, 0, 0 end
local t = 0
repeat
  t = t + 1
  for _, j in ipairs(jumpers) do j.e.jumping = j.held[t] or false end
  step()
  local cols, landed = {}, true
  for i, j in ipairs(jumpers) do
    local h = j.e.y - 64
    if h > j.apex then j.apex, j.apex_tick = h, t end
    if not j.e.on_ground then j.air = t end
    landed = landed and j.e.on_ground
    cols[i] = ("%s %10.6f  "):format(j.held[t] and "J" or " ", h)
  end
  print(("%4d  %s"):format(t, table.concat(cols, " ")))
until (landed and t > 2) or t > 60

print()
for _, j in ipairs(jumpers) do
  print(("%-8s apex %.6f blocks at tick %2d, back on the ground after tick %2d"):format(
    j.name, j.apex, j.apex_tick, j.air))
end
print(("native and hook x1 agree: %s"):format(
  tostring(jumpers[1].apex == jumpers[2].apex and jumpers[1].air == jumpers[2].air)))

-- 3. Swimming: the hook also replaced the native swim-up ------------------------------

local swimmers = {
  native = world:spawn{ x = 12.5, y = 56, z = 0.5 },
  hook = world:spawn{ x = 14.5, y = 56, z = 0.5, rules = hooked },
}
swimmers.native.jumping, swimmers.hook.jumping = true, true
print("\nSwimming up with jump held (pool floor y = 56, surface y = 64), native vs hook:")
print(("%4s %10s %10s %10s %10s"):format("tick", "y native", "y hook", "dy/tick", "vy hook"))
local rise, same = 0, true
for n = 1, 120 do
  local y0 = swimmers.hook.y
  step()
  local h, nat = swimmers.hook, swimmers.native
  same = same and h.y == nat.y and h.vy == nat.vy
  if n % 8 == 0 or not h.in_water then
    print(("%4d %10.4f %10.4f %10.6f %10.6f"):format(n, nat.y, h.y, h.y - y0, h.vy))
  end
  if n == 48 then rise = h.y - y0 end
  if not h.in_water then break end
end
print(("steady rise %.6f blocks/tick (the game: +0.1); hook and native identical: %s"):format(
  rise, tostring(same)))

return { apex = { jumpers[1].apex, jumpers[2].apex, jumpers[3].apex },
         airtime = { jumpers[1].air, jumpers[2].air, jumpers[3].air }, swim_rise = rise, swim_same = same }
