-- luacheck: std +busted
-- e:native_heading and e:native_jump: the native stages, callable from a hook that
-- wraps them (docs/api.md, "Rules": a rules table's Lua function replaces or wraps a
-- stage). A hook that only calls them must give the same results, bit for bit, as no
-- hook; the stages themselves: docs/beta173.md sections 0 and 1,
-- docs/mccpp.md.
local bp = require "blockphys"
local H = require "helpers.world"
local f32 = H.f32

local function wrapping(rules_fn)
  return rules_fn{
    heading = function(e, strafe, forward, k) return e:native_heading(strafe, forward, k) end,
    jump = function(e) e:native_jump() end,
  }
end

-- Two entities of each kind on the rough terrain, one with the pass-through hooks,
-- under the same seeded input; every field compared after every tick.
local function same_runs(rules_fn, dt)
  local w = H.world()
  H.terrain(w, 11, 16)
  local plain = w:spawn{ x = 4.5, y = 8, z = 4.5, rules = rules_fn{ push = false } }
  local hooked = w:spawn{ x = 4.5, y = 8, z = 4.5, rules = wrapping(rules_fn) }
  hooked.rules.push = false
  local rand = H.rng(5)
  for tick = 1, 600 do
    H.random_input({ plain }, rand)
    for _, k in ipairs{ "forward", "strafe", "yaw", "jumping", "sneaking" } do
      hooked[k] = plain[k]
    end
    w:step(dt)
    for _, k in ipairs{ "x", "y", "z", "vx", "vy", "vz", "on_ground", "in_water", "fall_distance" } do
      assert.equal(plain[k], hooked[k], ("tick %d, %s"):format(tick, k))
    end
  end
end

describe("native stages", function()
  it("Beta: hooks that call e:native_heading and e:native_jump change nothing", function()
    same_runs(bp.rules.beta173)
  end)

  it("MC-CPP: the same, per second", function()
    same_runs(bp.rules.mccpp, 1 / 20)
  end)

  it("lets a hook wrap the heading: twice the native change", function()
    local function world_with(rules)
      local w = H.world()
      H.flat(w, 0)
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5, rules = rules }
      w:step(); w:step()
      e.forward = 1
      w:step()
      return e
    end
    local native = world_with(bp.rules.beta173())
    local double = world_with(bp.rules.beta173{ heading = function(e, s, f, k)
      local dx, dz = e:native_heading(s, f, k)
      return 2 * dx, 2 * dz
    end })
    assert.is_true(native.vz > 0)
    assert.equal(2 * native.vz, double.vz) -- the friction after the move is linear
  end)

  it("computes Beta's moveFlying in float, outside a step too", function()
    local w = H.world()
    local e = w:spawn{ x = 0, y = 10, z = 0 }
    local dx, dz = e:native_heading(0, 1, 0.1)
    assert.equal(0, dx)
    assert.equal(f32(0.1), dz) -- yaw 0 faces +Z
    e.yaw = 90
    dx, dz = e:native_heading(0, 1, 0.1)
    assert.equal(-f32(0.1), dx) -- yaw 90 faces -X
    assert.is_true(math.abs(dz) < 1e-15) -- the table's cosine at 90 degrees is not 0
    dx, dz = e:native_heading(0.005, 0.005, 0.1) -- |input| < 0.01: nothing
    assert.equal(0, dx)
    assert.equal(0, dz)
    -- longer input is normalised: (1, 1) gives length k
    e.yaw = 0
    dx, dz = e:native_heading(1, 1, 0.1)
    assert.near(0.1, math.sqrt(dx * dx + dz * dz), 1e-7)
    assert.equal(f32(dx), dx)
  end)

  it("jumps as the native stage: on the ground, in water, not in the air", function()
    local w = H.world()
    H.flat(w, 0)
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    w:step(); w:step()
    assert.is_true(e.on_ground)
    e:native_jump()
    assert.equal(f32(0.42), e.vy)
    e:teleport(0.5, 20, 0.5)
    e.vy = -0.5
    e:native_jump()
    assert.equal(-0.5, e.vy) -- in the air: nothing
    local m = w:spawn{ x = 5.5, y = 1, z = 5.5, rules = bp.rules.mccpp{ integrator = "mccpp" } }
    w:step(1 / 20); w:step(1 / 20)
    assert.is_true(m.on_ground)
    m:native_jump()
    assert.equal(math.sqrt(2 * 1.25 * 32), m.vy)
  end)

  it("swims up in water by liquid_jump", function()
    local w = H.world()
    w:fill(-3, 0, -3, 3, 0, 3, "stone")
    w:fill(-3, 1, -3, 3, 4, 3, "water")
    local vy
    local e = w:spawn{ x = 0.5, y = 2, z = 0.5, rules = bp.rules.beta173{ jump = function(self)
      local before = self.vy
      self:native_jump()
      vy = self.vy - before
    end } }
    e.jumping = true
    w:step()
    assert.is_true(e.in_water)
    assert.equal(f32(0.04), vy)
  end)

  -- Inside a step, a velocity these methods give keeps the limit of a velocity write:
  -- an entity that has already ticked would otherwise make the next step refuse.
  it("refuses, inside a step, a velocity beyond 1024 blocks per tick and restores it", function()
    local w = H.world()
    H.flat(w, 0)
    local a = w:spawn{ x = 0.5, y = 1, z = 0.5, rules = bp.rules.beta173{ jump_impulse = 2000,
                                                                          knockback = 1e6 } }
    local call
    local b = w:spawn{ x = 5.5, y = 1, z = 0.5, rules = bp.rules.beta173{ jump = function() call() end } }
    w:step(); w:step()
    assert.is_true(a.on_ground)
    b.jumping = true
    local src = debug.getinfo(1, "S").short_src
    for _, case in ipairs{
      { function() a:native_jump() end, "native_jump: the velocity 'vy' would move the entity 2000 blocks" },
      { function() a:knockback(1, 0) end, "knockback: the velocity 'vx' would move the entity 1000000 blocks" },
    } do
      call = case[1]
      local before = H.state(a)
      local _, err = pcall(w.step, w)
      assert.equal(("world:step: rules hook 'jump' of entity 2 failed: %s:%d: %s in one tick (at most " ..
        "1024 per axis inside world:step)"):format(src, debug.getinfo(case[1], "S").linedefined, case[2]), err)
      assert.same(before, H.state(a))
    end
    -- outside a step nothing is checked: the next step's own check refuses
    b.jumping = false
    a:native_jump()
    assert.equal(2000, a.vy)
    assert.has_error(function() w:step() end,
      "world:step: entity 1 would move 2000 blocks in one step (at most 1024 per axis)")
  end)

  -- Only the axes the call changed: a strong Beta push leaves an entity's vx over
  -- 1024 for a while inside the step, and a jump in the air (no change) must not fail.
  it("checks only the axes the call changed", function()
    local w = H.world()
    local still = bp.rules.beta173{ gravity = 0 }
    local a = w:spawn{ x = 0.5, y = 10, z = 0.5, rules = bp.rules.beta173{ push_strength = 1000, gravity = 0 } }
    w:spawn{ x = 0.1, y = 10, z = 0.5, rules = still }
    w:spawn{ x = 0.1, y = 10, z = 0.5, rules = still }
    local seen
    w:spawn{ x = 0.9, y = 10, z = 0.5, rules = still, filter = function(_, other)
      if other == a then
        seen = a.vx
        a:native_jump()
      end
      return true
    end }
    assert.has_no_error(function() w:step() end)
    assert.is_true(seen > 1024, tostring(seen))
  end)

  -- A hook that wraps its own entity's stage acts as the stage: the tick's clamp
  -- applies, not the check of a write to another entity.
  it("a wrapping jump hook gives what no hook gives, even past the step's limit", function()
    local results = {}
    for _, hooked in ipairs{ false, true } do
      local w = H.world()
      H.flat(w, 0)
      local rules = bp.rules.mccpp{ jump_height = 1e6,
        jump = hooked and function(self) self:native_jump() end or nil }
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5, rules = rules }
      w:step(0.05); w:step(0.05)
      e.jumping = true
      w:step(1) -- sqrt(2 x 1e6 x 32) = 8000 b/s x 1 s is far past 1024 blocks: clamped
      results[#results + 1] = H.state(e)
    end
    assert.same(results[1], results[2])
  end)

  it("raises for bad arguments and dead entities", function()
    local w = H.world()
    local e = w:spawn{ x = 0, y = 10, z = 0 }
    assert.has_error(function() e:native_heading(0, 1) end,
      "bad argument #3 to 'native_heading' (number expected, got no value)")
    assert.has_error(function() e:native_heading(0 / 0, 1, 1) end,
      "bad argument #1 to 'native_heading' (number must be finite)")
    assert.has_error(function() e:native_heading(0, 1e39, 1) end,
      "bad argument #2 to 'native_heading' (number must be within the float range (|v| <= 3.4e38))")
    local m = w:spawn{ x = 0, y = 10, z = 0, rules = bp.rules.mccpp() }
    local ax = m:native_heading(1e39, 0, 1) -- MC-CPP computes in double
    assert.is_true(ax ~= 0)
    w:remove(e)
    assert.has_error(function() e:native_jump() end,
      "calling 'native_jump' on bad self (entity has been removed)")
    assert.has_error(function() e:native_heading(0, 1, 1) end,
      "calling 'native_heading' on bad self (entity has been removed)")
  end)

  it("counts an input of length exactly 0.01F (len >= 0.01F)", function()
    local w = H.world()
    local e = w:spawn{ x = 0, y = 10, z = 0 }
    -- sqrtf(0.01F * 0.01F) is 0.01F; below 1 it is not normalised: s = k / 1 = 1
    local dx, dz = e:native_heading(0, f32(0.01), 1)
    assert.equal(0, dx)
    assert.equal(f32(0.01), dz)
    dx, dz = e:native_heading(f32(-0.01), 0, 1) -- strafe alone: -X at yaw 0
    assert.equal(f32(-0.01), dx)
    assert.equal(0, dz)
  end)
end)
