--- make bench: streamed chunks (docs/streaming.md). The cost of World:load_chunk (a
-- chunk of mixed ids and a chunk of one id), of World:unload_chunk, of
-- World:chunk_data against get_block cell by cell, beside the cost of copying an 8 KB
-- string in Lua; then a walker with 1,000 mobs around it over a map streamed as a ring
-- of 256 chunks (16 x 8 columns of two chunks) that follows it, against the same walk
-- over a map loaded whole: the step's cost per tick, and the streaming's.
local bp = require "blockphys"

local clock = os.clock

local function chunk(f)
  local t = {}
  for i = 0, 4095 do
    local x, z, y = i % 16, math.floor(i / 16) % 16, math.floor(i / 256)
    local id = f(x, y, z)
    t[i + 1] = string.char(id % 256, math.floor(id / 256))
  end
  return table.concat(t)
end

-- Seconds per call of fn(i) over n calls, the best of `rounds` rounds.
local function per_call(n, rounds, fn)
  local best = math.huge
  for _ = 1, rounds do
    local t0 = clock()
    for i = 1, n do fn(i) end
    best = math.min(best, (clock() - t0) / n)
  end
  return best
end

local w = bp.World()
local stone = w:define_block{ name = "stone" }
local dirt = w:define_block{ name = "dirt" }
local mixed = chunk(function(x, y, z) return (x + y + z) % 3 == 0 and stone or (y < 8 and dirt or 0) end)
local uniform = chunk(function() return stone end)
local N = 2000

local t_mixed = per_call(N, 5, function(i) w:load_chunk(i, 0, 0, mixed) end)
local t_uniform = per_call(N, 5, function(i) w:load_chunk(i, 1, 0, uniform) end)
local t_reload = per_call(N, 5, function(i) w:load_chunk(i, 0, 0, mixed) end)
local t_read = per_call(N, 5, function(i) return w:chunk_data(i, 0, 0) end)
local sink
local t_copy = per_call(N, 5, function() sink = "x" .. mixed end)
local t_get = per_call(4096 * 20, 3, function(i)
  return w:get_block(i % 16, math.floor(i / 256) % 16, math.floor(i / 16) % 16)
end)
local t_unload = per_call(N, 1, function(i) w:unload_chunk(i, 0, 0) end)
w.unset = "unloaded"
local t_unload_drop = per_call(N, 1, function(i) w:unload_chunk(i, 1, 0) end)
assert(#sink == 8193)
print(("streaming: load_chunk %.2f us (mixed ids; again over a loaded chunk %.2f us), "
  .. "%.2f us (one id); an 8 KB Lua string copy %.2f us"):format(t_mixed * 1e6,
  t_reload * 1e6, t_uniform * 1e6, t_copy * 1e6))
print(("streaming: unload_chunk %.2f us (unset = \"air\": kept as a marker), %.2f us "
  .. "(unset = \"unloaded\": entry dropped)"):format(t_unload * 1e6, t_unload_drop * 1e6))
print(("streaming: chunk_data %.2f us per chunk = %.2f ns per cell; get_block %.0f ns per cell")
  :format(t_read * 1e6, t_read * 1e9 / 4096, t_get * 1e9))
w:destroy()

-- The ring: columns (cx, cz) with |cx - pcx| < 8 (16 wide) and 0 <= cz - pcz + 4 < 8,
-- two chunks each (cy 3: the floor in its top layer; cy 4: air).
local FLOOR = chunk(function(_, y) return y == 15 and 1 or 0 end)
local AIR = string.rep("\0", 8192)

local function walk(streamed, ticks)
  local world = bp.World()
  world:define_block{ name = "stone" }
  local loaded, nloaded = {}, 0
  local function key(cx, cz) return cx * 65536 + cz end
  local function want(pcx, pcz)
    local t = {}
    for cx = pcx - 7, pcx + 8 do
      for cz = pcz - 4, pcz + 3 do t[key(cx, cz)] = { cx, cz } end
    end
    return t
  end
  local stream_time = 0
  local function update(px, pz)
    local t0 = clock()
    local w2 = want(math.floor(px / 16), math.floor(pz / 16))
    for k, c in pairs(w2) do
      if not loaded[k] then
        world:load_chunk(c[1], 3, c[2], FLOOR)
        world:load_chunk(c[1], 4, c[2], AIR)
        loaded[k] = c
        nloaded = nloaded + 2
      end
    end
    for k, c in pairs(loaded) do
      if not w2[k] then
        world:unload_chunk(c[1], 3, c[2])
        world:unload_chunk(c[1], 4, c[2])
        loaded[k] = nil
        nloaded = nloaded - 2
      end
    end
    stream_time = stream_time + clock() - t0
  end
  if streamed then
    world.unset = "unloaded"
    update(8, 8)
  else
    world:fill(-400, 63, -64, 1600, 63, 64, 1)
  end
  local rules = bp.rules.beta173{ push = false }
  local player = world:spawn{ x = 8, y = 64, z = 8, yaw = -90, rules = rules }
  player.forward = 1
  local mobs = {}
  for i = 1, 1000 do -- walking beside the player, in step with it
    local e = world:spawn{ x = 8 - 50 + (i % 100), y = 64, z = -30 + math.floor(i / 100) * 6,
                           yaw = -90, rules = rules }
    e.forward = 1
    mobs[i] = e
  end
  local t_step = 0
  for _ = 1, ticks do
    local t0 = clock()
    world:step()
    t_step = t_step + clock() - t0
    if streamed then update(player.x, player.z) end
  end
  local frozen = 0
  for _, e in ipairs(mobs) do if e.frozen then frozen = frozen + 1 end end
  local x = player.x
  world:destroy()
  return t_step / ticks, stream_time / ticks, x, nloaded, frozen
end

local TICKS = 600
local s_static = walk(false, TICKS)
local s_stream, s_load, x, nloaded, frozen = walk(true, TICKS)
local s_static2 = walk(false, TICKS)
print(("streaming ring: a walker and 1,000 mobs, %d ticks (the walker moved %.0f blocks), "
  .. "%d chunks loaded around it"):format(TICKS, x - 8, nloaded))
print(("streaming ring: world:step %.3f ms per tick streamed, %.3f / %.3f ms over a map "
  .. "loaded whole (before / after): ratio %.2f; loading and unloading %.4f ms per tick; "
  .. "%d mobs frozen at the ring's edge"):format(s_stream * 1e3, s_static * 1e3, s_static2 * 1e3,
  s_stream / ((s_static + s_static2) / 2), s_load * 1e3, frozen))
