-- luacheck: std +busted
-- The Beta velocity push (docs/beta173.md section 6).
local bp = require "blockphys"
local C = require "helpers.compat"
local H = require "helpers.world"

-- Java float rounding of a double (MathHelper.sqrt_double returns float).
local function f32(x) return (C.unpack("f", C.pack("f", x))) end

local F05 = 0.05000000074505806 -- 0.05F
local F091 = 0.9100000262260437 -- 0.91F: air friction

-- The impulse self gains from one pass against o (o gets the opposite), restated
-- from the reference: positions dx, dz = self - o.
local function impulse(dx, dz)
  local m = math.max(math.abs(dx), math.abs(dz))
  if m < 0.009999999776482582 then return 0, 0 end
  m = f32(math.sqrt(m))
  dx, dz = dx / m, dz / m
  local s = math.min(1, 1 / m)
  return dx * s * F05, dz * s * F05
end

-- Entities floating in empty space: no floor, so no ground friction and no clip.
local function pair(ox, oz, width, second_push)
  local w = bp.World()
  -- `o` first: its tick (velocity 0) is over when `self` pushes it.
  local o = w:spawn{ x = 0.5 + ox, y = 64, z = 0.5 + oz, width = width,
                     rules = bp.rules.beta173{ push = second_push or "separate" } }
  local self = w:spawn{ x = 0.5, y = 64, z = 0.5, width = width }
  return w, self, o
end

-- Two beta173 entities at x = 0.5 and bx, one step: a's pass (first in creation
-- order; nothing has moved yet) gives da, then b moves by -da (its velocity from a's
-- pass) and its own pass against a (which did not move: a's velocity was 0) gives db.
local function stepped_pair(bx)
  local w = bp.World()
  local a = w:spawn{ x = 0.5, y = 64, z = 0.5 }
  local b = w:spawn{ x = bx, y = 64, z = 0.5 }
  local da = impulse(a.x - b.x, 0)
  w:step()
  return a, b, da, impulse(b.x - a.x, 0)
end

describe("beta173 push", function()
  it("with push_threshold 0, two entities at the same X/Z do not push (no NaN)", function()
    -- the game divides the offset by its (float) square root: 0 / 0 here
    local w = bp.World()
    local rules = bp.rules.beta173{ push_threshold = 0 }
    local a = w:spawn{ x = 0.5, y = 0, z = 0.5, rules = rules }
    local b = w:spawn{ x = 0.5, y = 0.5, z = 0.5, rules = rules } -- overlapping a
    w:step()
    for _, e in ipairs{ a, b } do
      local vx, _, vz = e:velocity()
      assert.same({ 0, 0 }, { vx, vz })
      local x, _, z = e:position()
      assert.same({ 0.5, 0.5 }, { x, z })
    end
  end)

  it("is the default push model of the Beta rules", function()
    assert.equal("beta173", bp.rules.beta173().push)
  end)

  -- One impulse: self (beta173) pushes o ("separate" model: pushable, pushes nobody
  -- with impulses; alone in its model, so no separation either). Expected values
  -- use the positions as stored (box centres), read before the step.
  local cases = {
    { "below 0.01 on X: nothing", 0.005, 0, 0.6 },
    { "0.3 on X (below 1: 0.05 x d / sqrt(m))", 0.3, 0, 0.6 },
    { "0.3 on Z", 0, 0.3, 0.6 },
    { "-0.5 on X, 0.2 on Z (Chebyshev m)", -0.5, 0.2, 0.6 },
    { "1.5 on X (above 1)", 1.5, 0, 2 },
    { "0.7 on X, 1.5 on Z", 0.7, 1.5, 2 },
  }
  for _, c in ipairs(cases) do
    it("gives one impulse per pass: " .. c[1], function()
      local w, self, o = pair(c[2], c[3], c[4])
      local ex, ez = impulse(self.x - o.x, self.z - o.z)
      w:step()
      assert.equal(ex, self.vx)
      assert.equal(ez, self.vz)
      assert.equal(-ex, o.vx)
      assert.equal(-ez, o.vz)
    end)
  end

  it("pushes nothing below 0.01F, and 0.05 x d / sqrt(m) below m = 1", function()
    local w, self, o = pair(0.005, 0.003, 0.6)
    w:step()
    assert.equal(0, self.vx)
    assert.equal(0, o.vz)
    w, self = pair(0.25, 0, 0.6)
    w:step()
    -- sqrt(0.25) = 0.5 exactly in float, 1/m = 2 is capped at 1: 0.05F x -0.25 / 0.5
    assert.is_near(-F05 * 0.5, self.vx, 1e-15)
    assert.equal(0, self.vz)
  end)

  it("gives the dominant axis 0.05F above m = 1 (to float rounding)", function()
    local w, self, o = pair(1.5, 0.75, 2)
    w:step()
    assert.is_near(-F05, self.vx, 1e-8)
    assert.is_near(-F05 / 2, self.vz, 1e-8)
    assert.is_near(F05, o.vx, 1e-8)
  end)

  it("gives a pair of beta173 entities two impulses per tick", function()
    local a, b, da, db = stepped_pair(0.9)
    -- b's velocity: -da, air friction 0.91F, plus db
    assert.equal(da - db, a.vx)
    assert.equal(-da * F091 + db, b.vx)
    assert.is_true(da < 0 and db > 0)
  end)

  it("ignores entities outside the box grown 0.2F on X/Z and 0 on Y", function()
    local w = bp.World()
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    local b = w:spawn{ x = 1.5, y = 64, z = 0.5, rules = bp.rules.beta173{ push = false } }
    local c = w:spawn{ x = 0.5, y = 65.8, z = 0.5, rules = bp.rules.beta173{ push = false } }
    w:step()
    -- b: 1.0 apart = 0.6 width + 0.4 growth: touching only. c: on a's head (Y touch).
    assert.equal(0, a.vx)
    assert.equal(0, b.vx)
    assert.equal(0, c.vx)
  end)

  it("does not push entities whose push is false, nor entities with push = false push", function()
    local w = bp.World()
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{ push = false } }
    local b = w:spawn{ x = 0.8, y = 64, z = 0.5, rules = bp.rules.beta173{ push = false } }
    w:step()
    assert.equal(0, a.vx)
    assert.equal(0, b.vx)
  end)

  -- push = false means "cannot be pushed" (Beta canBePushed): a beta173 entity that
  -- overlaps it skips the pair entirely, so neither gets an impulse (0.3 apart would
  -- otherwise give 0.05F x 0.3 / sqrt(0.3) = 0.0274 each way).
  it("gives no impulse to, nor takes one from, an overlapping entity with push = false", function()
    local w = bp.World()
    local self = w:spawn{ x = 0.5, y = 64, z = 0.5 } -- beta173: runs the push
    local o = w:spawn{ x = 0.8, y = 64, z = 0.5, rules = bp.rules.beta173{ push = false } }
    w:step()
    assert.equal(0, self.vx)
    assert.equal(0, o.vx)
    assert.equal(0, self.vz)
    assert.equal(0, o.vz)
  end)

  -- An entity whose push is false runs no push of its own (Beta or MC-CPP rules),
  -- even next to a pushable one ("separate": pushable by impulses, and alone in its
  -- model, so no separation either).
  it("runs no push for an entity with push = false, even beside a pushable one", function()
    for _, rules in ipairs{ bp.rules.beta173{ push = false }, bp.rules.mccpp{ push = false } } do
      local w = bp.World()
      local o = w:spawn{ x = 0.8, y = 64, z = 0.5, rules = bp.rules.beta173{ push = "separate" } }
      local still = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = rules }
      w:step()
      assert.equal(0, o.vx, rules.model)
      assert.equal(0, still.vx, rules.model)
    end
  end)

  -- The region is self's box grown by push_radius = 0.2F on X and Z and by 0 on Y
  -- (reference section 6: expand(0.2, 0, 0.2)). Width 0.6F: centres 0.795 apart leave
  -- a gap of 0.795 - 0.6F = 0.19499998 < 0.2F (pushed), 0.805 apart 0.20499998 (not);
  -- a box 1.9 above or below (a gap of 1.9 - 1.8F = 0.1) or standing on self's head
  -- (1.8F above: touching, which is not overlap) is outside the Y growth of 0.
  it("reaches entities within 0.2F on X and on Z, and none above or below", function()
    for _, c in ipairs{
      { 0.795, 0, 0, true }, { 0.805, 0, 0, false },
      { 0, 0, 0.795, true }, { 0, 0, 0.805, false },
      { -0.795, 0, 0, true }, { 0, 0, -0.805, false },
      { 0.3, 1.9, 0, false }, { 0.3, -1.9, 0, false },
      { 0.3, H.F.height, 0, false }, { -0.3, -H.F.height, 0.3, false },
    } do
      local w = bp.World()
      -- o first: its air tick (velocity 0) has not moved it when self pushes
      local o = w:spawn{ x = 0.5 + c[1], y = 64 + c[2], z = 0.5 + c[3],
                         rules = bp.rules.beta173{ push = "separate" } }
      local self = w:spawn{ x = 0.5, y = 64, z = 0.5 }
      local ex, ez = impulse(self.x - o.x, self.z - o.z)
      w:step()
      local what = ("offset %g, %g, %g"):format(c[1], c[2], c[3])
      if c[4] then
        assert.is_true(ex ~= 0 or ez ~= 0, what)
        assert.equal(ex, self.vx, what)
        assert.equal(ez, self.vz, what)
        assert.equal(-ex, o.vx, what)
        assert.equal(-ez, o.vz, what)
      else
        assert.same({ 0, 0, 0, 0 }, { self.vx, self.vz, o.vx, o.vz }, what)
      end
    end
  end)

  -- The threshold test is m >= 0.01F (m = max(|dx|, |dz|)): m = 0.01F exactly still
  -- pushes, 0.01F - 1e-9 and 0.0095 do not, 0.0105 does. At m = 0.0105,
  -- (float)sqrt(m) = 0.1024695 and 1/m is capped at 1, so self gets
  -- 0.05F x -0.0105 / 0.1024695 = -0.0051234752758 (o the opposite).
  it("pushes from a Chebyshev distance of exactly 0.01F, not below", function()
    local t = H.f32(0.01) -- 0.009999999776482582; 0.5 + t and back are exact
    local w, self, o = pair(t, 0, 0.6)
    assert.equal(-t, self.x - o.x)
    w:step()
    assert.equal(impulse(-t, 0), self.vx)
    assert.is_near(-0.004999999888241291, self.vx, 1e-15)
    assert.equal(-self.vx, o.vx)
    w, self, o = pair(0, 0.0105, 0.6) -- on Z
    w:step()
    assert.is_near(-0.005123475275798926, self.vz, 1e-15)
    assert.equal(select(2, impulse(0, self.z - o.z)), self.vz)
    assert.equal(0, self.vx)
    for _, c in ipairs{ { t - 1e-9, 0 }, { 0, -(t - 1e-9) }, { 0.0095, -0.0095 } } do
      w, self, o = pair(c[1], c[2], 0.6)
      w:step()
      assert.same({ 0, 0, 0, 0 }, { self.vx, self.vz, o.vx, o.vz })
    end
  end)

  -- Two beta173 entities 0.0105 apart: a's pass gives a -0.0051234753 and b +0.0051234753;
  -- b moves by that (0.0156235 apart now) and its own pass gives b +0.0062497 and
  -- a -0.0062497: a ends at -0.011373170565642.
  it("gives both impulses of a pair 0.0105 apart (Chebyshev just above 0.01F)", function()
    local a, b, da, db = stepped_pair(0.5105)
    assert.equal(da - db, a.vx)
    assert.is_near(-0.011373170565642299, a.vx, 1e-15)
    assert.is_near(-da * F091 + db, b.vx, 1e-15)
  end)

  it("uses the tunable push_strength, push_threshold and push_radius", function()
    local w = bp.World()
    local o = w:spawn{ x = 1.3, y = 64, z = 0.5, rules = bp.rules.beta173{ push = "separate" } }
    local s = w:spawn{ x = 0.5, y = 64, z = 0.5,
                       rules = bp.rules.beta173{ push_strength = 0.1, push_radius = 0.5 } }
    local dx = s.x - o.x
    w:step()
    -- 0.8 apart: outside 0.6 + 0.4, inside 0.6 + 1.0
    local m = f32(math.sqrt(-dx)) -- 1/m > 1 is capped at 1
    assert.equal(dx / m * 0.1, s.vx)
    assert.equal(-s.vx, o.vx)
    s.rules.push_threshold = 1
    s.vx, o.vx = 0, 0
    o:teleport(1.3, 64, 0.5)
    s:teleport(0.5, 64, 0.5)
    w:step()
    assert.equal(0, s.vx)
  end)

  it("is bit-identical for the same script", function()
    local function run()
      local w = H.stone_floor(8)
      for i = 1, 30 do
        local e = w:spawn{ x = (i % 5) * 0.3, y = 64, z = math.floor(i / 5) * 0.3, yaw = i * 37 }
        e.forward = 1
      end
      for _ = 1, 40 do w:step() end
      return H.crowd_image(w)
    end
    assert.equal(run(), run())
  end)
end)
