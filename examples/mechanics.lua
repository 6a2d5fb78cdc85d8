--- mechanics.lua: the game mechanics blockphys has in its core, one part each:
--   * a pressure plate that opens a door: a trigger's enter and leave events, read
--     from world:events() in world:advance's on_tick (docs/mechanics.md, "Triggers and
--     sensors");
--   * a lift carrying a player with a crate on them, up to a ceiling and down again
--     (docs/mechanics.md, "Carrying platforms");
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

-- ---------------------------------------------------------------------------------
-- A pressure plate that opens a door: a trigger over the plate at x = -12; the door
-- is two blocks at x = -10 that the walker meets; the plate's enter opens it (air),
-- its leave closes it again once the walker is through.
world:define_block{ name = "door" }
world:fill(-10, 0, -13, -10, 1, -11, "door")
local plate = world:add_trigger(bp.Collider(-13, 0, -13, -12, 0.25, -11), "plate")
local guest = world:spawn{ x = -14.5, y = 0, z = -12 }
print("-- a pressure plate at x = -13 .. -12 and a door at x = -10")
local opened_at
world:advance(0.2) -- standing
for _ = 1, 60 do
  guest:set_input(1, 0, -90) -- toward +X
  world:advance(1 / 20, function(w, tick)
    for _, ev in ipairs(w:events()) do
      if ev.type == "enter" and ev.trigger == plate then
        w:fill(-10, 0, -13, -10, 1, -11, "air")
        opened_at = opened_at or tick
        local who = ev.entity == guest and "guest" or "?"
        print(("tick %d: %s steps on the %s: the door opens"):format(tick, who, ev.tag))
      elseif ev.type == "leave" and ev.trigger == plate then
        print(("tick %d: the %s is free again (guest at x %.2f)"):format(tick, ev.tag, guest.x))
      end
    end
  end)
end
print(("guest at x %.2f, past the door: %s"):format(guest.x, tostring(guest.x > -9)))

-- ---------------------------------------------------------------------------------
-- A lift: a solid carrying entity moved by its velocity, a player on it and a crate
-- on the player, up to a ceiling at y = 6 and back.
world:fill(9, 6, -14, 15, 6, -8, "stone")
local lift = world:spawn{ x = 12, y = 0, z = -11, width = 3, height = 0.5, solid = true,
                          carry = true, rules = bp.rules.beta173{ gravity = 0, push = false } }
local rider = world:spawn{ x = 12, y = 0.5, z = -11 }
local crate = world:spawn{ x = 12, y = 3, z = -11, width = 0.9, height = 0.9, solid = true }
run(20)
print("-- a lift at (12, 0, -11), a ceiling at y = 6")
local function lift_report(what)
  print(("%-22s lift y %.4f  rider y %.4f on_ground %-5s  crate y %.4f"):format(
    what, lift.y, rider.y, tostring(rider.on_ground), crate.y))
end
lift_report("standing")
run(40, function() lift.vy = 0.1 end)
lift_report("up (40 ticks)")
run(60, function() lift.vy = -0.1 end)
lift_report("down (60 ticks)")
