--- platform.lua: a moving platform that carries what stands on it. A solid entity
-- blocks other entities' moves, so they can stand on it, but nothing moves them
-- along when it moves (Beta carries riders by mounting, which this library does not
-- model). `carry` below does it from a script, after each world:step: a raft slides
-- with a player and a mob on it, rises as a lift, the player jumps on it while it
-- stands, and it comes down again.
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/platform.lua
-- (a copy installed by `make install` or LuaRocks, if any, is found first)
local bp = require "blockphys"

-- How far above the platform's top face an entity's feet may be to ride it (blocks).
local RIDE_GAP = 1e-3

--- The entities standing on `platform`: feet within RIDE_GAP above its top face,
-- their box over it in X and Z. In creation order (world:query's).
local function riders_of(world, platform)
  local x1, _, z1, x2, top, z2 = platform:box():unpack()
  local riders = {}
  for _, e in ipairs(world:query(bp.Collider(x1, top, z1, x2, top + RIDE_GAP, z2))) do
    local _, feet = e:box():unpack()
    if e ~= platform and feet >= top then riders[#riders + 1] = e end
  end
  return riders
end

--- Moves `platform` by (dx, dy, dz) blocks with the per-axis resolver (e:move) and
-- its riders with it. A rising platform would be stopped by its riders, so they rise
-- first; then each rider follows the platform's actual move and a short drop of
-- RIDE_GAP onto it, which lands it there: on_ground stays true, so it can walk and
-- jump as on a floor (a plain e:move(dx, 0, dz) would clear on_ground). A rider
-- blocked by a wall or a ceiling stays behind. Returns the platform's actual move,
-- which is shorter when something blocks it: a wall, a ceiling over a rider, or a
-- solid rider that has something standing on it (only riders of the platform
-- itself are carried; to carry stacks, carry the topmost riders first).
local function carry(world, platform, dx, dy, dz)
  local riders = riders_of(world, platform)
  if dy > 0 then
    for _, e in ipairs(riders) do e:move(0, dy, 0) end
  end
  local ax, ay, az = platform:move(dx, dy, dz)
  for _, e in ipairs(riders) do
    e:move(ax, (dy > 0 and 0 or ay) - RIDE_GAP, az)
  end
  return ax, ay, az
end

local world = bp.World()
world:define_block{ name = "stone" }
world:fill(-4, 63, -4, 12, 63, 4, "stone") -- floor: top at y = 64

-- The raft: a solid entity without gravity or pushes, so world:step leaves it where
-- carry puts it.
local raft = world:spawn{ x = 0.5, y = 64, z = 0.5, width = 3, height = 0.5, solid = true,
  rules = bp.rules.beta173{ gravity = 0, push = false } }
local player = world:spawn{ x = 0, y = 64.5, z = 0.5 }
local mob = world:spawn{ x = 1.2, y = 64.5, z = 0.5 }

local function report(label)
  local riding = {}
  for _, e in ipairs(riders_of(world, raft)) do riding[e] = true end
  local function state(e)
    return ("(%.2f, %.4f) %s"):format(e.x, e.y, riding[e] and "riding" or "off")
  end
  print(("%-28s raft (%.2f, %.2f)  player %s, on_ground %-5s  mob %s")
    :format(label, raft.x, raft.y, state(player), tostring(player.on_ground), state(mob)))
end

-- Each phase: ticks of world:step, each followed by the raft's move.
local function run(label, ticks, dx, dy, dz)
  for _ = 1, ticks do
    world:step()
    carry(world, raft, dx, dy, dz)
  end
  report(label)
end

run("settle (10 ticks)", 10, 0, 0, 0)
run("slide +X 0.2 b/t (20 ticks)", 20, 0.2, 0, 0)
run("rise 0.1 b/t (20 ticks)", 20, 0, 0.1, 0)
player.jumping = true
run("player jumps (1 tick)", 1, 0, 0, 0)
player.jumping = false
run("lands again (15 ticks)", 15, 0, 0, 0)
run("down 0.1 b/t (20 ticks)", 20, 0, -0.1, 0)
player.forward, player.yaw = 1, -90 -- walk off toward +X
run("player walks off (30 ticks)", 30, 0, 0, 0)
