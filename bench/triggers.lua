-- bench/triggers.lua: what triggers cost a step. 10,000 walkers on a 400 x 400 floor
-- with 1,000 triggers (2 x 2 x 2 blocks each, at random), against the same world
-- without triggers, and against polling each trigger with world:query every tick (the
-- way a game had to do it before). Prints ms per tick and the ratios, measured in one
-- run (the best of three rounds each). Run by `make bench`.
local bp = require "blockphys"

local N, TRIGGERS, HALF, TICKS = 10000, 1000, 200, 40

-- A deterministic Park-Miller generator (exact in doubles: the same world on every Lua).
local function rng(seed)
  local s = seed
  return function()
    s = s * 16807 % 2147483647
    return s / 2147483647
  end
end

local function build(with_triggers)
  local rand = rng(12345)
  local w = bp.World()
  w:fill(-HALF, 63, -HALF, HALF, 63, HALF, w:define_block{ name = "stone" })
  local boxes = {}
  for i = 1, TRIGGERS do
    local x = math.floor(rand() * 2 * (HALF - 4)) - HALF + 2
    local z = math.floor(rand() * 2 * (HALF - 4)) - HALF + 2
    boxes[i] = bp.Collider(x, 64, z, x + 2, 66, z + 2)
    if with_triggers then w:add_trigger(boxes[i], i) end
  end
  local rules = bp.rules.beta173() -- one table for all: the documented fast way
  for _ = 1, N do
    local e = w:spawn{ x = rand() * 2 * (HALF - 2) - HALF + 1, y = 64,
                       z = rand() * 2 * (HALF - 2) - HALF + 1, yaw = rand() * 360, rules = rules }
    e.forward = 1
  end
  for _ = 1, 3 do w:step() end
  w:events()
  return w, boxes
end

local function best_of(rounds, fn)
  local best = math.huge
  for _ = 1, rounds do
    local t0 = os.clock()
    fn()
    best = math.min(best, os.clock() - t0)
  end
  return best / TICKS * 1000
end

local plain = build(false)
local with = build(true)
local polled, boxes = build(false)

local events = 0
local t_plain = best_of(3, function() for _ = 1, TICKS do plain:step() end end)
local t_trig = best_of(3, function()
  for _ = 1, TICKS do
    with:step()
    events = events + #with:events()
  end
end)
local t_poll = best_of(3, function()
  for _ = 1, TICKS do
    polled:step()
    for i = 1, #boxes do polled:query(boxes[i]) end
  end
end)

print(("== triggers: %d walkers, %d triggers (2x2x2), %d ticks"):format(N, TRIGGERS, TICKS))
print(("world:step alone             %7.3f ms/tick"):format(t_plain))
print(("with 1,000 triggers          %7.3f ms/tick  (%.2fx; %d enter/leave events a tick)")
  :format(t_trig, t_trig / t_plain, math.floor(events / (3 * TICKS))))
print(("polling them with query      %7.3f ms/tick  (%.2fx)"):format(t_poll, t_poll / t_plain))
print(("triggers' own cost           %7.3f ms/tick, polling's %.3f"):format(t_trig - t_plain, t_poll - t_plain))
