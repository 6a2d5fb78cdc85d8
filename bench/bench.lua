--- make bench: throughput of world:step against two pure-Lua implementations of the
-- same rules run by the same interpreter: the strongest baseline (bench/lua_fast.lua:
-- flat arrays, chunked storage, exact to the bit, checked here) and a general one
-- (bench/lua_axis.lua: blocks in one hash, as a plain Lua port would keep them);
-- instructions per entity-tick (callgrind), memory per stored block, fill time and
-- the cost of single moves. Prints measurements and ratios from this one run; no
-- target is asserted here (docs/performance.md lists the targets).
local bp = require "blockphys"
local lua_axis = require "lua_axis"
local lua_fast = require "lua_fast"

local SIZE, TICKS = 256, 200
local mode, arg_n, arg_ticks = arg[1], tonumber(arg[2]), tonumber(arg[3])

-- The interpreter running the bench (`luajit bench/bench.lua`: "luajit"), for the
-- callgrind child, and world:step's target against the pure-Lua baseline that the same
-- interpreter runs: 40x under Lua 5.x, 4x under LuaJIT, whose compiler speeds the
-- baseline up and not the C core.
local LUA = (function()
  local i = -1
  while arg[i - 1] do i = i - 1 end
  return arg[i] or "lua5.4"
end)()
local JIT = type(jit) == "table" -- luacheck: ignore 113
local TARGET = JIT and 4 or 40

local function height(x, z)
  return 40 + math.floor(6 * math.sin(x * 0.07) + 5 * math.cos(z * 0.09) + 3 * math.sin((x + z) * 0.13))
end

local function is_slab(x, z) return (x * 7 + z * 13) % 11 == 0 end
local function is_pillar(x, z) return x % 16 == 5 and z % 16 == 9 end

-- The scene, through a callback per column: (x, z, top, slab, pillar).
local function each_column(fn)
  for x = 0, SIZE - 1 do
    for z = 0, SIZE - 1 do
      fn(x, z, height(x, z), is_slab(x, z), is_pillar(x, z))
    end
  end
end

local function build_c()
  local w = bp.World()
  local stone = w:define_block{ name = "stone" }
  local slab = w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  local t0 = os.clock()
  each_column(function(x, z, top, s, p)
    w:fill(x, 0, z, x, top - 1, z, stone)
    if p then w:fill(x, top, z, x, top + 2, z, stone)
    elseif s then w:set_block(x, top, z, slab) end
  end)
  return w, os.clock() - t0
end

local function build_fast()
  local w = lua_fast.new_world()
  lua_fast.define(w, 1, { { 0, 0, 0, 1, 1, 1 } })
  lua_fast.define(w, 2, { { 0, 0, 0, 1, 0.5, 1 } })
  each_column(function(x, z, top, s, p)
    for y = 0, top - 1 do lua_fast.set(w, x, y, z, 1) end
    if p then for y = top, top + 2 do lua_fast.set(w, x, y, z, 1) end
    elseif s then lua_fast.set(w, x, top, z, 2) end
  end)
  return w
end

local function build_lua()
  local w = lua_axis.new_world()
  lua_axis.define(w, 1, { { 0, 0, 0, 1, 1, 1 } })
  lua_axis.define(w, 2, { { 0, 0, 0, 1, 0.5, 1 } })
  local t0 = os.clock()
  each_column(function(x, z, top, s, p)
    for y = 0, top - 1 do lua_axis.set(w, x, y, z, 1) end
    if p then for y = top, top + 2 do lua_axis.set(w, x, y, z, 1) end
    elseif s then lua_axis.set(w, x, top, z, 2) end
  end)
  return w, os.clock() - t0
end

-- Entity i: spawn point inside the terrain, fixed heading, periodic jumps.
local function spawn_point(i)
  local x = 48 + (i * 7919) % 160 + 0.5
  local z = 48 + (i * 104729) % 160 + 0.5
  return x, height(math.floor(x), math.floor(z)) + 1, z, (i * 37) % 360
end

local function jumps(i, t) return (t + i) % 20 == 0 end

-- The two implementations of the scene: spawn n entities, run tick t for all of them,
-- then read their final positions (and clear them away).
local impl_c = {
  spawn = function(w, n)
    local es = {}
    -- One rules table for all (spawn copies it): a table per entity would leave ~2 KB
    -- of garbage between consecutive entity userdata, and the per-tick field writes
    -- would then touch a new cache line and page for each entity.
    local rules = bp.rules.beta173{ push = false }
    for i = 1, n do
      local x, y, z, yaw = spawn_point(i)
      local e = w:spawn{ x = x, y = y, z = z, yaw = yaw, rules = rules }
      e.forward = 1
      es[i] = e
    end
    return es
  end,
  tick = function(w, es, t)
    for i = 1, #es do es[i].jumping = jumps(i, t) end
    w:step()
  end,
  finish = function(w, es)
    local pos = {}
    for i = 1, #es do
      pos[i] = { es[i]:position() }
      w:remove(es[i])
    end
    return pos
  end,
}

local impl_lua = {
  spawn = function(_, n)
    local es = {}
    for i = 1, n do
      local x, y, z, yaw = spawn_point(i)
      es[i] = lua_axis.spawn(x, y, z, yaw)
    end
    return es
  end,
  tick = function(w, es, t)
    for i = 1, #es do
      local e = es[i]
      e.jumping = jumps(i, t)
      lua_axis.tick(w, e)
    end
  end,
  finish = function(_, es)
    local pos = {}
    for i = 1, #es do
      local b = es[i].box
      pos[i] = { (b[1] + b[4]) / 2, b[2], (b[3] + b[6]) / 2 }
    end
    return pos
  end,
}

local impl_fast = {
  spawn = function(_, n)
    for i = 1, n do
      local x, y, z, yaw = spawn_point(i)
      lua_fast.spawn(i, x, y, z, yaw)
    end
    return n
  end,
  tick = function(w, n, t)
    local tick = lua_fast.tick
    for i = 1, n do tick(w, i, jumps(i, t)) end
  end,
  finish = function(_, n)
    local s, pos = lua_fast.state, {}
    for i = 1, n do
      pos[i] = { (s.X1[i] + s.X2[i]) / 2, s.Y1[i], (s.Z1[i] + s.Z2[i]) / 2 }
    end
    return pos
  end,
}

-- Run the ticks of one implementation from `from` to `to`; CPU seconds taken.
local function run_ticks(impl, w, es, from, to)
  local t0 = os.clock()
  for t = from, to do impl.tick(w, es, t) end
  return os.clock() - t0
end

-- Run both implementations over the same ticks in alternating segments of SEGMENT
-- ticks (C 1-20, Lua 1-20, C 21-40, ...), so that a change of machine load during
-- the run weighs on both alike; each side's caches warm up again within a segment.
local SEGMENT = 50
local function run_both(cw, lw, fw, n, ticks)
  local ces, les, fes = impl_c.spawn(cw, n), impl_lua.spawn(lw, n), impl_fast.spawn(fw, n)
  local tc, tl, tf = 0, 0, 0
  for from = 1, ticks, SEGMENT do
    local to = math.min(ticks, from + SEGMENT - 1)
    tc = tc + run_ticks(impl_c, cw, ces, from, to)
    tl = tl + run_ticks(impl_lua, lw, les, from, to)
    tf = tf + run_ticks(impl_fast, fw, fes, from, to)
  end
  return tc, impl_c.finish(cw, ces), tl, impl_lua.finish(lw, les), tf, impl_fast.finish(fw, fes)
end

-- How many entities end at exactly the same position in both (every bit).
local function exact(pc, pf)
  local same = 0
  for i = 1, #pc do
    if pc[i][1] == pf[i][1] and pc[i][2] == pf[i][2] and pc[i][3] == pf[i][3] then
      same = same + 1
    end
  end
  return same
end

-- How many entities end within 0.01 blocks of each other in both implementations
-- (the baseline computes in double where the game and world:step use float, so a few
-- drift apart after 200 ticks; most agree).
local function agreement(pc, pl)
  local close = 0
  for i = 1, #pc do
    local d = 0
    for a = 1, 3 do d = math.max(d, math.abs(pc[i][a] - pl[i][a])) end
    if d < 0.01 then close = close + 1 end
  end
  return close
end

-- Callgrind mode: only the steps are counted (--toggle-collect=bp_world_step_hooks).
if mode == "--steps-only" then
  local w = build_c()
  run_ticks(impl_c, w, impl_c.spawn(w, arg_n), 1, arg_ticks)
  return
end

local function fmt(n) return string.format("%.3g", n) end

local function callgrind_instructions(n, ticks)
  local found = os.execute("command -v valgrind >/dev/null 2>&1")
  if found ~= true and found ~= 0 then return nil end -- true from Lua 5.2 on, 0 before
  local out = os.tmpname()
  local cmd = string.format(
    "valgrind --tool=callgrind --callgrind-out-file=%s --toggle-collect=bp_world_step_hooks " ..
    "%s -e 'package.path=%q; package.cpath=%q' bench/bench.lua --steps-only %d %d >/dev/null 2>&1",
    out, LUA, package.path, package.cpath, n, ticks)
  os.execute(cmd)
  local f = io.open(out)
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  os.remove(out)
  local total = text:match("\nsummary:%s*(%d+)") or text:match("\ntotals:%s*(%d+)")
  return total and tonumber(total) / (n * ticks)
end

local function move_costs()
  local w = bp.World()
  w:fill(-2, 0, -2, 1100, 0, 2, w:define_block{ name = "stone" })
  local e = w:spawn{ x = 0.5, y = 1, z = 0.5, rules = bp.rules.beta173{ step_height = 0 } }
  local res = {}
  for _, d in ipairs{ 1, 10, 100 } do
    local reps = math.floor(100000 / d)
    for _ = 1, 5 do -- the best of 5 rounds: a short measure is easily disturbed
      local t0 = os.clock()
      for _ = 1, reps do
        e:teleport(0.5, 1, 0.5)
        e:move(d, -0.01, 0)
      end
      res[d] = math.min(res[d] or math.huge, (os.clock() - t0) / reps)
    end
  end
  return res
end

local path = JIT and (require("blockphys.ffi").active and ", FFI fast path" or ", classic API") or ""
print(("blockphys bench (%s, %s%s), terrain %dx%d columns, %d ticks"):format(bp._VERSION,
  JIT and jit.version or _VERSION, path, SIZE, SIZE, TICKS)) -- luacheck: ignore 113
local cw, cfill = build_c()
local stats = cw:stats()
print(("world: %d stored blocks, %d chunks, %d bytes: %.3f bytes per stored block (target <= 2.5)")
  :format(stats.blocks, stats.chunks, stats.bytes, stats.bytes / stats.blocks))
print(("fill time (C world, %d fill calls): %.3f s"):format(SIZE * SIZE, cfill))
local lw, lfill = build_lua()
print(("fill time (pure-Lua table world): %.3f s"):format(lfill))
local fw = build_fast()

for _, n in ipairs{ 1000, 10000 } do
  local tc, pc, tl, pl, tf, pf = run_both(cw, lw, fw, n, TICKS)
  local rc, rl, rf = n * TICKS / tc, n * TICKS / tl, n * TICKS / tf
  print(("N=%-6d exactness check (strongest baseline): %d of %d entities end at the same "
    .. "position, every bit"):format(n, exact(pc, pf), n))
  print(("N=%-6d same rules check (general baseline): %d of %d entities end within 0.01 blocks in both")
    :format(n, agreement(pc, pl), n))
  print(("N=%-6d world:step %s entity-ticks/s | strongest pure-Lua baseline %s: ratio %.1fx "
    .. "| general pure-Lua baseline %s: ratio %.1fx (target >= %dx)")
    :format(n, fmt(rc), fmt(rf), rc / rf, fmt(rl), rc / rl, TARGET))
end

local ipt = callgrind_instructions(1000, 50)
if ipt then
  print(("instructions per entity-tick in world:step (callgrind, N=1000, 50 ticks): %.0f (target <= 400)"):format(ipt))
else
  print("instructions per entity-tick: valgrind not available")
end

local mc = move_costs()
print(("one move along a floor: 1 block %.2f us, 10 blocks %.2f us, 100 blocks %.2f us; "
  .. "ratios 10/1 = %.2f, 100/10 = %.2f")
  :format(mc[1] * 1e6, mc[10] * 1e6, mc[100] * 1e6, mc[10] / mc[1], mc[100] / mc[10]))
