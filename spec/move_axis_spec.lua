-- luacheck: std +busted
-- e:move: the per-axis resolver alone (Beta 1.7.3 moveEntity, docs/beta173.md
-- section 3): clip Y then X then Z, flags and velocity zeroing, landing and fall
-- distance, step-up with its ySize cooldown, ceilings, the step-sink quirk, limits.
local bp = require "blockphys"
local H = require "helpers.world"
local F = H.F

local HW = F.half_width        -- 0.30000001192092896
local HEIGHT = F.height        -- 1.7999999523162842
local GROUND = -0.0784000015258789 -- (0 - 0.08) * 0.98F: a grounded entity's vy

-- A world with a stone floor whose top face is y = 1.
local function floored()
  local w = H.world()
  H.flat(w, 0)
  return w
end

-- The floor with a row of slabs at x = 1 and a wall standing on them: a step up
-- the slab reaches the wall's face, no farther than the plain move.
local function slab_under_wall()
  local w = floored()
  w:fill(1, 1, -5, 1, 1, 5, "slab")
  w:fill(1, 2, -5, 1, 3, 5, "stone")
  return w
end

-- An entity standing on the floor (on_ground set by one settling move).
local function standing(w, x, z, y)
  local e = w:spawn{ x = x or 0.5, y = y or 1, z = z or 0.5 }
  e:move(0, GROUND, 0)
  assert.is_true(e.on_ground)
  return e
end

describe("e:move", function()
  describe("per-axis clipping", function()
    -- Obstacles 2 blocks from a free-floating entity at (0.5, 2, 0.5): the move is the
    -- gap between faces, exactly.
    local cases = {
      { "+X", { 3, 0, 0 }, function(w) w:fill(2, -5, -5, 2, 8, 5, "stone") end, 2 - (0.5 + HW) },
      { "-X", { -3, 0, 0 }, function(w) w:fill(-2, -5, -5, -2, 8, 5, "stone") end, -1 - (0.5 - HW) },
      { "+Z", { 0, 0, 3 }, function(w) w:fill(-5, -5, 2, 5, 8, 2, "stone") end, 2 - (0.5 + HW) },
      { "-Z", { 0, 0, -3 }, function(w) w:fill(-5, -5, -2, 5, 8, -2, "stone") end, -1 - (0.5 - HW) },
      { "+Y", { 0, 3, 0 }, function(w) w:fill(-5, 5, -5, 5, 5, 5, "stone") end, 5 - (2 + HEIGHT) },
      { "-Y", { 0, -3, 0 }, function(w) w:fill(-5, 0, -5, 5, 0, 5, "stone") end, -1 },
    }
    for _, c in ipairs(cases) do
      local name, d, build, expected = c[1], c[2], c[3], c[4]
      it("stops at the obstacle face moving " .. name, function()
        local w = H.world()
        build(w)
        local e = w:spawn{ x = 0.5, y = 2, z = 0.5, vx = 7, vy = 7, vz = 7 }
        local out = { e:move(d[1], d[2], d[3]) }
        local axis = d[1] ~= 0 and 1 or d[2] ~= 0 and 2 or 3
        for a = 1, 3 do
          assert.equal(a == axis and expected or 0, out[a])
        end
        local pos = { e:position() }
        local start = { 0.5, 2, 0.5 }
        assert.equal(start[axis] + expected, pos[axis])
        -- only the clipped component's velocity is zeroed
        local vel = { e:velocity() }
        for a = 1, 3 do assert.equal(a == axis and 0 or 7, vel[a]) end
        assert.equal(axis ~= 2, e.collided_horizontally)
        assert.equal(axis == 2, e.collided_vertically)
        assert.equal(name == "-Y", e.on_ground)
      end)
    end

    -- The gap to a face, computed as a double, can be rounded so that face + gap lands
    -- an ulp past the obstacle (the game's clip then ends inside it, and the obstacle
    -- no longer stops it). A move of exactly that gap is settled as a longer one is.
    -- That rounding needs a face with finer bits than the gap's and an obstacle face
    -- with fine bits beside it: X and Z start about 1.3 from the centre toward -1
    -- (face near -1, obstacle at 1); Y about 3.9 below with the ceiling at 3, or 1.3
    -- above with the floor's top at -1. Each case walks its start until it rounds so.
    -- The first entity spawn(i) makes (i = 1, 2, ...) whose face(e) + (to - face(e))
    -- rounds past `to` toward sign, and that gap; the others are removed.
    local function rounding_start(w, spawn, face, to, sign)
      for i = 1, 10000 do
        local e = spawn(i)
        local f = face(e)
        if sign * (f + (to - f)) > sign * to then return e, to - f end
        w:remove(e)
      end
      error("no start found whose gap rounds past the face")
    end
    local near_faces = {
      { "+X", 1, 1, 1, function(w) w:fill(1, -9, -9, 1, 9, 9, "stone") end, -1.3 },
      { "-X", 1, -1, -1, function(w) w:fill(-2, -9, -9, -2, 9, 9, "stone") end, 1.3 },
      { "+Y", 2, 1, 3, function(w) w:fill(-9, 3, -9, 9, 3, 9, "stone") end, -3.81 },
      { "-Y", 2, -1, -1, function(w) w:fill(-9, -2, -9, 9, -2, 9, "stone") end, 1.3 },
      { "+Z", 3, 1, 1, function(w) w:fill(-9, -9, 1, 9, 9, 1, "stone") end, -1.3 },
      { "-Z", 3, -1, -1, function(w) w:fill(-9, -9, -2, 9, 9, -2, "stone") end, 1.3 },
    }
    for _, c in ipairs(near_faces) do
      local name, axis, sign, to, build, from = c[1], c[2], c[3], c[4], c[5], c[6]
      it("never ends inside an obstacle moving " .. name .. " by exactly the rounded gap", function()
        local w = H.world()
        build(w)
        local function face(e) return select(sign > 0 and axis + 3 or axis, e:box():unpack()) end
        local e, gap = rounding_start(w, function(i)
          local start = { 0.5, 0.5, 0.5 }
          start[axis] = from - sign * i * 1e-5
          return w:spawn{ x = start[1], y = start[2], z = start[3] }
        end, face, to, sign)
        local d = { 0, 0, 0 }
        d[axis] = gap
        local out = { e:move(d[1], d[2], d[3]) }
        assert.is_true(sign * out[axis] <= sign * gap and sign * out[axis] > 0)
        assert.same({}, w:boxes_in(e:box()))
        d[axis] = sign * 0.5 -- and the obstacle still stops it
        e:move(d[1], d[2], d[3])
        assert.same({}, w:boxes_in(e:box()))
        assert.is_true(sign * face(e) <= sign * to)
      end)
    end

    it("never ends a Beta tick inside a wall its velocity reaches exactly", function()
      local w = floored()
      w:fill(-2, 1, 1, 2, 2, 1, "stone") -- a wall, face z = 1
      local rules = bp.rules.beta173{ step_sink_fix = true }
      local function z2(e) return select(6, e:box():unpack()) end
      local e, gap = rounding_start(w, function(i)
        return w:spawn{ x = 0.5, y = 1, z = -1.3 - i * 1e-5, rules = rules }
      end, z2, 1, 1)
      e.vz = gap -- this tick's move is exactly the gap (no input, on the ground)
      for _ = 1, 10 do
        w:step()
        e.forward = 1 -- then walk on into the wall
        assert.same({}, w:boxes_in(e:box()))
      end
      assert.is_true(z2(e) <= 1)
    end)

    it("moves freely and sets no flags without obstacles", function()
      local w = H.world()
      local e = w:spawn{ x = 0.5, y = 2, z = 0.5, vx = 1 }
      assert.same({ 1.5, -0.25, 3 }, { e:move(1.5, -0.25, 3) })
      assert.same({ 2, 1.75, 3.5 }, { e:position() })
      assert.is_false(e.collided_horizontally or e.collided_vertically or e.on_ground)
      assert.equal(1, e.vx)
    end)

    it("keeps the box as the ground truth (position derived from it)", function()
      local w = H.world()
      local e = w:spawn{ x = 0.5, y = 2, z = 0.5 }
      e:move(0.1, 0, 0)
      local x1, y1, z1, x2, y2, z2 = e:box():unpack()
      assert.equal(0.6 - HW, x1); assert.equal(0.6 + HW, x2)
      assert.equal(2, y1); assert.equal(2 + HEIGHT, y2)
      assert.equal(0.5 - HW, z1); assert.equal(0.5 + HW, z2)
      assert.equal((x1 + x2) / 2, e.x)
    end)
  end)

  describe("landing and fall distance", function()
    it("lands: on_ground, vy zeroed, fall distance reset", function()
      local w = floored()
      local e = w:spawn{ x = 0.5, y = 4, z = 0.5, vy = -3 }
      e:move(0, -1, 0)
      e:move(0, -0.75, 0)
      assert.equal(1.75, e.fall_distance) -- accumulates -dy while falling
      assert.is_false(e.on_ground)
      assert.equal(-3, e.vy)
      local _, dy = e:move(0, -2, 0)
      assert.equal(-1.25, dy)
      assert.equal(1, e.y)
      assert.is_true(e.on_ground)
      assert.is_true(e.collided_vertically)
      assert.equal(0, e.vy)
      assert.equal(0, e.fall_distance)
    end)

    it("does not count upward moves and keeps counting until the landing", function()
      local w = floored()
      local e = w:spawn{ x = 0.5, y = 4, z = 0.5 }
      e:move(0, -0.5, 0)
      e:move(0, 0.25, 0)
      assert.equal(0.5, e.fall_distance)
      e:move(0, -0.5, 0)
      assert.equal(1, e.fall_distance)
    end)

    it("a zero vertical move neither lands nor resets", function()
      local w = floored()
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      e.fall_distance = 2
      e:move(0, 0, 0)
      assert.is_false(e.on_ground)
      assert.equal(2, e.fall_distance)
    end)
  end)

  describe("axis order Y, X, Z", function()
    it("tests a ledge with the X position from before the move (Y first)", function()
      local w = floored()
      w:fill(2, 1, -5, 4, 1, 5, "stone") -- a ledge whose top is 2
      local e = w:spawn{ x = 0.5, y = 2.5, z = 0.5 }
      -- X first would pass over the ledge (feet at 2.5 > 2) and land on it; Y first
      -- drops to 1.5 and then X hits the ledge's side.
      local dx, dy = e:move(1.5, -1, 0)
      assert.equal(-1, dy)
      assert.equal(2 - (0.5 + HW), dx)
      assert.equal(1.5, e.y)
      assert.is_true(e.collided_horizontally)
      assert.is_false(e.on_ground)
    end)

    it("moves X before Z at an outside corner", function()
      local w = floored()
      w:fill(1, 1, 1, 1, 3, 1, "stone") -- a pillar diagonal to the entity
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      local dx, _, dz = e:move(0.5, 0, 0.5)
      assert.equal(0.5, dx) -- X passes beside the pillar
      assert.equal(1 - (0.5 + HW), dz) -- then Z is blocked by it
      assert.same({ 1, 1, 0.5 + dz }, { e:position() })
    end)
  end)

  describe("sliding", function()
    it("slides along a wall: the blocked component is cut, the other kept", function()
      local w = floored()
      w:fill(1, 1, -5, 1, 3, 5, "stone")
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5, vx = 0.5, vz = 0.3 }
      local dx, dy, dz = e:move(0.5, 0, 0.3)
      assert.equal(1 - (0.5 + HW), dx)
      assert.equal(0, dy)
      assert.equal(0.3, dz)
      assert.equal(0, e.vx)
      assert.equal(0.3, e.vz)
      assert.is_true(e.collided_horizontally)
    end)

    it("stops in a corner on both axes", function()
      local w = floored()
      w:fill(1, 1, -5, 1, 3, 5, "stone")
      w:fill(-5, 1, 1, 5, 3, 1, "stone")
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5, vx = 0.5, vz = 0.5 }
      local dx, _, dz = e:move(0.5, 0, 0.5)
      assert.equal(1 - (0.5 + HW), dx)
      assert.equal(1 - (0.5 + HW), dz)
      assert.equal(0, e.vx)
      assert.equal(0, e.vz)
      -- pressing on: no movement at all
      assert.same({ 0, 0, 0 }, { e:move(0.5, 0, 0.5) })
    end)
  end)

  describe("sneak edge guard (section 3a)", function()
    -- An upper floor of x <= 0 (top 1, its edge at x = 1) and a lower floor of x >= 1
    -- one block down (top 0); `layer` puts a block of that height on the lower floor.
    local function ledge(layer)
      local w = H.world()
      w:fill(-8, 0, -8, 0, 0, 8, "stone")
      w:fill(1, -1, -8, 8, -1, 8, "stone")
      if layer then
        w:define_block{ name = "layer", boxes = { { 0, 0, 0, 1, layer, 1 } } }
        w:fill(1, 0, -8, 8, 0, 8, "layer")
      end
      return w
    end

    -- The guard's loop restated for a move of +1 on X from the box's min x `lo`: the
    -- probe (the box moved by d and 1.0 down) overlaps the upper floor's block [0, 1]
    -- while lo + d < 1, and the bare lower floor's top face (0) only touches it.
    local function guarded(lo)
      local d = 1
      while lo + d >= 1 do d = d - 0.05 end
      return d -- 0.7999999999999998 from lo = 0.5 - HW: 1 - 4 x 0.05 in doubles
    end

    -- Pins the guard's probe depth (rules guard_probe = 1.0, move_axis.c's
    -- -guard_probe): a floor exactly 1.0 down is no support, any less is. A carpet
    -- (1/16) and a film (1/1024) on the lower floor make drops of 0.9375 and
    -- 0.9990234375: the probe overlaps them and the whole move of 1 passes. A probe of
    -- 0.99 would miss the film, one of 0.9 the carpet too, and hold the entity at
    -- guarded(lo) as over the bare floor. Exact comparisons (no tolerance): the
    -- expected values restate the core's double operations.
    for _, c in ipairs{ { "bare floor", nil }, { "carpet", 1 / 16 }, { "film", 1 / 1024 } } do
      local name, layer = c[1], c[2]
      it("guard probe 1.0 down: a sneaker at a 1-block drop onto " .. name, function()
        local w = ledge(layer)
        local e = standing(w)
        e.sneaking = true
        e.vx = 1
        local lo = e:box().x1
        local d = layer and 1 or guarded(lo)
        assert.equal(0.7999999999999998, guarded(lo))
        local dx, dy, dz = e:move(1, GROUND, 0)
        assert.equal(d, dx) -- exact: both are the same double sums
        assert.equal(0, dy)
        assert.equal(0, dz)
        assert.equal(lo + d, e:box().x1)
        assert.equal(layer and 1.5 or 1.2999999999999998, e.x)
        -- Y was clipped first, with the box still over the upper floor: on the ground
        assert.equal(1, e.y)
        assert.is_true(e.on_ground)
        -- a guarded stop is no collision and keeps the velocity
        assert.is_false(e.collided_horizontally)
        assert.equal(1, e.vx)
      end)
    end

    -- Pins the on_ground term of guard = on_ground && sneaking && sneak_guard: an
    -- entity in the air (a new entity is not on the ground) is not held back even
    -- while sneaking. With the guard it would stop at guarded(lo) = 0.8 as above.
    it("does not hold back a sneaking entity in the air", function()
      local w = ledge()
      local e = w:spawn{ x = 0.5, y = 1.5, z = 0.5 }
      assert.is_false(e.on_ground)
      e.sneaking = true
      assert.same({ 1, -0.25, 0 }, { e:move(1, -0.25, 0) })
      assert.same({ 1.5, 1.25, 0.5 }, { e:position() })
      assert.is_false(e.on_ground or e.collided_horizontally or e.collided_vertically)
    end)

    -- Pins the sneak_guard term: with the rule off a sneaker on the ground walks off.
    it("does not hold back a sneaker on the ground with sneak_guard = false", function()
      local w = ledge()
      local e = standing(w)
      e.sneaking = true
      e.rules.sneak_guard = false
      assert.same({ 1, 0, 0 }, { e:move(1, GROUND, 0) })
      assert.equal(1.5, e.x)
    end)
  end)

  describe("step-up", function()
    it("steps onto a 0.5 slab from the ground", function()
      local w = floored()
      w:fill(1, 1, -5, 1, 1, 5, "slab")
      local e = standing(w)
      local dx, dy, dz = e:move(0.5, GROUND, 0)
      assert.equal(0.5, dx)
      assert.equal(0.5, dy)
      assert.equal(0, dz)
      assert.same({ 1, 1.5, 0.5 }, { e:position() })
      -- dy is the down-probe's result (0): a vertical collision, on the ground
      assert.is_true(e.on_ground)
      assert.is_true(e.collided_vertically)
      assert.is_false(e.collided_horizontally)
      -- ySize = (float)(0 + frac(1.5) + 0.01)
      assert.equal(H.f32(0.51), e.y_size)
    end)

    it("does not step when the entity is in the air and not landing", function()
      local w = floored()
      w:fill(1, 1, -5, 1, 1, 5, "slab")
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      assert.is_false(e.on_ground)
      local dx, dy = e:move(0.5, 0, 0)
      assert.equal(1 - (0.5 + HW), dx)
      assert.equal(0, dy)
    end)

    it("steps on the tick it lands (canStep uses the Y-clipped result)", function()
      local w = floored()
      w:fill(1, 1, -5, 1, 1, 5, "slab")
      local e = w:spawn{ x = 0.5, y = 1.25, z = 0.5 }
      local _, dy = e:move(0.5, -0.5, 0)
      assert.equal(0.25, dy) -- from 1.25 up onto the slab at 1.5
      assert.equal(1.5, e.y)
      assert.is_true(e.on_ground)
    end)

    it("does not step onto a full block (a tie keeps the plain move)", function()
      local w = floored()
      w:fill(1, 1, -5, 1, 1, 5, "stone")
      local e = standing(w)
      local dx, dy = e:move(0.5, GROUND, 0)
      assert.equal(1 - (0.5 + HW), dx)
      assert.equal(0, dy)
      assert.equal(1, e.y)
      assert.equal(0, e.y_size)
      assert.is_true(e.collided_horizontally)
    end)

    it("does not step onto a 1.5-high fence", function()
      local w = floored()
      w:set_block(1, 1, 0, "fence")
      local e = standing(w)
      local dx = e:move(1, GROUND, 0)
      assert.equal(1.375 - (0.5 + HW), dx)
      assert.equal(1, e.y)
    end)

    it("keeps the plain move when the step goes no farther", function()
      -- A slab with a wall on top of it: the plain move stops at the slab's face and
      -- the stepped move at the wall's face, the same X: a tie keeps the plain move.
      local w = slab_under_wall()
      local e = standing(w)
      local dx, dy = e:move(0.5, GROUND, 0)
      assert.equal(1 - (0.5 + HW), dx)
      assert.equal(0, dy)
      assert.equal(1, e.y)
    end)

    it("rests for two moves after a step (ySize 0.51 -> 0.204 -> 0.0816 -> 0.03264)", function()
      local w = floored()
      w:fill(1, 1, -5, 1, 1, 5, "slab")   -- first step: 1 -> 1.5
      w:fill(2, 1, -5, 9, 1, 5, "stone")  -- second step: 1.5 -> 2
      local e = standing(w)
      e:move(0.5, GROUND, 0)
      assert.equal(1.5, e.y)
      local ys = H.f32(0.51)
      assert.equal(ys, e.y_size)
      -- each move first decays ySize by 0.4F, rounded to float (a float field)
      local expected_y = { 1.5, 1.5, 2 }
      for i = 1, 3 do
        ys = H.f32(ys * F.camera_decay)
        e:move(1, GROUND, 0)
        assert.equal(ys, e.y_size)
        assert.equal(expected_y[i], e.y)
      end
      assert.is_near(0.204, H.f32(H.f32(0.51) * F.camera_decay), 1e-7)
      assert.is_near(0.03264, e.y_size, 1e-7)
      assert.is_true(e.y_size < H.f32(0.05))
      -- move 2 reached the stone's face, move 3 was blocked, move 4 stepped 1 block
      assert.equal(1 + (2 - (1 + HW)) + 1, e.x)
    end)

    -- The tests below compare exactly (no tolerance): every expected value is a sum of
    -- the same doubles (or a float rounding, H.f32) that the core computes.

    -- Pins the strict ySize < step_cooldown: the rule set to exactly the ySize the
    -- next move decays to (0.51F x 0.4F = 0.204, a float) forbids the step; a
    -- cooldown just above it allows it (the scene does step).
    it("steps only while ySize < step_cooldown (strictly)", function()
      local ys = H.f32(H.f32(0.51) * F.camera_decay) -- 0.20399999618530273
      for _, c in ipairs{ { ys, false }, { ys + 2 ^ -40, true } } do
        local cooldown, steps = c[1], c[2]
        local w = floored()
        w:fill(1, 1, -5, 1, 1, 5, "slab")   -- first step: 1 -> 1.5
        w:fill(2, 1, -5, 9, 1, 5, "stone")  -- second step: 1.5 -> 2
        local e = standing(w)
        e:move(0.5, GROUND, 0)
        assert.equal(H.f32(0.51), e.y_size)
        e.rules.step_cooldown = cooldown
        local dx, dy = e:move(1, GROUND, 0)
        assert.equal(ys, e.y_size) -- frac(2) = 0: a kept step adds nothing
        if steps then
          assert.same({ 1, 0.5 }, { dx, dy })
          assert.same({ 2, 2 }, { e.x, e.y })
          assert.is_false(e.collided_horizontally)
        else
          assert.same({ 2 - (1 + HW), 0 }, { dx, dy }) -- the stone's face
          assert.same({ 1 + (2 - (1 + HW)), 1.5 }, { e.x, e.y })
          assert.is_true(e.collided_horizontally)
        end
      end
    end)

    -- Pins step_height > 0 as the switch: a landing move (canStep from the Y clip)
    -- beside a 0.25 plate. From y = 1.3 the step attempt starts at the ORIGINAL box,
    -- whose feet are above the plate: with step_height 0.5 it goes up 0.5, across and
    -- down 0.5 back to 1.3 (the plate's top 1.25 is not reached), which is farther than
    -- the plain move stopped at the plate, so it is kept: the entity hovers at 1.3 and
    -- dy = -0.5 = oy is no vertical collision (Beta: the step ignores the requested dy).
    -- With step_height 0 there is no attempt: it lands at 1 against the plate.
    it("does not step with step_height = 0 (also on the landing move)", function()
      for _, h in ipairs{ 0.5, 0 } do
        local w = floored()
        w:define_block{ name = "plate", boxes = { { 0, 0, 0, 1, 0.25, 1 } } }
        w:fill(1, 1, -5, 1, 1, 5, "plate")
        local e = w:spawn{ x = 0.5, y = 1.3, z = 0.5, rules = bp.rules.beta173{ step_height = h } }
        local dx, dy = e:move(0.5, -0.5, 0)
        if h > 0 then
          assert.same({ 0.5, 0 }, { dx, dy }) -- e:move returns the position change
          assert.same({ 1, 1.3 }, { e.x, e.y })
          assert.is_false(e.on_ground or e.collided_vertically or e.collided_horizontally)
          assert.equal(0.5, e.fall_distance)
          assert.equal(H.f32(1.3 - 1 + 0.01), e.y_size) -- frac(1.3) + 0.01, a float
        else
          assert.equal(1 - (0.5 + HW), dx)
          assert.equal(1, e.y)
          assert.is_true(e.on_ground and e.collided_vertically and e.collided_horizontally)
          assert.equal(0, e.fall_distance)
          assert.equal(0, e.y_size)
        end
      end
    end)

    -- Pins the guard term of (guard or ySize < step_cooldown): right after a step
    -- ySize decays to 0.204 >= 0.05F, which forbids a walker's next step (move 2 of
    -- "rests for two moves after a step"), but a sneaker on the ground skips that test
    -- and steps at once.
    it("lets a sneaker on the ground step during the ySize cooldown", function()
      local w = floored()
      w:fill(1, 1, -5, 1, 1, 5, "slab")
      w:fill(2, 1, -5, 9, 1, 5, "stone")
      local e = standing(w)
      e:move(0.5, GROUND, 0)
      e.sneaking = true
      -- the guard's probe (1.0 down) meets the stone ahead: no reduction
      assert.same({ 1, 0.5, 0 }, { e:move(1, GROUND, 0) })
      assert.same({ 2, 2, 0.5 }, { e:position() })
      assert.equal(H.f32(H.f32(0.51) * F.camera_decay), e.y_size)
      assert.is_true(e.on_ground)
      assert.is_false(e.collided_horizontally)
    end)

    -- The same through world:step: each Beta tick raises a sneaker's ySize to 0.2F
    -- before the move, which decays it to 0.08 >= 0.05F, so only the guard lets a
    -- sneaking walker up a slab; 20 ticks at sneaking speed cover more than the 0.2 to
    -- the slab's face.
    it("lets a sneaking walker (world:step) climb a slab", function()
      local w = floored()
      w:fill(1, 1, -5, 9, 1, 5, "slab")
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
      w:step(); w:step()
      e.sneaking, e.forward, e.yaw = true, 1, -90 -- toward +X
      for _ = 1, 20 do w:step() end
      assert.equal(1.5, e.y)
      assert.is_true(e.on_ground)
      assert.is_true(e.x - HW > 1) -- the whole box is over the slab
      assert.equal(H.f32(F.sneak_camera * F.camera_decay), e.y_size) -- 0.080000005662441254
    end)

    -- Pins that a kept step reports dy from its down-probe alone, and that a grounded
    -- entity may step on a move with dy = 0 (canStep = onGround, not only a landing).
    -- Onto a 0.25 plate: up 0.5, across, down -0.5 clipped to -0.25 at the plate's top.
    -- oy = 0 != dy = -0.25: a vertical collision, but not on the ground (oy < 0 fails),
    -- and the 0.25 "fallen" counts as fall distance; ySize = (float)(0.25 + 0.01).
    it("reports the step's down-probe as dy (a 0.25 plate, dy = 0)", function()
      local w = floored()
      w:define_block{ name = "plate", boxes = { { 0, 0, 0, 1, 0.25, 1 } } }
      w:fill(1, 1, -5, 1, 1, 5, "plate")
      local e = standing(w)
      e.vy = 0.5
      assert.same({ 0.5, 0.25, 0 }, { e:move(0.5, 0, 0) }) -- the position change
      assert.same({ 1, 1.25, 0.5 }, { e:position() })
      assert.is_true(e.collided_vertically)
      assert.is_false(e.on_ground)
      assert.is_false(e.collided_horizontally)
      assert.equal(0.25, e.fall_distance)
      assert.equal(0, e.vy) -- oy != dy zeroes vy
      assert.equal(H.f32(0.26), e.y_size)
    end)

    -- Pins the truncation in frac = minY - (int)minY: at negative heights (int) rounds
    -- toward 0, so a step from -10 onto a slab (-9.5) has frac = -9.5 - (-9) = -0.5,
    -- not > 0, and adds nothing to ySize (floor() would give 0.5 and ySize 0.51F).
    it("adds no ySize for a step below y = 0 (Java (int) truncates)", function()
      local w = H.world()
      H.flat(w, -11) -- top face at y = -10
      w:fill(1, -10, -5, 1, -10, 5, "slab")
      local e = standing(w, 0.5, 0.5, -10)
      assert.same({ 0.5, 0.5, 0 }, { e:move(0.5, GROUND, 0) })
      assert.same({ 1, -9.5, 0.5 }, { e:position() })
      assert.is_true(e.on_ground)
      assert.equal(0, e.y_size)
    end)

    -- Pins the tie rule's plain side dx^2 + dz^2 (not dx^2 alone): moving diagonally
    -- into a slab with a wall on it, the step reaches the same (0.2, 0.3) as the plain
    -- move, a tie that keeps the plain move. Had the step been kept, dy would be its
    -- down-probe (-0.5 from its rise): a vertical collision and 0.5 of fall distance.
    it("keeps the plain move on a diagonal tie", function()
      local w = slab_under_wall()
      local e = standing(w)
      assert.same({ 1 - (0.5 + HW), 0, 0.3 }, { e:move(0.5, 0, 0.3) })
      assert.same({ 1 - HW, 1, 0.8 }, { e:position() })
      assert.is_false(e.collided_vertically)
      assert.equal(0, e.fall_distance)
      assert.is_true(e.collided_horizontally)
    end)
  end)

  describe("ceilings", function()
    it("clips a rising move at the ceiling and zeroes vy", function()
      local w = floored()
      w:fill(-5, 3, -5, 5, 3, 5, "stone")
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5, vy = 1 }
      local _, dy = e:move(0, 1, 0)
      assert.equal(3 - (1 + HEIGHT), dy)
      assert.equal(0, e.vy)
      assert.is_true(e.collided_vertically)
      assert.is_false(e.on_ground)
    end)

    it("keeps the plain move when a low ceiling stops the step's rise", function()
      local w = floored()
      w:fill(1, 1, -5, 1, 1, 5, "slab")
      w:fill(-5, 3, -5, 5, 3, 5, "stone") -- 0.2 above the head: too low to rise 0.5
      local e = standing(w)
      local dx, dy = e:move(0.5, GROUND, 0)
      assert.equal(1 - (0.5 + HW), dx)
      assert.equal(0, dy)
      assert.equal(1, e.y)
    end)
  end)

  describe("the step-sink quirk (section 9.2)", function()
    -- A 0.125 plate on the floor in a corridor whose ceiling is 0.2 above the head:
    -- the step rises 0.2 (enough to clear the plate), moves past it, and its -0.5
    -- down-probe only sees boxes gathered over [minY, maxY + 0.5], which excludes the
    -- floor the entity stands on: it sinks 0.3 into the floor.
    local function corridor(fix)
      local w = floored()
      w:define_block{ name = "plate", boxes = { { 0, 0, 0, 1, 0.125, 1 } } }
      w:fill(1, 1, -5, 1, 1, 5, "plate")
      w:fill(-5, 3, -5, 9, 3, 5, "stone")
      local e = w:spawn{ x = 0.5, y = 1, z = 0.5, rules = bp.rules.beta173{ step_sink_fix = fix } }
      e:move(0, GROUND, 0)
      return w, e
    end
    local rise = 3 - (1 + HEIGHT) -- 0.2000000476837158

    it("sinks with step_sink_fix = false (the preset's default)", function()
      assert.is_false(bp.rules.beta173().step_sink_fix)
      local w, e = corridor(false)
      local dx, dy = e:move(2, GROUND, 0)
      assert.equal(2, dx)
      assert.equal(rise - 0.5, dy)
      assert.equal(1 + rise - 0.5, e.y)
      assert.is_true(e.on_ground)
      -- the entity now overlaps the floor block under it
      local inside = 0
      for _, b in ipairs(w:boxes_in(e:box())) do
        if b:overlaps(e:box()) then inside = inside + 1 end
      end
      assert.is_true(inside > 0)
    end)

    it("lands on the floor with step_sink_fix = true", function()
      local w, e = corridor(true)
      local dx, dy = e:move(2, GROUND, 0)
      assert.equal(2, dx)
      assert.equal(0, dy)
      assert.equal(1, e.y)
      assert.same({}, w:boxes_in(e:box()))
    end)

    it("lands on the floor for MC-CPP rules on the axis resolver, unless asked to sink", function()
      assert.is_true(bp.rules.mccpp().step_sink_fix)
      for _, fix in ipairs{ true, false } do
        local w = floored()
        w:define_block{ name = "plate", boxes = { { 0, 0, 0, 1, 0.125, 1 } } }
        w:fill(1, 1, -5, 1, 1, 5, "plate")
        w:fill(-5, 3, -5, 9, 3, 5, "stone")
        local e = w:spawn{ x = 0.5, y = 1, z = 0.5,
          rules = bp.rules.mccpp{ resolver = "axis", step_sink_fix = fix } }
        e:move(0, GROUND, 0)
        local dx, dy = e:move(2, GROUND, 0)
        assert.equal(2, dx)
        if fix then
          assert.same({ 0, 1 }, { dy, e.y })
          assert.same({}, w:boxes_in(e:box()))
        else -- rises 0.2 under the ceiling, probes 0.6 (MC-CPP's step_height) down
          assert.equal(rise - 0.6, dy)
          assert.is_true(#w:boxes_in(e:box()) > 0)
        end
      end
    end)

    -- Pins the gather of a move that may step: its region reaches step_height below
    -- the feet (move_axis.c, region.lo[1] = min(lo + dy, lo - h)), which the fixed
    -- down-probe needs. The same corridor, but beyond the plate the floor is 0.25
    -- lower (blocks 0.75 high, top 0.75): the step rises 0.2000000476837158 and its
    -- -0.5 down-probe stops on that top 0.45000004768 down, at exactly 0.75. A gather
    -- down to lo + dy = 0.9216 only would miss those blocks: the entity would sink to
    -- 0.70000004768 inside them.
    it("lands on a lower floor beyond the plate with step_sink_fix = true", function()
      local w = H.world()
      w:define_block{ name = "plate", boxes = { { 0, 0, 0, 1, 0.125, 1 } } }
      w:define_block{ name = "low", boxes = { { 0, 0, 0, 1, 0.75, 1 } } }
      w:fill(-5, 0, -5, 1, 0, 5, "stone") -- floor top 1 up to x = 2
      w:fill(2, 0, -5, 9, 0, 5, "low")    -- floor top 0.75 beyond
      w:fill(1, 1, -5, 1, 1, 5, "plate")
      w:fill(-5, 3, -5, 9, 3, 5, "stone")
      local e = standing(w)
      e.rules.step_sink_fix = true
      local dx, dy = e:move(2, GROUND, 0)
      assert.equal(2, dx)
      assert.equal(-0.25, dy)
      assert.same({ 2.5, 0.75, 0.5 }, { e:position() })
      assert.is_true(e.on_ground)
      assert.same({}, w:boxes_in(e:box()))
      assert.equal(H.f32(0.75 + 0.01), e.y_size) -- frac(0.75) + 0.01, a float
    end)
  end)

  describe("limits", function()
    it("accepts 1024 blocks per axis and refuses more, changing nothing", function()
      local w = H.world()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      assert.same({ 1024, -1024, 1024 }, { e:move(1024, -1024, 1024) })
      local before = H.state(e)
      assert.has_error(function() e:move(1024.5, 0, 0) end,
        "bad argument #1 to 'move' (displacement too large (at most 1024 blocks per axis))")
      assert.has_error(function() e:move(0, -2000, 0) end,
        "bad argument #2 to 'move' (displacement too large (at most 1024 blocks per axis))")
      assert.has_error(function() e:move(0, 0, 0 / 0) end,
        "bad argument #3 to 'move' (number must be finite)")
      assert.same(before, H.state(e))
    end)
  end)
end)
