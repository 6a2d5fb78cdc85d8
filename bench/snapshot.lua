--- make bench: the cost of snapshots (issue 34) on bench/bench.lua's world (256 x 256
-- columns, about 2.6 M stored blocks) with 10,000 entities: world:snapshot plus
-- world:restore with no terrain edit (target <= 2 ms together), world:hash against a
-- world:step, encode and decode, and what one block edit between two snapshots copies
-- (one chunk). Prints measurements from this one run; no target is asserted here
-- (docs/performance.md lists the targets).
local bp = require "blockphys"

local SIZE, N = 256, 10000

-- bench/bench.lua's terrain and spawn points.
local function height(x, z)
  return 40 + math.floor(6 * math.sin(x * 0.07) + 5 * math.cos(z * 0.09) + 3 * math.sin((x + z) * 0.13))
end

local w = bp.World()
local stone = w:define_block{ name = "stone" }
local slab = w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
for x = 0, SIZE - 1 do
  for z = 0, SIZE - 1 do
    local top = height(x, z)
    w:fill(x, 0, z, x, top - 1, z, stone)
    if x % 16 == 5 and z % 16 == 9 then w:fill(x, top, z, x, top + 2, z, stone)
    elseif (x * 7 + z * 13) % 11 == 0 then w:set_block(x, top, z, slab) end
  end
end
local rules = bp.rules.beta173{ push = false }
for i = 1, N do
  local x = 48 + (i * 7919) % 160 + 0.5
  local z = 48 + (i * 104729) % 160 + 0.5
  local e = w:spawn{ x = x, y = height(math.floor(x), math.floor(z)) + 1, z = z,
                     yaw = (i * 37) % 360, rules = rules }
  e.forward = 1
end
for _ = 1, 20 do w:step() end
w:events() -- a game reads its events every tick: the queue is empty between ticks

-- The smallest mean of `reps` calls of fn over 5 rounds (CPU seconds per call).
local function time(reps, fn)
  local best = math.huge
  for _ = 1, 5 do
    local t0 = os.clock()
    for _ = 1, reps do fn() end
    best = math.min(best, (os.clock() - t0) / reps)
  end
  return best
end

local st = w:stats()
print(("snapshot bench (%s): %d stored blocks, %d chunks, %d entities"):format(
  type(jit) == "table" and jit.version or _VERSION, st.blocks, st.chunks, N)) -- luacheck: ignore 113
-- A rollback loop keeps a ring of snapshots and takes each tick's into the oldest
-- (world:snapshot(into)): no allocation in the steady state.
local snap = w:snapshot()
local t_snap = time(20, function() w:snapshot(snap) end)
local t_restore = time(20, function() w:restore(snap) end)
local t_both = time(20, function() w:restore(w:snapshot(snap)) end)
local t_new = time(5, function() return w:snapshot() end)
collectgarbage()
local t_step = time(5, function() w:step(); w:events() end)
local t_hash = time(20, function() return w:hash() end)
print(("world:snapshot(into) %.3f ms + world:restore %.3f ms = %.3f ms (measured together: %.3f ms; target <= 2 ms)")
  :format(t_snap * 1e3, t_restore * 1e3, (t_snap + t_restore) * 1e3, t_both * 1e3))
print(("a new snapshot each time (fresh memory): world:snapshot() %.3f ms"):format(t_new * 1e3))
print(("world:step (N=%d) %.3f ms; world:hash %.3f ms = %.2f of a step"):format(N, t_step * 1e3,
  t_hash * 1e3, t_hash / t_step))
local bytes
local t_enc = time(3, function() bytes = snap:encode() end)
local t_dec = time(3, function() return bp.decode_snapshot(bytes) end)
print(("snap:encode %.1f ms, %d bytes (%.1f per entity with the blocks); bp.decode_snapshot %.1f ms")
  :format(t_enc * 1e3, #bytes, #bytes / N, t_dec * 1e3))
snap = nil -- the only snapshot left is `a`: what it shares, it shares with the world
collectgarbage()
local a = w:snapshot()
local shared = a:shared_chunks()
w:set_block(100, height(100, 100) - 1, 100, slab) -- at the surface: a chunk with an array
local b = w:snapshot()
print(("one block edit between two snapshots: %d of %d shared chunk arrays copied; the next snapshot shares %d")
  :format(shared - a:shared_chunks(), shared, b:shared_chunks()))
