--- Crowd benchmark: step time per entity for pens of 1,000, 10,000 and 100,000 mobs
-- walking into each other (constant density), for both push models and without
-- pushes (push = false, the baseline). Linear scaling means the per-entity time stays
-- flat: the ratios printed are (time per entity at N) / (time per entity at 1,000).
-- Then the bytes one entity takes, and the settle scene of bench/settle.lua (a jammed
-- pen left at rest: the worst overlap after the rest). With "quick" as the second
-- argument, only random spawn order runs.
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
local PUSHES = { "beta173", "separate", false }
local ORDERS = (arg and arg[2] == "quick") and { "random" } or { "random", "sorted" }

-- The crowd's LCG and its walled pen are the settle scene's (bench/settle.lua).
local settle = require "settle"
local lcg, pen = settle.lcg, settle.pen

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

-- Every size is timed over the same ticks (WARMUP + 1 to WARMUP + STEPS of a fresh
-- crowd: the crowd's state, how jammed it is, depends on how long it has walked), and
-- a fresh crowd runs them again until about MIN_ENTITY_STEPS entity-steps were timed
-- (at least twice); the best run is the cost: the machine's other work only ever adds
-- time, and 1,000 mobs would otherwise be timed over a few milliseconds.
local MIN_ENTITY_STEPS = 2000000
local function time_per_entity(n, push, order)
  local runs = math.max(2, math.ceil(MIN_ENTITY_STEPS / (n * STEPS)))
  local best = math.huge
  for _ = 1, runs do
    local world = crowd(n, push, order)
    for _ = 1, WARMUP do world:step() end
    local t0 = os.clock()
    for _ = 1, STEPS do world:step() end
    best = math.min(best, (os.clock() - t0) / STEPS / n)
    world:destroy()
  end
  return best
end

print(string.format("crowd: %d steps after %d warm-up steps, the best of fresh crowds run "
  .. "until %d entity-steps (at least 2), %.1f block^2 per mob", STEPS, WARMUP,
  MIN_ENTITY_STEPS, AREA_PER_MOB))
for _, push in ipairs(PUSHES) do
  for _, order in ipairs(ORDERS) do
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

-- Bytes per entity: the core's state (world:stats().bytes, which counts everything the
-- core allocates: the entity slots with their spare capacity, inputs, broadphase
-- cells) and the Lua side (collectgarbage's count: each entity's userdata and its
-- place in the world's tables; the core's own allocations do not count there).
do
  local n = 100000
  collectgarbage()
  collectgarbage()
  local world = bp.World()
  pen(world, 320)
  local rules = bp.rules.beta173{ push = "separate" }
  local rnd = lcg(1)
  collectgarbage()
  local c0, l0 = world:stats().bytes, collectgarbage("count") * 1024
  for _ = 1, n do
    world:spawn{ x = 0.3 + rnd() * 319, y = 64, z = 0.3 + rnd() * 319, rules = rules }
  end
  world:step()
  collectgarbage()
  local c1, l1 = world:stats().bytes, collectgarbage("count") * 1024
  print(string.format("bytes per entity (%d entities, after one step): C state %.0f, "
    .. "Lua side (userdata, tables) %.0f, together %.0f", n, (c1 - c0) / n, (l1 - l0) / n,
    (c1 - c0 + l1 - l0) / n))
  world:destroy()
end

-- The settle scene (issue 33): 1,500 mobs walked 10 s in a walled 48 x 48 pen, then
-- 200 ticks at rest, with the default passes and with one pass (as before them).
do
  for _, iters in ipairs{ false, 1 } do
    local t0 = os.clock()
    local r = settle.run{ n = 1500, side = 48, walk = 200, rest = 200,
                          rules = iters and { separate_iterations = iters } or nil }
    print(string.format("settle: 1,500 mobs in a 48x48 pen, %s: worst overlap after 200 ticks "
      .. "at rest %.4f blocks, %d pairs over 0.05 (%.2f ms per step)",
      iters and "separate_iterations = 1" or "default passes", r.overlap, r.pairs,
      (os.clock() - t0) / 400 * 1e3))
  end
end
