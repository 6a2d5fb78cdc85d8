-- luacheck: std +busted
-- The game loop: world.tick_rate, world.max_ticks, world:advance(seconds) -> ticks,
-- alpha, dropped; world:positions / world:lerp_positions; e:set_input; world:step's dt
-- ceiling.
local bp = require "blockphys"
local C = require "helpers.compat"

local function flat_world()
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:fill(-64, 63, -64, 64, 63, 64, "stone")
  return w
end

describe("world:advance", function()
  it("has a clock of 20 ticks per second and at most 10 ticks a call by default", function()
    local w = bp.World()
    assert.equal(20, w.tick_rate)
    assert.equal(10, w.max_ticks)
  end)

  it("runs the whole ticks the advanced time holds and keeps the rest as alpha", function()
    local w = bp.World()
    -- 60 frames a second: a tick every third frame, alpha 1/3, 2/3, 0
    local got = {}
    for i = 1, 6 do
      local ticks, alpha, dropped = w:advance(1 / 60)
      got[i] = { ticks, alpha, dropped }
    end
    local third = 1 / 60 * 20
    assert.equal(0, got[1][1]); assert.near(third, got[1][2], 1e-12); assert.equal(0, got[1][3])
    assert.equal(0, got[2][1]); assert.near(2 * third, got[2][2], 1e-12)
    assert.equal(1, got[3][1]); assert.near(0, got[3][2], 1e-9)
    assert.equal(0, got[4][1]); assert.equal(0, got[5][1]); assert.equal(1, got[6][1])
  end)

  it("counts ticks over irregular frame times as the sum of the times does", function()
    local w = bp.World()
    local frames = { 0.013, 0.021, 0.004, 0.1, 0.0, 0.05, 0.033, 0.017, 0.25, 0.016 }
    local total, ticks = 0, 0
    for _, dt in ipairs(frames) do
      total = total + dt
      local n, alpha = w:advance(dt)
      ticks = ticks + n
      assert.is_true(alpha >= 0 and alpha < 1)
      assert.equal(math.floor(total * 20 + 1e-9), ticks)
      assert.near(total * 20 - ticks, alpha, 1e-9)
    end
  end)

  it("bounds the ticks of one call by max_ticks and reports the time dropped", function()
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 100, z = 0, rules = bp.rules.beta173{ gravity = 0 } }
    e.vy = 0.5 -- blocks/tick, kept (no gravity); drag 0.98 per tick
    local ticks, alpha, dropped = w:advance(2.025) -- 40.5 ticks due
    assert.equal(10, ticks)
    assert.near(0.5, alpha, 1e-9)
    assert.near(30 / 20, dropped, 1e-12)
    w.max_ticks = 3
    ticks, alpha, dropped = w:advance(1) -- 20.5 due
    assert.equal(3, ticks)
    assert.near(0.5, alpha, 1e-9)
    assert.near(17 / 20, dropped, 1e-12)
  end)

  it("keeps each model's speed per second at 20, 60 and 144 frames a second", function()
    local function walk(fps)
      local w = flat_world()
      local beta = w:spawn{ x = 0.5, y = 64, z = 0.5 }
      local mccpp = w:spawn{ x = 0.5, y = 64, z = 10.5, rules = bp.rules.mccpp() }
      beta.forward, mccpp.forward = 1, 1
      local frames = fps * 2 -- two seconds
      local ticks = 0
      for _ = 1, frames do ticks = ticks + (w:advance(1 / fps)) end
      return beta.z - 0.5, mccpp.z - 10.5, ticks
    end
    local b20, m20, t20 = walk(20)
    for _, fps in ipairs{ 60, 144 } do
      local b, m, t = walk(fps)
      assert.equal(t20, t)
      assert.equal(b20, b)
      assert.equal(m20, m)
    end
    assert.equal(40, t20)
    -- Beta walks 0.2158590 b/t on stone once up to speed: about 8.4 blocks in 2 s
    assert.is_true(b20 > 8 and b20 < 8.7)
  end)

  it("tick_rate changes the length of a tick; pending time keeps its seconds", function()
    local w = bp.World()
    w:advance(0.0125) -- a quarter of a tick at 20/s
    w.tick_rate = 40 -- the same 0.0125 s: half a tick at 40/s
    local ticks, alpha = w:advance(0)
    assert.equal(0, ticks)
    assert.near(0.5, alpha, 1e-12)
    ticks, alpha = w:advance(0.0125)
    assert.equal(1, ticks)
    assert.near(0, alpha, 1e-9)
    assert.equal(40, w.tick_rate)
  end)

  it("raises on bad fields and arguments, and inside a step", function()
    local w = bp.World()
    assert.has_error(function() w.tick_rate = 0 end,
      "world field 'tick_rate' must be a number in [1, 1000]")
    assert.has_error(function() w.tick_rate = 1001 end,
      "world field 'tick_rate' must be a number in [1, 1000]")
    for _, v in ipairs{ 0.999, 0.002, 1e-300, 5e-324, -1, 0 / 0, math.huge } do
      assert.has_error(function() w.tick_rate = v end,
        "world field 'tick_rate' must be a number in [1, 1000]")
    end
    assert.has_error(function() w.tick_rate = "x" end,
      "world field 'tick_rate' must be a number in [1, 1000]")
    assert.has_error(function() w.max_ticks = 0 end,
      "world field 'max_ticks' must be an integer in [1, 1000]")
    assert.has_error(function() w.max_ticks = 2.5 end,
      "world field 'max_ticks' must be an integer in [1, 1000]")
    assert.has_error(function() w.nope = 1 end, "world has no field 'nope'")
    assert.has_error(function() w:advance(-0.1) end,
      "bad argument #1 to 'advance' (seconds must be in [0, 600])")
    assert.has_error(function() w:advance(0 / 0) end,
      "bad argument #1 to 'advance' (number must be finite)")
    assert.equal(20, w.tick_rate)
    local e = w:spawn{ x = 0, y = 0, z = 0, rules = bp.rules.beta173{ jump = function()
      w:advance(1)
    end } }
    e.jumping = true
    local ok, err = pcall(w.step, w)
    assert.is_false(ok)
    assert.matches("world:advance: already stepping (called from a rules hook or filter)",
      err, 1, true)
  end)

  it("names itself in a failing tick's message and keeps the failed tick pending", function()
    local w = bp.World()
    local fail = true
    local e = w:spawn{ x = 0, y = 0, z = 0, rules = bp.rules.beta173{ jump = function()
      if fail then error("no", 0) end
    end } }
    e.jumping = true
    w:advance(0.03)
    assert.has_error(function() w:advance(0.03) end,
      "world:advance: rules hook 'jump' of entity 1 failed: no")
    fail = false
    local ticks = w:advance(0)
    assert.equal(1, ticks) -- the failed tick's time was still pending
  end)
end)

describe("world:advance's clock under any writes", function()
  -- A Beta entity whose jump hook runs once per tick (it jumps every tick, in the air).
  local function hooked(hook)
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 100, z = 0, rules = bp.rules.beta173{ gravity = 0, jump = hook } }
    e.jumping = true
    return w, e
  end

  it("refuses a rate below 1 from a hook: a tick is never longer than a second", function()
    local w
    w = hooked(function() w.tick_rate = 1e-300 end)
    local ok, err = pcall(w.advance, w, 0.05)
    assert.is_false(ok)
    assert.matches("world:advance: rules hook 'jump' of entity 1 failed: ", err, 1, true)
    assert.matches("world field 'tick_rate' must be a number in [1, 1000]", err, 1, true)
    assert.equal(20, w.tick_rate)
  end)

  it("runs a hook's new rate from the next tick and keeps alpha in [0, 1)", function()
    local w, n
    w, n = hooked(function() n = n + 1; if n == 1 then w.tick_rate = 1000 end end), 0
    -- 10 ticks due at 20/s; the first one's hook makes a tick 1 ms: 0.45 s is 450
    -- ticks, of which 9 run (max_ticks 10) and 441 (0.441 s) are dropped.
    local ticks, alpha, dropped = w:advance(0.5)
    assert.equal(10, ticks)
    assert.equal(10, n)
    assert.near(0, alpha, 1e-9)
    assert.near(0.441, dropped, 1e-9)
    -- lowered: 10 ticks due at 1000/s; the first one's hook makes a tick 1 s: 9 ms left
    w, n = hooked(function() n = n + 1; if n == 1 then w.tick_rate = 1 end end), 0
    w.tick_rate = 1000
    ticks, alpha, dropped = w:advance(0.01)
    assert.equal(1, ticks)
    assert.near(0.009, alpha, 1e-9)
    assert.equal(0, dropped)
  end)

  it("saturates the pending time a rescale would grow past 1001 ticks, and says so", function()
    local w, n
    w, n = hooked(function() n = n + 1; if n == 1 then w.tick_rate = 1000 end end), 0
    w.tick_rate, w.max_ticks = 1, 1000
    -- 600 ticks of 1 s due; the first one's hook makes the 600 s 600,000 ticks: 1001 kept
    -- (598.999 s dropped); the 1 s tick counts 1000 of them and the last one runs.
    local ticks, alpha, dropped = w:advance(600)
    assert.equal(2, ticks)
    assert.near(0, alpha, 1e-9)
    assert.near(598.999, dropped, 1e-9)
  end)

  it("stays finite with alpha in [0, 1) over any order of writes (the issue's repros)", function()
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 100, z = 0, rules = bp.rules.mccpp() }
    e.forward = 1
    assert.has_error(function() w.tick_rate = 5e-324 end)
    w.tick_rate = 1
    local _, a1, d1 = w:advance(600)
    w.tick_rate = 1000
    local t2, a2, d2 = w:advance(600)
    for _, v in ipairs{ a1, d1, a2, d2 } do assert.is_true(v == v and v > -1 and v < 1e9) end
    assert.equal(10, t2)
    assert.is_true(math.abs(e.x) < 1e4 and math.abs(e.y) < 1e4 and math.abs(e.z) < 1e4)
    -- a pseudo-random walk over rates, max_ticks and frame times
    local seed = 12345
    local function rnd() seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648 end
    for _ = 1, 300 do
      local r = rnd()
      if r < 0.3 then w.tick_rate = 1 + rnd() * 999
      elseif r < 0.4 then w.max_ticks = 1 + math.floor(rnd() * 20)
      else
        local ticks, alpha, dropped = w:advance(rnd() < 0.1 and 600 * rnd() or rnd() * 0.1)
        assert.is_true(ticks >= 0 and ticks <= w.max_ticks)
        assert.is_true(alpha >= 0 and alpha < 1)
        assert.is_true(dropped >= 0 and dropped <= 1e6)
      end
    end
  end)
end)

describe("world:step's dt", function()
  it("refuses more than a second: a dt in milliseconds is an error, not a jump", function()
    local w = bp.World()
    assert.has_error(function() w:step(50) end,
      "bad argument #1 to 'step' (dt must be in [1e-06, 1] seconds)")
    assert.equal(1, bp.limits.max_dt)
  end)
end)

describe("world:positions and world:lerp_positions", function()
  it("give every entity's position in entities() order, flat", function()
    local w = flat_world()
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    local b = w:spawn{ x = 3.25, y = 70, z = -2 }
    a.forward = 1
    w:step(); w:step()
    local p = w:positions()
    assert.same({ a.x, a.y, a.z, b.x, b.y, b.z }, p)
    local l = w:lerp_positions(0.25)
    local ax, ay, az = a:lerp(0.25)
    local bx, by, bz = b:lerp(0.25)
    assert.same({ ax, ay, az, bx, by, bz }, l)
    assert.same(p, w:lerp_positions(1))
  end)

  it("fill a given table and clear what it held beyond", function()
    local w = flat_world()
    w:spawn{ x = 0.5, y = 64, z = 0.5 }
    local out = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }
    assert.equal(out, w:positions(out))
    assert.same({ 0.5, 64, 0.5 }, out)
    assert.equal(out, w:lerp_positions(0.5, out))
    assert.equal(3, #out)
    assert.same({}, bp.World():positions())
  end)

  it("raise on bad arguments", function()
    local w = bp.World()
    assert.has_error(function() w:positions(5) end,
      "bad argument #1 to 'positions' (table expected, got number)")
    assert.has_error(function() w:lerp_positions(1 / 0) end,
      "bad argument #1 to 'lerp_positions' (number must be finite)")
  end)
end)

describe("e:set_input", function()
  it("sets the five inputs as the fields do", function()
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 0, z = 0 }
    e:set_input(1, -0.5, 90, true, false)
    assert.same({ 1, -0.5, 90, true, false }, { e.forward, e.strafe, e.yaw, e.jumping, e.sneaking })
    e:set_input(0, 0, -45)
    assert.same({ 0, 0, -45, false, false }, { e.forward, e.strafe, e.yaw, e.jumping, e.sneaking })
  end)

  it("checks every argument before changing any", function()
    local w = bp.World()
    local e = w:spawn{ x = 0, y = 0, z = 0 }
    e:set_input(0.5, 0.5, 10, true, true)
    for _, case in ipairs{
      { { 2, 0, 0 }, "bad argument #1 to 'set_input' (forward must be in [-1, 1])" },
      { { 0, -1.5, 0 }, "bad argument #2 to 'set_input' (strafe must be in [-1, 1])" },
      { { 0, 0, 0 / 0 }, "bad argument #3 to 'set_input' (number must be finite)" },
      { { 0, 0, 0, 1 }, "bad argument #4 to 'set_input' (boolean or nil expected, got number)" },
      { { 0, 0, 0, false, "x" }, "bad argument #5 to 'set_input' (boolean or nil expected, got string)" },
    } do
      assert.has_error(function() e:set_input(C.unpack_table(case[1], 1, 5)) end, case[2])
      assert.same({ 0.5, 0.5, 10, true, true }, { e.forward, e.strafe, e.yaw, e.jumping, e.sneaking })
    end
  end)
end)

describe("world:set_inputs", function()
  it("sets every entity's five inputs from one flat array, in entities() order", function()
    local w = bp.World()
    local a = w:spawn{ x = 0, y = 0, z = 0 }
    local b = w:spawn{ x = 5, y = 0, z = 0 }
    w:set_inputs{ 1, -1, 90, true, nil, -0.5, 0.25, -30, false, true }
    assert.same({ 1, -1, 90, true, false }, { a.forward, a.strafe, a.yaw, a.jumping, a.sneaking })
    assert.same({ -0.5, 0.25, -30, false, true },
      { b.forward, b.strafe, b.yaw, b.jumping, b.sneaking })
  end)

  it("changes nothing when a value is wrong, and names it", function()
    local w = bp.World()
    local a = w:spawn{ x = 0, y = 0, z = 0 }
    local b = w:spawn{ x = 5, y = 0, z = 0 }
    a:set_input(0.5, 0.5, 10, true, true)
    b:set_input(0.5, 0.5, 10, true, true)
    for _, case in ipairs{
      { { 0, 0, 0, false, false, 2, 0, 0, false, false },
        "set_inputs: inputs[6] (the forward of entity 2) must be a number in [-1, 1]" },
      { { 0, 0, 0, false, false, 0, 0, 0 / 0, false, false },
        "set_inputs: inputs[8] (the yaw of entity 2) must be a finite number" },
      { { 0, 0, 0, 1, false },
        "set_inputs: inputs[4] (the jumping of entity 1) must be a boolean or nil" },
      { { 0, 0, 0, false, false },
        "set_inputs: inputs[6] (the forward of entity 2) must be a finite number" },
    } do
      assert.has_error(function() w:set_inputs(case[1]) end, case[2])
      for _, e in ipairs{ a, b } do
        assert.same({ 0.5, 0.5, 10, true, true }, { e.forward, e.strafe, e.yaw, e.jumping, e.sneaking })
      end
    end
    assert.has_error(function() w:set_inputs(5) end,
      "bad argument #1 to 'set_inputs' (table expected, got number)")
  end)
end)
