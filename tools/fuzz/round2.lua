--- The attack suite's second round (issue 31): the repros of the game-loop clock
-- (slow, denormal and rescaled rates, hooks that change the rate inside an advance),
-- still-box sweeps up to side 2e9, colliders crossed by one sweep_all, piles of solid
-- entities, sweep_all filter errors, and the bulk calls re-entered from a finalizer
-- (LuaJIT's FFI path shared one buffer). Portable: CI's short fuzz runs this group
-- under every interpreter (FUZZ_GROUPS=round2). Each must end in bounded time with
-- finite results.
--
-- Source: our own.

local bp = require "blockphys"
local H = require "harness"

local check, is_message = H.check, H.is_message
local huge = math.huge

local function finite(v) return v == v and v > -huge and v < huge end

local round2 = {}

-- An MC-CPP walker on a floor, and its world.
local function walker_world(hook)
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:fill(-16, -1, -16, 16, -1, 16, "stone")
  local e = w:spawn{ x = 0.5, y = 0, z = 0.5, rules = bp.rules.mccpp{ jump = hook } }
  e.forward = 1
  if hook then e.jumping = true end
  return w, e
end

-- The walker moved no more than `ticks` full steps of 1 s can carry it.
local function bounded(e, x0, y0, z0, ticks)
  local lim = 1024 * ticks
  check(finite(e.x) and finite(e.y) and finite(e.z), "position %s %s %s", e.x, e.y, e.z)
  check(math.abs(e.x - x0) <= lim and math.abs(e.y - y0) <= lim and math.abs(e.z - z0) <= lim,
    "moved %s %s %s in %d ticks", e.x - x0, e.y - y0, e.z - z0, ticks)
end

local function advance_ok(w, seconds)
  local ticks, alpha, dropped = w:advance(seconds)
  check(ticks >= 0 and ticks <= w.max_ticks, "ticks %s", ticks)
  check(alpha >= 0 and alpha < 1, "alpha %s", alpha)
  check(finite(dropped) and dropped >= 0, "dropped %s", dropped)
  return ticks, alpha, dropped
end

function round2.cases(mode)
  local full = mode == "full"
  local c = {}
  local function add(name, seconds, mb, run)
    c[#c + 1] = { name = name, seconds = seconds, kb = mb * 1024, run = run }
  end

  add("clock: slow and denormal rates are refused", 5, 64, function()
    local w, e = walker_world()
    for _, r in ipairs{ 0.002, 1e-300, 5e-324, 0, -1, 0 / 0, huge, 1001, 0.999 } do
      local ok, err = pcall(function() w.tick_rate = r end)
      check(not ok and is_message(err), "tick_rate = %s accepted", tostring(r))
    end
    check(w.tick_rate == 20, "tick_rate %s", w.tick_rate)
    local x, y, z = e.x, e.y, e.z
    local ticks = advance_ok(w, 500)
    bounded(e, x, y, z, ticks)
  end)

  add("clock: rescales in any order stay finite", 10, 64, function()
    local w, e = walker_world()
    local rates = { 1, 1000, 1, 1000, 3.7, 999.9, 1, 1 }
    for i, r in ipairs(rates) do
      w.tick_rate = r
      w.max_ticks = i % 2 == 0 and 1000 or 1
      local x, y, z = e.x, e.y, e.z
      local ticks = advance_ok(w, i % 3 == 0 and 600 or 0.001)
      bounded(e, x, y, z, ticks)
    end
    local ticks = advance_ok(w, 0)
    check(ticks <= w.max_ticks, "ticks %d", ticks)
  end)

  add("clock: hooks change the rate inside an advance", 20, 64, function()
    local w
    local n = 0
    local rates = { 1000, 1, 1000, 20, 1e-300, 5e-324 }
    w = walker_world(function()
      n = n + 1
      w.tick_rate = rates[(n - 1) % #rates + 1] -- the last two raise: the tick fails
      if n % 7 == 0 then w.max_ticks = 1 + n % 1000 end
    end)
    w.max_ticks = 1000
    local e = w:entities()[1]
    for _ = 1, 40 do
      local x, y, z = e.x, e.y, e.z
      local ok, ticks, alpha, dropped = pcall(w.advance, w, 3)
      if ok then
        check(alpha >= 0 and alpha < 1, "alpha %s", alpha)
        check(finite(dropped) and dropped >= 0, "dropped %s", dropped)
        bounded(e, x, y, z, ticks)
      else
        check(is_message(ticks), "raised a %s", type(ticks))
        bounded(e, x, y, z, 1000)
      end
      check(w.tick_rate >= 1 and w.tick_rate <= 1000, "tick_rate %s", w.tick_rate)
    end
  end)

  add("sweep_all: still boxes up to side 2e9", 5, 64, function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:set_block(3, 3, 3, "stone")
    for _, side in ipairs{ 256, 8000, 20000, 2e9 } do
      local ok, err = pcall(w.sweep_all, w, bp.Collider(0, 0, 0, side, side, side), 0, 0, 0)
      check(not ok and is_message(err) and err:find("region too large", 1, true),
        "side %s: %s", side, tostring(err))
    end
    check(#w:sweep_all(bp.Collider(0.5, 0.5, 0.5, 255.5, 255.5, 255.5), 0, 0, 0) == 1, "the block")
  end)

  local ncol = full and bp.limits.max_query_boxes + 1 or 200000
  add(ncol .. " colliders crossed by one sweep_all", full and 30 or 10, full and 1200 or 400, function()
    local w = bp.World()
    local unit = bp.Collider(0, 0, 0, 1, 1, 1)
    for _ = 1, ncol do w:add_collider(unit) end
    local ok, r = pcall(w.sweep_all, w, bp.Collider(0.5, 0.5, 0.5, 0.6, 0.6, 0.6), 0.1, 0, 0,
      function() return false end)
    if ncol > bp.limits.max_query_boxes then
      check(not ok and is_message(r), "past the bound: %s", tostring(r))
    else
      check(ok and #r == 0, "%s", tostring(r))
    end
  end)

  add("sweep_all: filter errors are wrapped", 5, 64, function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:set_block(2, 0, 0, "stone")
    for _, v in ipairs{ "x", {}, false, 5 } do
      local ok, err = pcall(w.sweep_all, w, bp.Collider(0, 0, 0, 0.5, 0.5, 0.5), 8, 0, 0,
        function() error(v) end)
      check(not ok and is_message(err) and err:find("^sweep_all: filter failed: "),
        "%s", tostring(err))
    end
  end)

  local piles = full and { 8000, 32000 } or { 8000 }
  for _, n in ipairs(piles) do
    add("a pile of " .. n .. " solid entities, stepped", full and 60 or 20, full and 512 or 256, function()
      local w = bp.World()
      w:define_block{ name = "stone" }
      w:fill(-64, -1, -64, 64, -1, 64, "stone")
      for i = 1, n do
        local a = i * 2.399963
        w:spawn{ x = 0.1 * math.cos(a), y = 0, z = 0.1 * math.sin(a), solid = true }
      end
      for _ = 1, 3 do w:step() end
      for _, e in ipairs(w:entities()) do
        check(finite(e.x) and finite(e.y) and finite(e.z), "entity at %s %s %s", e.x, e.y, e.z)
      end
    end)
  end

  add("positions and set_inputs re-entered from a finalizer", 10, 128, function()
    local a, b = bp.World(), bp.World()
    local N = 3000
    for i = 1, N do a:spawn{ x = i, y = 0, z = 0 } end
    for i = 1, N do b:spawn{ x = -i, y = 5, z = 7 } end
    local b_in = {}
    for i = 1, N do b_in[5 * i - 4], b_in[5 * i - 3], b_in[5 * i - 2] = -1, -1, 10 end
    local newproxy = rawget(_G, "newproxy")
    local jit = rawget(_G, "jit")
    if jit then jit.off() end
    for round = 1, 10 do
      local f = function() b:positions(); b:set_inputs(b_in) end
      if newproxy then
        getmetatable(newproxy(true)).__gc = f -- the proxy is garbage at once
      else
        setmetatable({}, { __gc = f })
      end
      local fired = false
      debug.sethook(function()
        if not fired then fired = true; collectgarbage() end
      end, "", 200 + 50 * round)
      local out = a:positions({})
      debug.sethook()
      for i = 1, N do
        check(out[3 * i - 2] == i and out[3 * i - 1] == 0, "round %d: entity %d at %s", round, i,
          tostring(out[3 * i - 2]))
      end
    end
    if jit then jit.on() end
  end)

  return c
end

return round2
