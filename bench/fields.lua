--- The cost of one entity field read (e.x) and one field write (e.vx = v), and of the
-- per-tick calls a game makes (e:set_input, world:set_inputs, e:position(),
-- world:positions), under the interpreter
-- that runs it: nanoseconds per operation, the best of a few rounds. `make bench` runs
-- it under every interpreter installed, so the lines compare them in one run.
--
-- Run from the checkout root (build first with `make LUA=<interpreter>`):
--   luajit -e 'package.path="./lua/?.lua;./lua/?/init.lua;"..package.path;
--              package.cpath="./build/luajit/?.so;"..package.cpath' bench/fields.lua
-- Prints one line: "<interpreter>: read e.x N ns, write e.vx N ns, ...".
local bp = require "blockphys"

local clock = os.clock
local N = 100 -- entities, read and written in turn
local ROUNDS = 5

local w = bp.World()
w:define_block{ name = "stone" }
w:fill(-20, -1, -20, 20, -1, 20, "stone")
local es = {}
for i = 1, N do es[i] = w:spawn{ x = (i % 10) * 2 - 10, y = 0, z = math.floor(i / 10) * 2 - 10 } end

-- The best time of ROUNDS rounds of `reps` passes of f over the entities, per
-- operation, in ns.
local function best(f, reps)
  local t = math.huge
  for _ = 1, ROUNDS do
    local t0 = clock()
    f(reps)
    t = math.min(t, clock() - t0)
  end
  return t / (reps * N) * 1e9
end

local sink = 0
local read = best(function(reps)
  local s = 0
  for _ = 1, reps do
    for i = 1, N do s = s + es[i].x end
  end
  sink = sink + s
end, 20000)

local write = best(function(reps)
  for r = 1, reps do
    local v = r * 1e-9
    for i = 1, N do es[i].vx = v end
  end
end, 20000)

local input = best(function(reps)
  for r = 1, reps do
    local yaw = r % 360
    for i = 1, N do es[i]:set_input(1, 0, yaw, false, false) end
  end
end, 5000)

local out = {}
local positions = best(function(reps)
  for _ = 1, reps do w:positions(out) end
end, 5000) -- per entity: one call fills N entities

local flat = {}
for i = 1, N do
  local k = 5 * i
  flat[k - 4], flat[k - 3], flat[k - 2], flat[k - 1], flat[k] = 1, 0, i, false, false
end
local inputs = best(function(reps)
  for _ = 1, reps do w:set_inputs(flat) end
end, 5000) -- per entity: one call sets N entities

local position = best(function(reps)
  local s = 0
  for _ = 1, reps do
    for i = 1, N do
      local x, y, z = es[i]:position()
      s = s + x + y + z
    end
  end
  sink = sink + s
end, 5000)

local empty = best(function(reps)
  for _ = 1, reps do
    for i = 1, N do sink = sink + i end
  end
end, 20000)

local name = type(jit) == "table" and jit.version or _VERSION -- luacheck: ignore 113
print(("%-18s read e.x %6.1f ns, write e.vx %6.1f ns, e:set_input %6.1f ns, "
  .. "world:set_inputs %5.1f ns, e:position() %6.1f ns, "
  .. "world:positions %5.1f ns per entity (empty loop %.1f ns)")
  :format(name .. ":", read, write, input, inputs, position, positions, empty))
if sink ~= sink then print(sink) end -- keeps the loops' results alive
