--- A pen of mobs walking into each other. Every second of simulated time (20 Beta
-- ticks) it prints the largest overlap between two mobs (circles of radius
-- width/2 in X/Z) and the fastest horizontal speed.
--
-- Run from the checkout root after `make` (which links the modules into ./blockphys/):
--   lua5.4 examples/crowd.lua [push] [n]
-- (a copy installed by `make install` or LuaRocks, if any, is found first)
-- push: "separate" (default) or "beta173"; n: number of mobs (default 400).
local bp = require "blockphys"

local PUSH = arg and arg[1] or "separate"
local N = tonumber(arg and arg[2]) or 400
local SIDE = 24 -- the pen's inside is SIDE x SIDE blocks
local SECONDS = 10

local world = bp.World()
local stone = world:define_block{ name = "stone" }
world:fill(-1, 63, -1, SIDE, 63, SIDE, stone)     -- floor
world:fill(-1, 64, -1, SIDE, 65, -1, stone)       -- four walls, two high
world:fill(-1, 64, SIDE, SIDE, 65, SIDE, stone)
world:fill(-1, 64, -1, -1, 65, SIDE, stone)
world:fill(SIDE, 64, -1, SIDE, 65, SIDE, stone)

-- A fixed LCG, so every run is the same crowd (on every Lua: seed * 1103515245 in two
-- parts, each exact where numbers are doubles, as in Lua 5.1 and LuaJIT).
local seed = 2024
local function rnd()
  seed = ((seed * 16838) % 32768 * 65536 + seed * 20077 + 12345) % 2147483648
  return seed / 2147483648
end

local rules = bp.rules.beta173{ push = PUSH }
for _ = 1, N do
  local e = world:spawn{ x = 0.3 + rnd() * (SIDE - 0.6), y = 64, z = 0.3 + rnd() * (SIDE - 0.6),
                         yaw = rnd() * 360, rules = rules }
  e.forward = 1 -- everyone walks straight ahead, into walls and each other
end

local function summary()
  local overlap, speed = 0, 0
  for _, e in ipairs(world:entities()) do
    speed = math.max(speed, math.sqrt(e.vx * e.vx + e.vz * e.vz))
    for _, o in ipairs(world:query(e:box())) do
      if o ~= e then
        local d = math.sqrt((e.x - o.x) ^ 2 + (e.z - o.z) ^ 2)
        overlap = math.max(overlap, (e.width + o.width) / 2 - d)
      end
    end
  end
  return overlap, speed
end

print(string.format("%d mobs in a %dx%d pen, push = %s", N, SIDE, SIDE, PUSH))
print("  time   max overlap (blocks)   max speed (blocks/tick)")
for second = 1, SECONDS do
  for _ = 1, 20 do
    for _, e in ipairs(world:entities()) do
      if rnd() < 0.02 then e.yaw = rnd() * 360 end -- wander
    end
    world:step()
  end
  local overlap, speed = summary()
  print(string.format("  %3d s  %20.6f   %22.6f", second, overlap, speed))
end
