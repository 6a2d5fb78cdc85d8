--- Crowd benchmark: step time per entity for pens of 1,000, 10,000 and 100,000 mobs
-- walking into each other (constant density), for both push models. Linear
-- scaling means the per-entity time stays flat: the ratios printed are
-- (time per entity at N) / (time per entity at 1,000). With "all" as the second
-- argument, push = false (no entity-entity work) runs too, as the baseline.
--
-- Run from the checkout root (build first with `make`):
--   lua5.4 -e 'package.path="./lua/?.lua;./lua/?/init.lua;"..package.path;
--              package.cpath="./build/?.so;"..package.cpath' bench/crowd.lua
-- Optional argument: the largest crowd (default 100000).
local bp = require "blockphys"

local SIZES = { 1000, 10000, 100000 }
local AREA_PER_MOB = 1.0 -- blocks^2: a dense crowd, every mob touching others
local WARMUP, STEPS = 5, 20

local largest = tonumber(arg and arg[1]) or SIZES[#SIZES]
local PUSHES = { "beta173", "separate" }
if arg and arg[2] == "all" then PUSHES[#PUSHES + 1] = false end

-- Deterministic LCG (no math.random: same crowd on every run, and on every Lua:
-- seed * 1103515245 in two parts, each exact on doubles).
local function lcg(seed)
  return function()
    seed = ((seed * 16838) % 32768 * 65536 + seed * 20077 + 12345) % 2147483648
    return seed / 2147483648
  end
end

-- A stone floor with a wall around a side x side pen.
local function pen(world, side)
  local stone = world:define_block{ name = "stone" }
  world:fill(-1, 63, -1, side, 63, side, stone)
  world:fill(-1, 64, -1, side, 65, -1, stone)
  world:fill(-1, 64, side, side, 65, side, stone)
  world:fill(-1, 64, -1, -1, 65, side, stone)
  world:fill(side, 64, -1, side, 65, side, stone)
end

-- Spawn order "random": creation order unrelated to position (neighbours lie far
-- apart in memory); "sorted": spawned in 8-block strips, as a game that spawns by
-- area would. Both give the same crowd; the gap between them is cache misses.
local function crowd(n, push, order)
  local world = bp.World()
  local side = math.ceil(math.sqrt(n * AREA_PER_MOB))
  pen(world, side)
  local rnd = lcg(n)
  local rules = bp.rules.beta173{ push = push }
  local pts = {}
  for i = 1, n do
    pts[i] = { 0.3 + rnd() * (side - 0.6), 0.3 + rnd() * (side - 0.6), rnd() * 360 }
  end
  if order == "sorted" then
    table.sort(pts, function(a, b)
      local sa, sb = math.floor(a[1] / 8), math.floor(b[1] / 8)
      if sa ~= sb then return sa < sb end
      return a[2] < b[2]
    end)
  end
  for _, p in ipairs(pts) do
    local e = world:spawn{ x = p[1], y = 64, z = p[2], rules = rules, yaw = p[3] }
    e.forward = 1
  end
  return world
end

local function time_per_entity(n, push, order)
  local world = crowd(n, push, order)
  for _ = 1, WARMUP do world:step() end
  local t0 = os.clock()
  for _ = 1, STEPS do world:step() end
  local dt = os.clock() - t0
  world:destroy()
  return dt / STEPS / n
end

print(string.format("crowd: %d steps after %d warm-up steps, %.1f block^2 per mob",
                    STEPS, WARMUP, AREA_PER_MOB))
for _, push in ipairs(PUSHES) do
  for _, order in ipairs{ "random", "sorted" } do
    local base
    for _, n in ipairs(SIZES) do
      if n <= largest then
        local t = time_per_entity(n, push, order)
        base = base or t
        print(string.format("  push=%-8s  spawn order %-6s  n=%6d  %7.3f us/entity/step  ratio %.2f",
                            tostring(push), order, n, t * 1e6, t / base))
      end
    end
  end
end
