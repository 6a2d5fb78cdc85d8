--- Sleeping benchmark: 100,000 idle mobs (asleep after their first ticks) beside 1,000
-- walkers, against the 1,000 walkers alone, measured in one run; without pushes and
-- with the Beta push on for everyone (the idle mobs touch nothing, so none runs its
-- push search). The target (issue 33): the crowd with sleepers costs at most 2x the
-- walkers. Then the walkers cross the sleeping field itself (they wake the mobs they
-- pass; with the Beta push those are pushed, and a pushed mob's velocity decays by
-- 0.546 a tick, reaching exactly 0, so a fixed point, only when it underflows, about
-- 1,100 ticks later), and the same crowds with sleeping off.
--
-- Run from the checkout root (build first with `make`):
--   lua5.4 -e 'package.path="./lua/?.lua;./lua/?/init.lua;"..package.path;
--              package.cpath="./build/lua5.4/?.so;"..package.cpath' bench/sleep.lua
-- Optional argument: the number of idle mobs (default 100000).
local bp = require "blockphys"

local IDLE = tonumber(arg and arg[1]) or 100000
local WALKERS = 1000
local WARMUP, STEPS = 5, 40

local function world(idle, push, among)
  local w = bp.World()
  local stone = w:define_block{ name = "stone" }
  local side = math.ceil(math.sqrt(idle + WALKERS) * 1.5) + 4
  w:fill(-2, 0, -2, side + 2, 0, side + 2, stone)
  local rules = bp.rules.beta173{ push = push }
  -- Idle mobs on a grid 1.5 blocks apart (touching nothing); walkers in their own
  -- strip beside them, walking back and forth.
  local per_row = math.floor(side / 1.5)
  for i = 0, idle - 1 do
    w:spawn{ x = 0.5 + (i % per_row) * 1.5, y = 1, z = 0.5 + math.floor(i / per_row) * 1.5,
             rules = rules }
  end
  local walkers = {}
  for i = 0, WALKERS - 1 do
    local x = among and 1.25 + (i % 40) * 6 or -600.5 - (i % 40) * 2
    local z = among and 1.25 + math.floor(i / 40) * 6 or 0.5 + math.floor(i / 40) * 2
    walkers[#walkers + 1] = w:spawn{ x = x, y = 1, z = z, rules = rules }
  end
  w:fill(-700, 0, -2, -590, 0, 60, stone)
  return w, walkers
end

local function clock(w, walkers)
  local t0
  for s = 1, WARMUP + STEPS do
    if s == WARMUP + 1 then t0 = os.clock() end
    local f = (math.floor(s / 20) % 2 == 0) and 1 or -1
    for _, e in ipairs(walkers) do e:set_input(f, 0, 0, false) end
    w:step(0.05)
  end
  return (os.clock() - t0) / STEPS
end

for _, case in ipairs{ { false }, { "beta173" }, { false, true }, { "beta173", true } } do
  local push, among = case[1], case[2]
  local w1, k1 = world(0, push, among)
  local alone = clock(w1, k1)
  local w2, k2 = world(IDLE, push, among)
  for _ = 1, 4 do w2:step(0.05) end -- the idle ones settle and fall asleep
  local crowd = clock(w2, k2)
  local asleep, all = 0, w2:entities()
  for i = 1, IDLE do if all[i].sleeping then asleep = asleep + 1 end end
  w2.sleeping = false
  local awake = clock(w2, k2)
  print(("sleep push=%-7s %-13s walkers %d alone %.3f ms/step; + %d idle (%d asleep at the end) "
    .. "%.3f ms/step (%.2fx); sleeping off %.2f ms/step (%.1fx)"):format(
    tostring(push), among and "among them" or "apart", WALKERS, alone * 1e3, IDLE, asleep,
    crowd * 1e3, crowd / alone, awake * 1e3, awake / alone))
end

-- Mostly sleeping crowds at 1,000, 10,000 and 100,000 mobs for each push model: 99 %
-- idle on a grid 1.5 blocks apart, 1 % walking among them (waking those they reach).
-- Per-entity cost of a step, sleeping on and off, in one run.
local function mostly(n, push)
  local w = bp.World()
  local stone = w:define_block{ name = "stone" }
  local per_row = math.ceil(math.sqrt(n))
  local side = math.ceil(per_row * 1.5) + 4
  w:fill(-2, 0, -2, side, 0, side, stone)
  local rules = bp.rules.beta173{ push = push }
  local walkers = {}
  for i = 0, n - 1 do
    local e = w:spawn{ x = 0.5 + (i % per_row) * 1.5, y = 1,
      z = 0.5 + math.floor(i / per_row) * 1.5, rules = rules }
    if i % 100 == 50 then walkers[#walkers + 1] = e end
  end
  for _ = 1, 4 do w:step(0.05) end
  local on = clock(w, walkers)
  w.sleeping = false
  local off = clock(w, walkers)
  return on / n, off / n
end

for _, n in ipairs{ 1000, 10000, IDLE } do
  local row = {}
  for _, push in ipairs{ "beta173", "separate", false } do
    local on, off = mostly(n, push)
    row[#row + 1] = ("%s %.3f / %.3f"):format(tostring(push), on * 1e6, off * 1e6)
  end
  print(("sleep mostly-asleep %6d mobs (1 %% walking), us per entity-step on / off: %s"):format(
    n, table.concat(row, ", ")))
end
