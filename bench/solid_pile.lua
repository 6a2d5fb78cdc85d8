--- The solid pile bench (issue 31): n solid entities spawned on one spot (a ring of
-- radius 0.1 on a stone floor, Beta rules), then stepped. Prints the time of the first
-- step and the slowest of the next ones, per pile size. Without a bound, every member
-- of the pile was every other one's obstacle: 8,000 took 1.29 s per step and 32,000
-- took 22.9 s. Targets: 8,000 well under 0.1 s, 32,000 under 0.5 s.
--
-- Run from the checkout root (build first with `make`; `make bench` runs it):
--   lua5.4 -e 'package.path="./lua/?.lua;./lua/?/init.lua;"..package.path;
--              package.cpath="./build/lua5.4/?.so;"..package.cpath' bench/solid_pile.lua
-- Optional arguments: the pile sizes (8000 32000) and the steps after the first (5).
local bp = require "blockphys"

local sizes = { tonumber(arg and arg[1]) or 8000, tonumber(arg and arg[2]) or 32000 }
local STEPS = tonumber(arg and arg[3]) or 5
local clock = os.clock

for _, n in ipairs(sizes) do
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:fill(-64, -1, -64, 64, -1, 64, "stone")
  for i = 1, n do
    local a = i * 2.399963 -- the golden angle: the ring filled evenly
    w:spawn{ x = 0.1 * math.cos(a), y = 0, z = 0.1 * math.sin(a), solid = true }
  end
  local t0 = clock()
  w:step()
  local first = clock() - t0
  local worst = 0
  for _ = 1, STEPS do
    t0 = clock()
    w:step()
    worst = math.max(worst, clock() - t0)
  end
  print(("solid pile, %6d entities: first step %7.1f ms, slowest of the next %d %7.1f ms"):format(
    n, first * 1000, STEPS, worst * 1000))
end
