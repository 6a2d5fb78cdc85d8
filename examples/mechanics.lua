--- mechanics.lua: the game mechanics blockphys has in its core, one part each (a
-- pressure plate that opens a door and a lift carrying a player with a crate on them
-- come with the triggers and carrying platforms):
--   * a one-way platform: the player jumps up through it and lands on it, a mob
--     walks through it sideways, and sneaking with drop_through_sneaking drops the
--     player through it again (docs/mechanics.md, "One-way blocks");
--   * a cursor on a flower: a ray against outline shapes picks the flower a
--     collision ray passes through (docs/mechanics.md, "Outline shapes for cursors").
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/mechanics.lua
-- (a copy installed by `make install` or LuaRocks, if any, is found first)
local bp = require "blockphys"

local world = bp.World()
world:define_block{ name = "stone" }
world:fill(-16, -1, -16, 16, -1, 16, "stone") -- the floor: its top face is y = 0

--- Runs `ticks` ticks, `input(tick)` setting the inputs before each one.
local function run(ticks, input)
  for tick = 1, ticks do
    if input then input(tick) end
    world:step()
  end
end

-- ---------------------------------------------------------------------------------
-- A one-way platform: a 1/16 slab at y = 1 over x, z in [-2, 3), open upward.
world:define_block{ name = "platform", boxes = { { 0, 0, 0, 1, 1 / 16, 1 } }, one_way = "up" }
world:fill(-2, 1, -2, 2, 1, 2, "platform")

local player = world:spawn{ x = 0.5, y = 0, z = 0.5, rules = bp.rules.beta173{ drop_through_sneaking = true } }
local mob = world:spawn{ x = -6.5, y = 0, z = 1.5 }

local function report(what)
  print(("%-34s player y %.4f on_ground %-5s   mob x %6.2f y %.4f"):format(
    what, player.y, tostring(player.on_ground), mob.x, mob.y))
end

print("-- a one-way platform (top face y = 1.0625)")
report("start")
local highest = 0
run(30, function(tick)
  player:set_input(0, 0, 0, tick <= 3) -- jump: up through the platform, onto it
  mob:set_input(1, 0, -90)             -- walk toward +X: through the platform's cells
  highest = math.max(highest, player.y)
end)
report(("jump (30 ticks, highest %.4f)"):format(highest))
run(30, function() mob:set_input(1, 0, -90) end)
report("mob walks on (30 ticks)")
run(20, function() player:set_input(0, 0, 0, false, true) end)
report("player sneaks (20 ticks)")

-- ---------------------------------------------------------------------------------
-- A cursor on a flower: the flower has no collision, so a collision ray passes
-- through it, but its outline (from bp.minecraft) is what a cursor selects.
local def = bp.minecraft.block_def("minecraft:poppy")
local flower = world:define_block(def)
world:set_block(8, 0, 8, flower)

print("-- a cursor on a flower at (8, 0, 8)")
-- from an eye 1.62 above the floor, 3 blocks away, looking down at the flower
local ex, ey, ez = 8.5, 1.62, 5.5
local dx, dy, dz = 0, 0.2 - ey, 8.5 - ez
local hit = world:raycast(ex, ey, ez, dx, dy, dz, 5)
print(("collision ray: %s at (%d, %d, %d)"):format(
  hit.collider and "collider" or world:block_info(hit.id).name, hit.x, hit.y, hit.z))
hit = world:raycast(ex, ey, ez, dx, dy, dz, 5, { shape = "outline" })
print(("outline ray:   %s at (%d, %d, %d), face (%d, %d, %d), distance %.4f"):format(
  world:block_info(hit.id).name, hit.x, hit.y, hit.z, hit.nx, hit.ny, hit.nz, hit.distance))
