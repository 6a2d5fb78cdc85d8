-- luacheck: std +busted
-- The Beta 1.7.3 rules through world:step (docs/beta173.md sections 0-2,
-- 5, 7-9). Every expected number is derived in the spec from the algorithm with the
-- game's float constants (H.F, H.f32); where the C core performs the same double
-- operations in the same order the comparison is exact, otherwise the tolerance is
-- stated next to the assertion.
local bp = require "blockphys"
local C = require "helpers.compat"
local H = require "helpers.world"
local F, f32 = H.F, H.f32

local raises_here = H.raises_here

local HW = F.half_width
local GROUND = (0 - 0.08) * F.drag -- -0.0784000015258789: vy of a grounded entity

local function steps(w, n)
  for _ = 1, n do w:step() end
end

-- A stone floor (top y = 64) and an entity standing on it, already landed.
local function ground(block, r)
  local w = H.world()
  H.flat(w, 63, block, r or 16)
  local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
  steps(w, 2)
  assert.is_true(e.on_ground)
  return w, e
end

-- Float heading of moveFlying for one input (reference section 1), at yaw 0:
-- returns (dvx, dvz).
local function heading(strafe, forward, k)
  local len = f32(math.sqrt(f32(f32(strafe * strafe) + f32(forward * forward))))
  if len < 0.01 then return 0, 0 end
  if len < 1 then len = 1 end
  local s = f32(k / len)
  return f32(strafe * s), f32(forward * s)
end

-- MathHelper's float sine table as tick_beta.c reads it (reference section 1): the
-- index is the (int) cast of the float yawRad * 10430.378F (+ 16384F for the cosine),
-- masked to 16 bits; each float operation is rounded to float as Java does.
local function table_sin(yaw, phase)
  local rad = f32(f32(f32(yaw) * f32(3.1415927)) / 180)
  local t = f32(f32(rad * f32(10430.378)) + phase)
  local i = (t >= 0 and math.floor(t) or math.ceil(t)) % 65536 -- (int) t & 0xFFFF
  return f32(math.sin(i * (2 * math.pi) / 65536))
end

-- moveFlying at any yaw: returns (dvx, dvz) = (a cos - b sin, b cos + a sin) in float.
local function heading_at(strafe, forward, k, yaw)
  local a, b = heading(strafe, forward, k)
  local s, c = table_sin(yaw, 0), table_sin(yaw, 16384)
  return f32(f32(a * c) - f32(b * s)), f32(f32(b * c) + f32(a * s))
end

-- Ground friction factor f and acceleration k of a block's slipperiness (float).
local function ground_factors(slip)
  local f = f32(slip * F.air)
  local k = f32(F.accel / f32(f32(f * f) * f))
  return f, f32(F.ground * k)
end

describe("beta173 rules", function()
  describe("spawn state", function()
    it("starts in the air: the first tick falls 0, the second lands", function()
      local w = H.world()
      H.flat(w, 63)
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
      assert.is_false(e.on_ground)
      assert.same({ 0, 0, 0 }, { e:velocity() })
      w:step()
      assert.is_false(e.on_ground)
      assert.equal(64, e.y)
      assert.equal(-0.0784000015258789, e.vy)
      assert.equal(GROUND, e.vy)
      w:step()
      assert.is_true(e.on_ground)
      assert.is_true(e.collided_vertically)
      assert.equal(64, e.y)
      assert.equal(GROUND, e.vy) -- zeroed by the landing, then gravity and drag again
    end)
  end)

  describe("jump", function()
    it("follows the arc tick by tick: vy0 = 0.42F, then (vy - 0.08) * 0.98F", function()
      local w, e = ground()
      e.jumping = true
      local y, vy = 64, F.jump
      local top = 64
      for tick = 1, 12 do
        w:step()
        -- the move uses vy, then gravity and drag: the same double operations as C
        local expected_y = y + vy
        if tick == 12 then
          assert.is_true(expected_y < 64) -- the 12th tick's move reaches the floor
          assert.equal(64, e.y)
          assert.is_true(e.on_ground)
          assert.equal(GROUND, e.vy)
        else
          y, vy = expected_y, (vy - 0.08) * F.drag
          assert.equal(y, e.y)
          assert.equal(vy, e.vy)
          assert.is_false(e.on_ground)
          top = math.max(top, y)
        end
      end
      assert.equal(top, 64 + 1.2522033402537245) -- apex after tick 6
      assert.is_near(1.2522033402537, top - 64, 1e-12)
      -- no jump cooldown in b1.7.3: still holding jump, it leaves the ground at once
      w:step()
      assert.equal(64 + F.jump, e.y)
    end)

    it("is cut short by a ceiling (vy zeroed at the hit)", function()
      local w, e = ground()
      w:fill(-4, 66, -4, 4, 66, 4, "stone") -- 0.2 above the head
      e.jumping = true
      w:step()
      e.jumping = false
      assert.equal(66 - F.height, e.y)
      assert.is_true(e.collided_vertically)
      assert.equal(GROUND, e.vy) -- (0 - 0.08) * 0.98F after the clip zeroed vy
      steps(w, 3)
      assert.equal(64, e.y)
      assert.is_true(e.on_ground)
    end)
  end)

  describe("walking", function()
    -- per tick: v += a; move v; v *= f, so the displacement tends to a / (1 - f)
    local function walk(block, n, sneak_factor)
      local w, e = ground(block, 200)
      local f, k = ground_factors(block == "ice" and F.ice or F.slip)
      local input = f32(1 * F.input)
      if sneak_factor then
        e.sneaking = true
        input = f32(f32(1 * sneak_factor) * F.input)
      end
      e.forward = 1
      local _, a = heading(0, input, k)
      local v, z = 0, e.z
      for _ = 1, n do
        w:step()
        v = v + a
        assert.is_near(v, e.z - z, 1e-12) -- positions are rounded at the box's edges
        z = e.z
        v = v * f
        assert.equal(v, e.vz)
        assert.equal(0, e.vx)
      end
      return e, a, f
    end

    it("accelerates to a / (1 - f) on normal blocks (0.21585 b/t)", function()
      local f, k = ground_factors(F.slip)
      assert.equal(0.54600006341934204, f)
      assert.equal(0.099999986588954926, k)
      local e, a = walk("stone", 60)
      assert.equal(f32(F.input * k), a)
      local terminal = a / (1 - f)
      assert.is_near(0.2158590, terminal, 1e-7)
      assert.is_near(terminal * f, e.vz, 1e-15) -- converged (0.546^60 ~ 1e-16)
      assert.is_true(e.on_ground)
    end)

    it("accelerates to a / (1 - f) on ice (slipperiness 0.98F)", function()
      local f, k = ground_factors(F.ice)
      assert.equal(0.89180004596710205, f)
      assert.equal(0.022949621081352234, k)
      local e, a = walk("ice", 400)
      local terminal = a / (1 - f)
      assert.is_near(0.2078617, terminal, 1e-7)
      assert.is_near(terminal * f, e.vz, 1e-14)
    end)

    it("sneaks at 0.3 of the input (and dips the camera by 0.08)", function()
      local f = ground_factors(F.slip)
      local e, a = walk("stone", 80, 0.3)
      local _, k = ground_factors(F.slip)
      assert.equal(f32(f32(f32(0.3) * F.input) * k), a)
      assert.is_near(0.0647577, a / (1 - f), 1e-7)
      assert.is_near(a / (1 - f) * f, e.vz, 1e-15)
      -- ySize raised to 0.2F before the move, decayed by 0.4F inside it
      assert.equal(0.080000005662441254, e.y_size)
    end)

    it("gains 1/0.98 on a 45 degree strafe, sqrt(2) when sneaking", function()
      local function first_tick(forward, strafe, sneak)
        local w, e = ground()
        e.forward, e.strafe, e.sneaking = forward, strafe, sneak
        w:step()
        return math.sqrt(e.vx ^ 2 + e.vz ^ 2), e
      end
      local f, k = ground_factors(F.slip)
      local straight = first_tick(1, 0, false)
      local diagonal, e = first_tick(1, 1, false)
      local dvx, dvz = heading(F.input, F.input, k) -- normalised: |input| = 1.386
      assert.equal(dvx * f, e.vx)
      assert.equal(dvz * f, e.vz)
      assert.is_near(1 / 0.98, diagonal / straight, 1e-6) -- float heading
      local s_straight = first_tick(1, 0, true)
      local s_diagonal = first_tick(1, 1, true)
      assert.is_near(math.sqrt(2), s_diagonal / s_straight, 1e-6) -- 0.416 < 1: no normalising
    end)

    it("faces +Z at yaw 0, -X at yaw 90, and strafe > 0 is left (+X at yaw 0)", function()
      local w, e = ground()
      e.forward = 1
      w:step()
      assert.is_true(e.vz > 0)
      assert.equal(0, e.vx)
      w, e = ground()
      e.forward, e.yaw = 1, 90
      w:step()
      assert.is_true(e.vx < 0)
      assert.is_true(math.abs(e.vz) < 1e-6 * math.abs(e.vx)) -- float sine table: ~1e-7
      w, e = ground()
      e.strafe = 1
      w:step()
      assert.is_true(e.vx > 0)
      assert.equal(0, e.vz)
      w, e = ground()
      e.forward, e.yaw = 1, -90
      w:step()
      assert.is_true(e.vx > 0)
    end)

    -- The heading between the axes: dv = (a cos - b sin, b cos + a sin) with the float
    -- table sine and cosine of the yaw (reference section 1), then x f on the ground.
    -- From rest in one tick: v = dv * f, the same double product as C: exact.
    it("turns the input by the float sine table at yaw 45 and 112.5 (exact)", function()
      local f, k = ground_factors(F.slip)
      local function first_tick(yaw, forward, strafe)
        local w, e = ground()
        e.yaw, e.forward, e.strafe = yaw, forward, strafe
        w:step()
        return e
      end
      -- yaw 45: sin = cos = 0.70710677F; forward (0, 0.98) turns to -X and +Z equally
      assert.equal(table_sin(45, 0), table_sin(45, 16384))
      local e = first_tick(45, 1, 0)
      local dvx, dvz = heading_at(0, F.input, k, 45)
      assert.equal(-0.037835869847621328, dvx * f)
      assert.equal(dvx * f, e.vx)
      assert.equal(dvz * f, e.vz)
      assert.equal(-e.vx, e.vz)
      -- yaw 112.5: yawRad * 10430.378F = 20479.99.. truncates to index 20479, so the
      -- sine is the table's 0.92391622F, not sin(112.5) = 0.92387953; the cosine's
      -- index 20479.99 + 16384 rounds (float) to 36864: cos = -0.38268343F
      assert.equal(f32(math.sin(20479 * 2 * math.pi / 65536)), table_sin(112.5, 0))
      assert.equal(f32(math.sin(36864 * 2 * math.pi / 65536)), table_sin(112.5, 16384))
      e = first_tick(112.5, 1, 0)
      dvx, dvz = heading_at(0, F.input, k, 112.5)
      assert.equal(-0.049436907848035005, dvx * f)
      assert.equal(-0.020476624296793977, dvz * f)
      assert.equal(dvx * f, e.vx)
      assert.equal(dvz * f, e.vz)
      -- strafe at 112.5: (a cos, a sin), the same two numbers on the other axes
      e = first_tick(112.5, 0, 1)
      assert.equal(-0.020476624296793977, e.vx)
      assert.equal(0.049436907848035005, e.vz)
    end)

    -- Strafe > 0 is left: +X at yaw 0 (docs/conventions.md), so at yaw 90 (facing -X)
    -- left is +Z: dvz = a * sin(90) = a exactly (table index 16384: sin = 1), and dvx
    -- = a * cos(90) = a * 1.2246469e-16F (index 32768: the float of sin(pi)), not 0.
    it("strafes left toward +Z at yaw 90 (exact)", function()
      local f, k = ground_factors(F.slip)
      local w, e = ground()
      e.yaw, e.strafe = 90, 1
      w:step()
      local a = heading(F.input, 0, k)
      assert.equal(1, table_sin(90, 0))
      assert.equal(f32(math.sin(math.pi)), table_sin(90, 16384))
      assert.equal(0.053508000747680029, a * f)
      assert.equal(a * f, e.vz)
      assert.equal(f32(a * f32(math.sin(math.pi))) * f, e.vx)
      assert.is_near(6.5528404353829925e-18, e.vx, 1e-30)
      -- and strafe right (< 0) toward -Z
      w, e = ground()
      e.yaw, e.strafe = 90, -1
      w:step()
      assert.equal(-a * f, e.vz)
    end)

    -- The sine and cosine are cached per entity while the yaw stays the same: a new yaw
    -- between two ticks must give the new heading, not the cached one.
    it("uses the new yaw when it changes between ticks", function()
      local f, k = ground_factors(F.slip)
      local w, e = ground()
      e.forward = 1
      w:step() -- yaw 0: (0, a)
      local _, a = heading(0, F.input, k)
      assert.equal(0, e.vx)
      assert.equal(a * f, e.vz)
      local vx, vz = e.vx, e.vz
      e.yaw = 112.5
      w:step()
      local dvx, dvz = heading_at(0, F.input, k, 112.5)
      assert.equal((vx + dvx) * f, e.vx)
      assert.equal((vz + dvz) * f, e.vz)
    end)
  end)

  describe("friction block", function()
    -- f = slipperiness x 0.91F of the block at (floor(x), floor(minY) - 1, floor(z)),
    -- the centre's column (reference section 2), or rules.default_slipperiness when
    -- that block is air. A floor of x <= 0: an entity at x = 1.2 (box 0.9 .. 1.5)
    -- stands on its edge with the centre over air. With default_slipperiness = 0.98
    -- the two cases differ (with the preset's 0.6F both give 0.546).
    it("is the rules' default_slipperiness over air, the block's own elsewhere", function()
      local w = H.world()
      w:fill(-8, 63, -8, 0, 63, 8, "stone")
      local rules = bp.rules.beta173{ default_slipperiness = 0.98 }
      local edge = w:spawn{ x = 1.2, y = 64, z = 0.5, rules = rules }
      local inner = w:spawn{ x = -3.5, y = 64, z = 0.5, rules = rules }
      steps(w, 2)
      assert.is_true(edge.on_ground and inner.on_ground)
      edge.vz, inner.vz = 0.2, 0.2
      w:step()
      -- no input: v = 0.2 x f, f the float product (0.98F x 0.91F over air)
      local f_air = ground_factors(f32(0.98))
      assert.equal(0.89180004596710205, f_air)
      assert.equal(0.17836000919342043, 0.2 * f_air)
      assert.equal(0.2 * f_air, edge.vz)
      assert.equal(0.2 * ground_factors(F.slip), inner.vz) -- stone: 0.6F
      assert.equal(0.10920001268386842, inner.vz)
      -- the preset's default is the game's 0.6F widened to double (docs/beta173.md), which the
      -- float product above cannot tell from 0.6: the rules view can
      assert.equal(F.slip, bp.rules.beta173().default_slipperiness)
      assert.equal(0.6000000238418579, F.slip)
    end)

    -- accel = ground_accel x accel_factor / f^3 would divide by zero when f is 0
    -- (slipperiness or air_friction 0, allowed by their ranges): no acceleration then.
    it("gives no ground acceleration where f is 0, and never a NaN velocity", function()
      for _, case in ipairs{ { 0, 0.91 }, { 0.6, 0 } } do
        local w = H.world()
        w:define_block{ name = "glue", slipperiness = case[1] }
        w:fill(-8, 63, -8, 8, 63, 8, "glue")
        local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{ air_friction = case[2] } }
        e.forward = 1
        for _ = 1, 5 do w:step() end
        assert.is_true(e.on_ground)
        local vx, vy, vz = e:velocity()
        assert.same({ 0, 0 }, { vx, vz }) -- f x (0 + 0) on the ground
        assert.is_true(vy == vy)
        local x, _, z = e:position()
        assert.is_true(math.abs(x - 0.5) < 1 and math.abs(z - 0.5) < 1, "moved " .. x .. ", " .. z)
      end
    end)
  end)

  describe("sneak edge guard", function()
    -- A floor of z <= 0 (edge at z = 1) and, beyond it, a lower level `drop` down.
    local function ledge(drop, block)
      local w = H.world()
      w:fill(-8, 63, -8, 8, 63, 0, "stone")
      if drop then w:fill(-8, 63 - drop, 1, 8, 63 - drop, 40, block or "stone") end
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
      steps(w, 2)
      e.sneaking, e.forward = true, 1
      return w, e
    end

    for _, drop in ipairs{ 1, 3 } do
      it("holds the entity at the edge over a drop of " .. drop .. " block(s)", function()
        local w, e = ledge(drop)
        local _, a = heading(0, f32(f32(0.3) * F.input), select(2, ground_factors(F.slip)))
        local terminal = a / (1 - ground_factors(F.slip))
        steps(w, 100)
        assert.equal(64, e.y)
        assert.is_true(e.on_ground)
        -- the box's min z stays on the ledge, within one tick's reach of its edge
        local lo = e.z - HW
        assert.is_true(lo < 1)
        assert.is_true(lo >= 1 - terminal, "stopped " .. (1 - lo) .. " from the edge")
        -- a guarded stop is not a collision and keeps the velocity
        assert.is_false(e.collided_horizontally)
        assert.is_near(terminal * ground_factors(F.slip), e.vz, 1e-12)
      end)
    end

    it("holds over the void too", function()
      local w, e = ledge(nil)
      steps(w, 60)
      assert.equal(64, e.y)
      assert.is_true(e.z - HW < 1)
    end)

    it("reduces the displacement in 0.05 steps (e:move)", function()
      local w, e = ledge(3)
      e.vz = 1
      local lo = e.z - HW
      local d = 1 -- the guard's loop, restated: first of 1, 0.95, ... with support
      while lo + d >= 1 do d = d - 0.05 end
      local _, _, dz = e:move(0, GROUND, 1)
      assert.equal(d, dz)
      assert.is_true(1 - (lo + d) < 0.05)
      assert.is_false(e.collided_horizontally)
      assert.equal(1, e.vz)
      assert.is_true(e.on_ground)
      -- and snaps to 0 once less than 0.05 remains
      assert.same({ 0, 0, 0 }, { e:move(0, GROUND, 0.04) })
      local _ = w
    end)

    it("lets the entity walk down a half-block step", function()
      local w = H.world()
      w:fill(-8, 63, -8, 8, 63, 0, "stone")
      w:fill(-8, 63, 1, 8, 63, 40, "slab") -- top 63.5: half a block lower
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
      steps(w, 2)
      e.sneaking, e.forward = true, 1
      steps(w, 60)
      assert.equal(63.5, e.y)
      assert.is_true(e.z > 3)
      assert.is_true(e.on_ground)
    end)
  end)

  describe("water", function()
    local D, G, J = F.water_drag, 0.02, F.liquid_jump
    local function pool(y)
      local w = H.world()
      w:fill(-4, 0, -4, 4, 60, 4, "water")
      return w, w:spawn{ x = 0.5, y = y, z = 0.5 }
    end

    it("sinks at -g / (1 - 0.8F) = -0.1 b/t", function()
      local w, e = pool(40)
      local v, y = 0, e.y
      for _ = 1, 160 do -- 0.8^160 ~ 3e-16: converged
        w:step()
        assert.is_near(v, e.y - y, 1e-12)
        y = e.y
        v = v * D - G
        assert.is_near(v, e.vy, 1e-15)
        assert.is_true(e.in_water)
      end
      assert.is_near(-G / (1 - D), e.vy, 1e-12)
      assert.is_near(-0.1000000059604645, e.vy, 1e-12)
      -- reset at the start of every tick in water: only this tick's fall remains
      -- (a float field in the game)
      assert.is_near(f32(G / (1 - D)), e.fall_distance, 1e-12)
    end)

    -- Water resets the fall distance only at the start of a tick (reference section
    -- 0), and the landing tick's own move is not added (section 6): a fast fall can
    -- land in shallow water without starting a tick in it, and keep its distance.
    it("resets a fast fall's distance only if the landing tick starts in the water", function()
      -- depth of water on a floor at y = 0, spawn height, whether the fall is kept
      for _, case in ipairs{ { 1, 31, true }, { 1, 30, false }, { 2, 33, true },
                             { 2, 31, false }, { 3, 33, false } } do
        local depth, y0, kept = case[1], case[2], case[3]
        local w = H.world()
        w:fill(-4, 0, -4, 4, 0, 4, "stone")
        w:fill(-4, 1, -4, 4, depth, 4, "water")
        local e = w:spawn{ x = 0.5, y = y0, z = 0.5 }
        local at_landing, y_before
        for _ = 1, 100 do -- lands within 40 ticks
          at_landing, y_before = e.fall_distance, e.y
          w:step()
          if e.in_water then at_landing = 0 end -- the tick started in water
          if e.on_ground then break end
        end
        assert.equal(1, e.y)
        assert.equal(0, e.fall_distance)
        assert.equal(at_landing, e.landing_fall) -- what the game's fall() receives
        assert.equal(not kept, e.in_water, ("depth %d from y = %d"):format(depth, y0))
        if kept then -- the whole fall above the landing tick, summed in float
          assert.is_near(y0 - y_before, at_landing, 1e-4)
          assert.is_true(y_before + 0.4 > 1 + depth) -- its water test box starts above
        else
          assert.equal(0, at_landing)
        end
      end
    end)

    it("swims up at (0.04F - 0.02) / (1 - 0.8F) = +0.1 b/t with jump held", function()
      local w, e = pool(10)
      e.jumping = true
      local y
      for _ = 1, 160 do
        y = e.y
        w:step()
      end
      assert.is_near((J - G) / (1 - D), e.y - y, 1e-12)
      assert.is_near(0.1, e.y - y, 1e-8)
      assert.is_near((J * D - G) / (1 - D), e.vy, 1e-12) -- 0.06 after drag
    end)

    -- The water test box is bb.expand(0, -0.4F, 0).contract(0.001) (reference sections
    -- 5 and 9.1) and covers the cells floor(min) .. floor(max + 1) - 1. Without the
    -- 0.001, a max face exactly on a cell boundary would reach into the next cell;
    -- with it, a box must overlap the water by more than 0.001 (beyond the 0.4F on Y).
    -- The flag is set at the start of the tick, from the box before the move.
    it("is not entered by a box that only touches water (test box contracted 0.001)",
      function()
      local I = f32(0.4) -- water_inset_y
      local function first_tick(x, y, z, water)
        local w = H.world()
        w:fill(C.unpack_table(water))
        local e = w:spawn{ x = x, y = y, z = z }
        local b = e:box()
        w:step()
        return e.in_water, b
      end
      -- +X face on the water at x = 1: touching, 0.0005 in (still out), 0.002 in
      local wall_x = { 1, 60, -3, 3, 70, 3, "water" }
      local inside, b = first_tick(1 - HW, 64, 0.5, wall_x)
      assert.equal(1, b.x2)
      assert.is_false(inside)
      assert.is_false((first_tick(1 - HW + 0.0005, 64, 0.5, wall_x)))
      assert.is_true((first_tick(1 - HW + 0.002, 64, 0.5, wall_x)))
      -- +Z face on the water at z = 1
      local wall_z = { -3, 60, 1, 3, 70, 3, "water" }
      inside, b = first_tick(0.5, 64, 1 - HW, wall_z)
      assert.equal(1, b.z2)
      assert.is_false(inside)
      assert.is_true((first_tick(0.5, 64, 1 - HW + 0.002, wall_z)))
      -- top: water from y = 66 over the head; box top 66 + 0.4F, so the test box's top
      -- is 66 - 0.001 (the head is 0.4 into the water, and still not in water)
      local over = { -3, 66, -3, 3, 70, 3, "water" }
      inside, b = first_tick(0.5, 66 + I - F.height, 0.5, over)
      assert.equal(66, b.y2 - I)
      assert.is_false(inside)
      assert.is_true((first_tick(0.5, 66 + I - F.height + 0.002, 0.5, over)))
      -- bottom: feet on the surface of water below (y 60 .. 64): the test box starts
      -- 0.4F + 0.001 higher; it reaches the water once the feet are 0.401 below
      local under = { -3, 60, -3, 3, 63, 3, "water" }
      assert.is_false((first_tick(0.5, 64, 0.5, under)))
      assert.is_false((first_tick(0.5, 64 - I - 0.0005, 0.5, under)))
      assert.is_true((first_tick(0.5, 64 - I - 0.002, 0.5, under)))
    end)

    it("breaches at a wall onto a shore level with the surface", function()
      local w = H.world()
      H.flat(w, 0, "stone", 8)
      w:fill(-8, 1, -8, 8, 2, 0, "water") -- a pool 2 deep, surface at 3
      w:fill(-8, 1, 1, 8, 2, 8, "stone")  -- the shore: top 3, wall at z = 1
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      e.forward, e.jumping = 1, true
      local breached = false
      for _ = 1, 30 do
        w:step()
        breached = breached or e.vy == 0.30000001192092896 -- 0.3F
      end
      assert.is_true(breached)
      e.jumping = false
      steps(w, 20)
      assert.equal(3, e.y)
      assert.is_true(e.on_ground)
      assert.is_true(e.z > 1 + HW)
    end)

    it("breaches out of 1-deep water onto a 1-block shore", function()
      local w = H.world()
      H.flat(w, 0, "stone", 8)
      w:fill(-8, 1, -8, 8, 1, 0, "water")
      w:fill(-8, 1, 1, 8, 1, 8, "stone")
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      e.forward, e.jumping = 1, true
      steps(w, 40)
      assert.equal(2, e.y)
      assert.is_true(e.z > 1 + HW)
    end)
  end)

  describe("lava", function()
    local function pool(y)
      local w = H.world()
      w:fill(-4, 0, -4, 4, 60, 4, "lava")
      return w, w:spawn{ x = 0.5, y = y, z = 0.5 }
    end

    it("sinks at -0.02 / (1 - 0.5) = -0.04 b/t", function()
      local w, e = pool(40)
      steps(w, 60)
      assert.is_true(e.in_lava)
      assert.is_false(e.in_water)
      assert.is_near(-0.04, e.vy, 1e-15)
      local y = e.y
      w:step()
      assert.is_near(-0.04, e.y - y, 1e-12)
    end)

    -- The lava test box is bb.expand(-0.1F, -0.4F, -0.1F) with no 0.001 contraction
    -- (reference sections 5 and 9.1): over the cells floor(min) .. floor(max + 1) - 1,
    -- a box is in lava when it reaches 0.1F (X, Z) or 0.4F (Y) into a lava cell, and
    -- exactly 0.1F counts (the inset face lies on the boundary, which reaches into the
    -- next cell). 0.1 (double) is 1.5e-9 short of 0.1F: not in lava.
    it("tests the box inset by 0.1F on X and Z and 0.4F on Y, boundary included",
      function()
      local I, IY = f32(0.1), f32(0.4)
      assert.is_true(0.1 < I)
      local function first_tick(x, y, z, lava)
        local w = H.world()
        w:fill(C.unpack_table(lava))
        local e = w:spawn{ x = x, y = y, z = z }
        local b = e:box()
        w:step()
        return e.in_lava, b, e.in_water
      end
      local wall_x = { 1, 60, -3, 3, 70, 3, "lava" }
      local inside, b, water = first_tick(1 + I - HW, 64, 0.5, wall_x)
      assert.equal(1 + I, b.x2)
      assert.is_true(inside)
      assert.is_false(water)
      inside, b = first_tick(1.1 - HW, 64, 0.5, wall_x)
      assert.equal(1.1, b.x2)
      assert.is_false(inside)
      assert.is_false((first_tick(1 - HW, 64, 0.5, wall_x))) -- touching
      local wall_z = { -3, 60, 1, 3, 70, 3, "lava" }
      inside, b = first_tick(0.5, 64, 1 + I - HW, wall_z)
      assert.equal(1 + I, b.z2)
      assert.is_true(inside)
      assert.is_false((first_tick(0.5, 64, 1.1 - HW, wall_z)))
      -- the -X side: lava at x = -1; min x at -0.1F is on the boundary from above
      local wall_nx = { -3, 60, -3, -1, 70, 3, "lava" }
      inside, b = first_tick(-I + HW, 64, 0.5, wall_nx)
      assert.equal(-I, b.x1)
      assert.is_false(inside)
      assert.is_true((first_tick(-I + HW - 1e-9, 64, 0.5, wall_nx)))
      -- top: lava from y = 66; box top 66 + 0.4F is in, 66.4 (double, below it) is not
      local over = { -3, 66, -3, 3, 70, 3, "lava" }
      inside, b = first_tick(0.5, 66 + IY - F.height, 0.5, over)
      assert.equal(66 + IY, b.y2)
      assert.is_true(inside)
      inside, b = first_tick(0.5, 66.4 - F.height, 0.5, over)
      assert.equal(66.4, b.y2)
      assert.is_false(inside)
      -- bottom: lava up to y = 64; feet at 64 - 0.4F put the test box's bottom on 64
      local under = { -3, 60, -3, 3, 63, 3, "lava" }
      assert.is_false((first_tick(0.5, 64, 0.5, under)))
      inside, b = first_tick(0.5, 64 - IY, 0.5, under)
      assert.equal(64, b.y1 + IY)
      assert.is_false(inside)
      assert.is_true((first_tick(0.5, 64 - IY - 1e-9, 0.5, under)))
    end)

    it("swims up at (0.04F - 0.02) / 0.5 = 0.04 b/t with jump held", function()
      local w, e = pool(10)
      e.jumping = true
      steps(w, 60)
      local y = e.y
      w:step()
      assert.is_near((F.liquid_jump - 0.02) / 0.5, e.y - y, 1e-12)
      assert.is_near((F.liquid_jump * 0.5 - 0.02) / 0.5, e.vy, 1e-12) -- ~0 after drag
    end)
  end)

  describe("ladders", function()
    -- A ladder column at (0, 1..20, 0) against a wall at z = 1.
    local function ladder()
      local w = H.world()
      H.flat(w, 0)
      w:fill(0, 1, 0, 0, 20, 0, "ladder")
      w:fill(-2, 1, 1, 2, 22, 1, "stone")
      return w
    end

    it("climbs at (0.2 - 0.08) * 0.98F = 0.11760000228881837 b/t pushing into it", function()
      local w = ladder()
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      e.forward = 1
      steps(w, 10)
      local climb = (0.2 - 0.08) * F.drag
      assert.equal(0.11760000228881837, climb)
      assert.equal(climb, e.vy)
      for _ = 1, 5 do
        local y = e.y
        w:step()
        assert.is_near(climb, e.y - y, 1e-12)
        assert.is_true(e.collided_horizontally)
      end
    end)

    it("holds (vy >= 0) while sneaking", function()
      local w = ladder()
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      e.forward = 1
      steps(w, 10)
      e.forward, e.sneaking = 0, true
      -- the climb velocity decays: 0.1176 -> (0.1176 - 0.08) * 0.98F > 0 -> held at 0
      steps(w, 3)
      local y = e.y
      for _ = 1, 20 do
        w:step()
        assert.equal(y, e.y)
      end
    end)

    it("descends at most 0.15 b/t and resets the fall distance", function()
      local w = ladder()
      local e = w:spawn{ x = 0.5, y = 15, z = 0.5 }
      steps(w, 10)
      for _ = 1, 5 do
        local y = e.y
        w:step()
        assert.is_near(-0.15, e.y - y, 1e-12)
        -- reset before the move, then -dy, rounded to float (fallDistance is a float)
        assert.is_near(f32(0.15), e.fall_distance, 1e-12)
      end
      assert.equal((-0.15 - 0.08) * F.drag, e.vy)
    end)

    -- The clamp (reference section 2) is per axis, to [-0.15F, +0.15F], before the
    -- move; on the ground the friction 0.546 follows: 0.15F x 0.546 = 0.0819000128.
    -- isOnLadder reads the one block at floor(minY) (section 8): the feet's cell.
    it("clamps vx and vz each to +-0.15F, both signs, and leaves vy to the jump", function()
      local w = H.world()
      H.flat(w, 63)
      -- the ladder's box is z 0.875 .. 1: from z = 0.4 the box (max z 0.7) stays clear
      -- of it after a move of +0.15
      w:set_block(0, 64, 0, "ladder")
      local e = w:spawn{ x = 0.5, y = 64, z = 0.4 }
      steps(w, 2)
      assert.is_true(e.on_ground)
      local f = ground_factors(F.slip)
      assert.equal(0.081900012767315289, F.ladder * f)
      local function reland() -- back in the ladder's cell, at rest on the floor
        e:teleport(0.5, 64, 0.4)
        e.vx, e.vz = 0, 0
        steps(w, 2) -- teleported: an air tick, then landed again
      end
      for _, sign in ipairs{ -1, 1 } do
        reland()
        e.vx, e.vz = sign * 0.5, -sign * 0.5
        w:step()
        assert.equal(sign * F.ladder * f, e.vx)
        assert.equal(-sign * F.ladder * f, e.vz)
        assert.equal(0.5 + sign * F.ladder, e.x) -- the clamped velocity was the move
        assert.equal(GROUND, e.vy)
        assert.is_false(e.collided_horizontally)
      end
      -- a jump from the ladder's cell keeps its 0.42F (vy is not clamped to 0.15F)
      reland()
      e.jumping = true
      w:step()
      assert.equal(64 + F.jump, e.y)
      assert.equal((F.jump - 0.08) * F.drag, e.vy)
    end)

    it("does not act for a ladder at head height only (the feet's cell is air)", function()
      local w = H.world()
      H.flat(w, 63)
      w:set_block(0, 65, 0, "ladder")
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
      steps(w, 2)
      e.vx = 0.5
      w:step()
      -- unclamped: 0.5 x 0.546 = 0.273
      assert.equal(0.5 * ground_factors(F.slip), e.vx)
      assert.equal(0.27300003170967102, e.vx)
      assert.equal(1, e.x)
    end)

    it("clamps horizontal speed to 0.15F on a ladder", function()
      local w = ladder()
      local e = w:spawn{ x = 0.5, y = 3, z = 0.5, vx = 1 }
      w:step()
      -- clamped to 0.15F, moved, then air friction 0.91F
      assert.is_near(F.ladder * F.air, e.vx, 1e-15)
    end)

    -- The game clamps with two compares, which keep the velocity's own zero; fmin and
    -- fmax between +0 and -0 (ladder_speed 0) may return either, as the build likes.
    -- A rule written as -0 is stored as 0.
    it("keeps a zero velocity's sign with ladder_speed = 0, as the game's compares do", function()
      local w = ladder()
      local e = w:spawn{ x = 0.5, y = 3, z = 0.5, rules = bp.rules.beta173{ ladder_speed = 0 } }
      w:step()
      assert.equal(math.huge, 1 / e.vx)
      assert.equal(math.huge, 1 / e.vz)
      e.rules.ladder_speed = -0.0
      assert.equal(math.huge, 1 / e.rules.ladder_speed)
    end)
  end)

  describe("swept resolver", function()
    -- resolver = "swept" under Beta rules: the step assist lowers step_offset by
    -- step_height (0.5 here) in the move, and each later tick raises it by
    -- camera_rise (8 / 20 = 0.4 b/t) at its start, up to 0: -0.5, -0.1, 0, 0.
    it("raises step_offset by camera_rise per tick after a step assist, up to 0", function()
      local w = H.world()
      H.flat(w, 63)
      w:fill(1, 64, -4, 6, 64, 4, "slab") -- a half-block step at x = 1
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{ resolver = "swept" } }
      steps(w, 2)
      assert.is_true(e.on_ground)
      assert.equal(0, e.step_offset)
      e.vx = 0.3 -- box max x 0.8 -> 1.1: into the slab, which the assist steps onto
      local seen = {}
      for tick = 1, 4 do
        w:step()
        seen[tick] = e.step_offset
        assert.equal(64.5, e.y)
      end
      assert.same({ -0.5, -0.5 + 8 / 20, 0, 0 }, seen)
      assert.is_near(-0.1, seen[2], 1e-12)
    end)
  end)

  describe("per-entity rules", function()
    it("give each entity its own constants", function()
      local w = H.world()
      H.flat(w, 63)
      local high = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{ jump_impulse = 0.6 } }
      local slow = w:spawn{ x = 5.5, y = 64, z = 0.5, rules = bp.rules.beta173{ sneak_factor = 0.1 } }
      local plain = w:spawn{ x = -5.5, y = 64, z = 0.5 }
      steps(w, 2)
      high.jumping, plain.jumping = true, true
      slow.sneaking, slow.forward = true, 1
      w:step()
      assert.equal(64.6, high.y)
      assert.equal(64 + F.jump, plain.y)
      local _, k = ground_factors(F.slip)
      local _, a = heading(0, f32(f32(1 * 0.1) * F.input), k)
      assert.equal(a * ground_factors(F.slip), slow.vz)
    end)

    it("e.rules is a live view: writes go through to the entity only", function()
      local w, e = ground()
      local other = w:spawn{ x = 3.5, y = 64, z = 0.5 }
      steps(w, 2)
      e.rules.jump_impulse = 0.6
      assert.equal(0.6, e.rules.jump_impulse)
      assert.equal(F.jump, other.rules.jump_impulse)
      e.jumping, other.jumping = true, true
      w:step()
      assert.equal(64.6, e.y)
      assert.equal(64 + F.jump, other.y)
      assert.has_error(function() e.rules.jump_impulse = "high" end,
        "entity.rules: rule 'jump_impulse' must be a number")
      assert.equal(0.6, e.rules.jump_impulse)
    end)
  end)

  describe("Lua hooks", function()
    it("a heading hook replaces moveFlying (called with strafe, forward, k)", function()
      local w = H.world()
      H.flat(w, 63)
      local calls = {}
      local rules = bp.rules.beta173{
        heading = function(ent, strafe, forward, k)
          calls[#calls + 1] = { ent, strafe, forward, k }
          return 0.05, 0 -- always +X, whatever the input
        end,
      }
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = rules }
      steps(w, 2)
      e.forward = 1
      e.vx = 0 -- the air ticks' hook calls gave it some speed already
      w:step()
      local last = calls[#calls]
      assert.equal(e, last[1])
      assert.equal(0, last[2])
      assert.equal(F.input, last[3])
      local _, k = ground_factors(F.slip)
      assert.equal(k, last[4])
      assert.equal(0.05 * ground_factors(F.slip), e.vx)
      assert.equal(0, e.vz)
      assert.equal(3, #calls) -- once per tick, the air ticks included
    end)

    it("a jump hook replaces the jump (a double jump)", function()
      local w = H.world()
      H.flat(w, 63)
      local used = {}
      local rules = bp.rules.beta173{
        jump = function(ent)
          if ent.on_ground then
            ent.vy, used[ent] = 0.42, false
          elseif not used[ent] and ent.vy < 0 then
            ent.vy, used[ent] = 0.42, true
          end
        end,
      }
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = rules }
      steps(w, 2)
      e.jumping = true
      local top = 0
      for _ = 1, 30 do
        w:step()
        top = math.max(top, e.y)
      end
      assert.is_true(used[e])
      -- two jumps: the second starts from about 64.25 with 0.42 up
      assert.is_true(top - 64 > 2.4, "apex " .. (top - 64))
    end)

    it("a failing hook restores the world and names the hook and entity", function()
      local w = H.world()
      H.flat(w, 63)
      local first = w:spawn{ x = 3.5, y = 70, z = 0.5 }
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{
        jump = function() error("no jumping here", 0) end } }
      steps(w, 2)
      first.forward = 1
      e.jumping = true
      local before1, before2 = H.state(first), H.state(e)
      assert.has_error(function() w:step() end,
        "world:step: rules hook 'jump' of entity 2 failed: no jumping here")
      assert.same(before1, H.state(first))
      assert.same(before2, H.state(e))
      e.jumping = false -- the press stays latched until a tick runs (the failed one was undone)
      e.rules = bp.rules.beta173()
      w:step() -- the world still steps, and the latched press jumps once
      assert.is_true(first.y < 70)
      assert.near(64 + 0.42, e.y, 1e-6)
    end)

    it("a heading hook must return two finite numbers", function()
      local w = H.world()
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{
        heading = function() return 0 / 0, 1 end } }
      local before = H.state(e)
      assert.has_error(function() w:step() end,
        "world:step: rules hook 'heading' of entity 1 must return two finite numbers (dvx, dvz)")
      assert.same(before, H.state(e))
    end)

    -- The entity snapshot restores the C side; the hooks and filters are Lua values,
    -- put back from what the step noted before changing them.
    it("a failing step puts back the hooks and filters that Lua code changed in it", function()
      local w = H.world()
      local other = w:spawn{ x = 3.5, y = 64, z = 0.5 }
      local own_jump
      own_jump = function(self)
        self.rules.jump = nil
        self.rules.heading = function() return 1, 0 end
        other.filter = function() return false end
        other.rules = bp.rules.beta173{ jump = own_jump }
        error("undone", 0)
      end
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{ jump = own_jump } }
      e.jumping = true
      assert.has_error(function() w:step() end,
        "world:step: rules hook 'jump' of entity 2 failed: undone")
      assert.equal(own_jump, e.rules.jump)
      assert.is_nil(e.rules.heading)
      assert.is_nil(other.filter)
      assert.is_nil(other.rules.jump)
      -- and the C side follows: the next step runs the restored hook (and fails again)
      assert.has_error(function() w:step() end,
        "world:step: rules hook 'jump' of entity 2 failed: undone")
    end)

    it("a step that succeeds keeps the hook changes made in it", function()
      local w = H.world()
      local still = function() return 0, 0 end
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{
        jump = function(self) self.rules.jump = nil; self.rules.heading = still end } }
      e.jumping = true
      w:step()
      assert.is_nil(e.rules.jump)
      assert.equal(still, e.rules.heading)
    end)

    -- The step's pre-check bounds velocities before anything moves. Inside the step, a
    -- velocity that Lua code writes, or a heading hook's change, must stay within the
    -- limit too: beyond it the step fails (and is undone) instead of a silent clamp.
    it("fails the step when a hook sets a velocity beyond 1024 blocks per tick", function()
      local w = H.world()
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{
        jump = function(self) self.vx = 1e6 end } }
      e.jumping = true
      local before = H.state(e)
      local ok, err = pcall(w.step, w)
      assert.is_false(ok)
      assert.truthy(err:find("^world:step: rules hook 'jump' of entity 1 failed: .*entity " ..
        "field 'vx' would move the entity 1000000 blocks in one tick %(at most 1024 per " ..
        "axis inside world:step%)$"), err)
      assert.same(before, H.state(e))
      -- a heading hook's change is bounded the same way (no velocity can become inf)
      e.rules.jump = nil
      e.rules.heading = function() return 1.7e308, 0 end
      assert.has_error(function() w:step() end,
        "world:step: rules hook 'heading' of entity 1 would move it 1.6999999999999999e+308 blocks in " ..
        "one tick (at most 1024 per axis)")
      assert.same(before, H.state(e))
      -- 1024 itself is allowed, and a legal velocity plus a legal change is clamped
      e.rules.heading = function() return 1024, 0 end
      e.rules.jump = function(self) self.vx = 1024 end
      w:step()
      assert.near(0.5 + 1024, e.x, 1e-9)
    end)

    -- What a step adds on top of legal values must not stop the next step.
    it("clamps what a heading hook or a push adds, so that the next step can start", function()
      local w = H.world()
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{
        heading = function() return 1000, 0 end } }
      e.forward = 1
      w:step() -- in the air: vx = 1000 * 0.91F after the move
      assert.near(1000 * e.rules.air_friction, e.vx, 1e-9)
      w:step() -- 910 + 1000 moves 1024 and is clamped to it
      assert.equal(1024, e.vx)
      assert.equal(0.5 + 1000 + 1024, e.x)
      w:step()
      assert.equal(1024, e.vx)
      -- a later entity's jump hook sets an earlier one's velocity to the legal
      -- -1024; that entity's Beta push then adds -0.05 on top, clamped
      local w2 = H.world()
      H.flat(w2, 63)
      local p = w2:spawn{ x = 0.5, y = 64, z = 0.5 }
      local q = w2:spawn{ x = 0.7, y = 64, z = 0.5, rules = bp.rules.beta173{
        jump = function() p.vx = -1024 end } }
      q.jumping = true
      w2:step()
      assert.equal(-1024, p.vx)
      assert.is_true(pcall(w2.step, w2))
    end)

    -- The tick of one model would read the other's constants for its remaining stages.
    it("refuses a hook's switch of its own entity's model during its tick", function()
      local w = H.world()
      H.flat(w, 63)
      local other
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{
        heading = function(self) self.rules = bp.rules.mccpp(); return 0, 0 end } }
      local before = H.state(e)
      local line = debug.getinfo(1, "l").currentline - 2
      local _, err = pcall(w.step, w)
      assert.equal(("world:step: rules hook 'heading' of entity 1 " ..
        "failed: %s:%d: entity.rules: cannot switch entity 1 from beta173 to mccpp rules during " ..
        "its own tick (the rest of the tick would read the other model's constants); switch " ..
        "them outside world:step, or while another entity ticks")
        :format(debug.getinfo(1, "S").short_src, line), err)
      assert.same(before, H.state(e))
      assert.equal("beta173", e.rules.model)
      -- the same model may change mid-tick; another entity's hook may switch it
      e.rules = bp.rules.beta173{ heading = function(self)
        self.rules = bp.rules.beta173{ gravity = 0 }; return 0, 0 end }
      w:step()
      assert.equal(0, e.rules.gravity)
      other = w:spawn{ x = 5.5, y = 64, z = 0.5, rules = bp.rules.beta173{
        heading = function() e.rules = bp.rules.mccpp(); return 0, 0 end } }
      w:step()
      assert.equal("mccpp", e.rules.model)
      assert.equal("beta173", other.rules.model)
    end)

    it("refuses rules set inside a step whose model would read the velocity beyond 1024", function()
      local w = H.world()
      local e -- ticks second: the first entity's hook switches its model before its tick
      w:spawn{ x = 3.5, y = 64, z = 0.5, rules = bp.rules.mccpp{
        jump = function()
          e.vx = 20000 -- 1000 blocks in a step of 0.05 s
          e.rules = bp.rules.beta173{} -- 20000 blocks per tick
        end } }.jumping = true
      e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.mccpp{} }
      local before = H.state(e)
      local ok, err = pcall(w.step, w, 0.05)
      assert.is_false(ok)
      assert.truthy(err:find("^world:step: rules hook 'jump' of entity 1 failed: .*entity%.rules: " ..
        "the velocity 'vx' would move the entity 20000 blocks in one tick %(at most 1024 per " ..
        "axis inside world:step%)$"), err)
      assert.same(before, H.state(e))
      assert.equal("mccpp", e.rules.model)
      -- the same model reads the velocity in the same units: rules set again in the
      -- middle of a tick whose heading hook made vx 1910 (before the tick's clamp)
      local w2 = H.world()
      local a = w2:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{
        heading = function() return 1000, 0 end } }
      a.forward = 1
      w2:spawn{ x = 1500.5, y = 64, z = 0.5, solid = true } -- in a's path in step 2
      local asked = 0
      a.filter = function(self) asked = asked + 1; self.rules = bp.rules.copy(self.rules); return true end
      w2:step()
      w2:step()
      assert.is_true(asked > 0)
      assert.is_true(a.x < 1500.5)
    end)
  end)

  describe("bp.rules.copy", function()
    it("copies a rules table (hooks included) as well as an entity's view", function()
      local jump = function() end
      local preset = bp.rules.beta173{ jump_impulse = 0.6, jump = jump }
      local c = bp.rules.copy(preset)
      assert.is_false(c == preset)
      assert.equal(getmetatable(preset), getmetatable(c))
      assert.same(preset, c)
      assert.equal(jump, c.jump)
      c.jump_impulse = 0.5
      assert.equal(0.6, preset.jump_impulse)
      -- a plain table: overrides of the preset its model names
      local m = bp.rules.copy{ model = "mccpp", gravity = 10 }
      assert.equal("mccpp", m.model)
      assert.equal(10, m.gravity)
      assert.equal(bp.rules.mccpp().jump_height, m.jump_height)
    end)

    it("lets a rules table or its copy take a hook later, and drop it", function()
      local f = function() end
      for _, r in ipairs{ bp.rules.beta173(), bp.rules.mccpp(),
                          bp.rules.copy(bp.World():spawn{ x = 0, y = 0, z = 0 }.rules) } do
        r.heading, r.jump = f, f
        assert.equal(f, r.heading)
        assert.equal(f, r.jump)
        r.heading = nil
        assert.is_nil(r.heading)
        r.heading = f -- and back again
        assert.equal(f, r.heading)
        r.jump = false -- "no hook", as everywhere rules are read
        assert.is_false(r.jump)
      end
      -- any rule of the table's model may be cleared and set again, options too
      local r = bp.rules.beta173()
      r.gravity, r.resolver = nil, nil
      r.gravity, r.resolver = 0.05, "swept"
      assert.same({ 0.05, "swept" }, { r.gravity, r.resolver })
      local e = bp.World():spawn{ x = 0, y = 0, z = 0, rules = r }
      assert.same({ 0.05, "swept" }, { e.rules.gravity, e.rules.resolver })
    end)

    it("raises for what is not rules", function()
      assert.has_error(function() bp.rules.copy(5) end,
        "bp.rules.copy: bad argument #1 (e.rules or a rules table expected, got number)")
      assert.has_error(function() bp.rules.copy{ foo = 1 } end,
        "bp.rules.copy: unknown rule 'foo' for model beta173")
    end)
  end)

  describe("preset errors", function()
    it("are reported at the caller's line", function()
      raises_here("bp.rules.beta173: unknown rule 'foo' for model beta173",
        function() bp.rules.beta173{ foo = 1 } end)
      raises_here("bp.rules.beta173: rule 'gravity' must be a number",
        function() bp.rules.beta173{ gravity = "0.08" } end)
    end)

    it("name the preset and its argument for overrides that are not a table", function()
      raises_here("bp.rules.beta173: bad argument #1 (table expected, got number)",
        function() bp.rules.beta173(5) end)
      raises_here("bp.rules.beta173: bad argument #1 (table expected, got string)",
        function() bp.rules.beta173("push") end)
      local e = bp.World():spawn{ x = 0, y = 0, z = 0 }
      raises_here("bp.rules.beta173: bad argument #1 (table expected, got blockphys.RulesView)",
        function() bp.rules.beta173(e.rules) end)
      assert.equal("beta173", bp.rules.beta173(nil).model)
    end)

    it("core.make_rules takes the overrides as optional (no second argument)", function()
      local core = require "blockphys.core"
      for _, model in ipairs{ "beta173", "mccpp" } do
        assert.are.same(bp.rules[model](), core.make_rules(model))
      end
      assert.has_error(function() core.make_rules("beta173", 5) end,
        "bad argument #2 to 'make_rules' (table expected, got number)")
    end)
  end)
end)
