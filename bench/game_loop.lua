--- The game-loop bench: what a game pays per tick besides the physics, for 10,000
-- entities that walk about a pen: write the five inputs of every entity and read every
-- position, then world:step. Two ways to write the inputs are timed: one
-- world:set_inputs call with a flat array (the bulk call), and e:set_input per entity;
-- positions are read with world:positions into a reused array. Prints the time of each
-- part per tick and the I/O's share of the step's time; the target is at most one half
-- ("Its I/O must cost at most half of world:step").
--
-- Run from the checkout root (build first with `make`; `make bench` runs it):
--   lua5.4 -e 'package.path="./lua/?.lua;./lua/?/init.lua;"..package.path;
--              package.cpath="./build/?.so;"..package.cpath' bench/game_loop.lua
-- Optional arguments: the number of entities (10000) and of ticks (100).
local bp = require "blockphys"

local N = tonumber(arg and arg[1]) or 10000
local TICKS = tonumber(arg and arg[2]) or 100
local clock = os.clock

-- A pen of N mobs on a stone floor, about one per 4 blocks^2, each with a fixed
-- pseudo-random heading (no math.random: the same crowd on every run).
local side = math.ceil(math.sqrt(N * 4))
local w = bp.World()
local stone = w:define_block{ name = "stone" }
w:fill(-1, 63, -1, side, 63, side, stone)
w:fill(-1, 64, -1, side, 65, -1, stone)
w:fill(-1, 64, side, side, 65, side, stone)
w:fill(-1, 64, -1, -1, 65, side, stone)
w:fill(side, 64, -1, side, 65, side, stone)
local seed = 12345
local function rnd()
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed / 2147483648
end
local mobs, yaw = {}, {}
for i = 1, N do
  mobs[i] = w:spawn{ x = rnd() * side, y = 64, z = rnd() * side }
  yaw[i] = rnd() * 360
end
for _ = 1, 5 do w:step() end -- settle

local positions, inputs = {}, {}
local t_bulk, t_each, t_out, t_step = 0, 0, 0, 0
local sum = 0
for tick = 1, TICKS do
  local jumping = tick % 20 == 0
  -- the input loop fills the game's own array (not timed: a game has it anyway)
  for i = 1, N do
    local k = 5 * i
    inputs[k - 4], inputs[k - 3], inputs[k - 2], inputs[k - 1], inputs[k] =
      1, 0, yaw[i], jumping, false
  end
  local t0 = clock()
  w:set_inputs(inputs)
  local t1 = clock()
  for i = 1, N do
    mobs[i]:set_input(1, 0, yaw[i], jumping, false)
  end
  local t2 = clock()
  w:step()
  local t3 = clock()
  w:positions(positions)
  for i = 1, 3 * N, 3 do sum = sum + positions[i] end -- a renderer reads each
  local t4 = clock()
  t_bulk, t_each = t_bulk + (t1 - t0), t_each + (t2 - t1)
  t_step, t_out = t_step + (t3 - t2), t_out + (t4 - t3)
end
local ms = 1000 / TICKS
print(("game loop, %d entities walking, %d ticks (%s)"):format(N, TICKS, _VERSION))
print(("  inputs, world:set_inputs (bulk)   %7.3f ms per tick"):format(t_bulk * ms))
print(("  inputs, e:set_input per entity    %7.3f ms per tick"):format(t_each * ms))
print(("  positions, world:positions        %7.3f ms per tick"):format(t_out * ms))
print(("  world:step                        %7.3f ms per tick"):format(t_step * ms))
print(("  I/O share of the step: bulk %.2f, per entity %.2f (target <= 0.5)  [checksum %.3f]"):format(
  (t_bulk + t_out) / t_step, (t_each + t_out) / t_step, sum / TICKS / N))
