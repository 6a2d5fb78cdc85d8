-- A game loop: frames at 60 fps (with one 0.25 s hitch), world:advance running whole
-- ticks at the world's 20 ticks per second, and drawing interpolated between the last
-- two ticks (world:lerp_positions with advance's alpha). A Beta player and an MC-CPP
-- player walk side by side; both keep their real speeds per second whatever the frame
-- rate, and the hitch neither speeds them up nor spirals.
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/game_loop.lua
local bp = require "blockphys"

local world = bp.World()
world:define_block{ name = "stone" }
world:fill(-4, 63, -4, 4, 63, 200, "stone")

local beta = world:spawn{ x = -1.5, y = 64, z = 0.5 }                          -- per tick
local mccpp = world:spawn{ x = 1.5, y = 64, z = 0.5, rules = bp.rules.mccpp() } -- per second
beta:set_input(1, 0, 0)   -- walk toward +Z (yaw 0)
mccpp:set_input(1, 0, 0)

local FRAME = 1 / 60
local drawn, frames = {}, 0
local function frame(seconds)
  local ticks, alpha, dropped = world:advance(seconds)
  world:lerp_positions(alpha, drawn) -- {x1, y1, z1, x2, ...}: what a renderer draws
  frames = frames + 1
  return ticks, alpha, dropped
end

-- Two seconds of frames, the hitch in the middle.
local t0 = { beta.z, mccpp.z }
local ticks = 0
for i = 1, 120 do
  local n, _, dropped = frame(i == 60 and 0.25 or FRAME)
  ticks = ticks + n
  if i == 60 then
    print(("hitch: a 0.25 s frame ran %d ticks, dropped %.2f s"):format(n, dropped))
  end
end
local seconds = 119 * FRAME + 0.25
print(("%d frames, %.3f s, %d ticks (%.1f per second)"):format(frames, seconds, ticks,
  ticks / seconds))
print(("Beta walker   %.2f blocks/s"):format((beta.z - t0[1]) / (ticks / world.tick_rate)))
print(("MC-CPP walker %.2f blocks/s"):format((mccpp.z - t0[2]) / (ticks / world.tick_rate)))
print(("drawn at z = %.3f and %.3f, between the last two ticks"):format(drawn[3], drawn[6]))
