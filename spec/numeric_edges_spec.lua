-- luacheck: std +busted
-- Floating-point edges of the collision arithmetic (found by a numeric fuzz):
-- gaps far below the ulp of 1, entry times that underflow, boxes of zero thickness
-- on an integer plane, and the lowest rows of the fast cell walk. The promise under
-- test is docs/beta173.md's ("Differences from the game"): no clip or sweep ends a
-- box inside a box it did not start in, and a clip never moves a box against the
-- displacement asked for.
local bp = require "blockphys"
local C = bp.Collider

describe("numeric edges", function()
  -- A gap of 1.37e-18 between a face and an obstacle: f + gap rounds past the
  -- obstacle's face, and a correction step of the ulp of 1 (2.2e-16) would turn the
  -- displacement around.
  describe("a gap far below the ulp of 1", function()
    it("clips to a displacement of the requested sign that stops at the face", function()
      local d = C(-1, 0, 0, -1.37e-18, 1, 1):clip_x(C(3.1e-31, 0, 0, 1, 1, 1), 1)
      assert.is_true(d > 0 and -1.37e-18 + d <= 3.1e-31)
      local d2 = C(1.37e-18, 0, 0, 1, 1, 1):clip_x(C(-1, 0, 0, -3.1e-31, 1, 1), -1)
      assert.is_true(d2 < 0 and 1.37e-18 + d2 >= -3.1e-31)
    end)

    it("lands a falling entity on a floor 1e-18 below it, not up into the ceiling", function()
      local w = bp.World()
      w:define_block{ name = "stone" }
      w:set_block(0, 1, 0, "stone")                        -- ceiling: bottom face y = 1
      w:add_collider(C(0, -1, 0, 1, -3.1e-31, 1))           -- floor: top face -3.1e-31
      local e = w:spawn{ x = 0.5, y = 1.37e-18, z = 0.5, height = 1 } -- top at y = 1
      local _, dy = e:move(0, -1, 0)
      assert.is_true(dy < 0)
      assert.is_true(e.on_ground)
      assert.same({}, w:boxes_in(e:box()))
    end)

    it("sweeps toward a wall 1e-18 away without moving away from it", function()
      local w = bp.World()
      w:add_collider(C(-1, 0, 0, -3.1e-31, 1, 1))
      local c = C(1.37e-18, 0.25, 0.25, 1, 0.75, 0.75)
      local t, ax = w:sweep(c, -3.5, 0, 0)
      assert.is_true(t < 1e-15 and ax <= 0)
      assert.is_false(C(1.37e-18 + ax, 0.25, 0.25, 1 + ax, 0.75, 0.75):overlaps(C(-1, 0, 0, -3.1e-31, 1, 1)))
    end)
  end)

  -- A face 1e-323 behind the box: the gap over a speed above 2 underflows to -0,
  -- which must still read as "already behind" (the boxes overlap on that axis).
  describe("an entry time that underflows", function()
    local platform = C(-1, -1, -1e-323, 1, 0, 1)
    local c = C(-0.3, 0, -0.6, 0.3, 1.8, 0) -- on the platform, its front face at z = 0

    it("is no hit for Collider:sweep, at any speed", function()
      assert.same({ 1, 0, 0, 0 }, { c:sweep(platform, 0, 0.5, 5) })
      assert.same({ 1, 0, 0, 0 }, { c:sweep(platform, 0, 0.5, 0.4) })
    end)

    -- The exit time alike: 1e-323 past the platform's far face and moving away, a box
    -- landing on its top plane (an entry of -0 on Y) is no hit either.
    it("is no hit when the exit time underflows", function()
      local past = C(-0.3, 0, 1e-323, 0.3, 1.8, 0.6)
      assert.same({ 1, 0, 0, 0 }, { past:sweep(C(-1, -1, -1, 1, 0, 0), 0, -0.5, 5) })
    end)

    it("is no hit for world:sweep and e:move_swept", function()
      local w = bp.World()
      w:add_collider(platform)
      assert.same({ 1, 0, 0.5, 5 }, { w:sweep(c, 0, 0.5, 5) })
      local e = w:spawn{ x = 0, y = 0, z = -0.3, width = 0.6, rules = bp.rules.mccpp() }
      assert.same({ 0, 0.5, 5 }, { e:move_swept(0, 0.5, 5) })
      assert.is_false(e.collided_horizontally)
    end)
  end)

  -- A box of zero thickness on the plane x = 5: its cell range is empty (no block
  -- box can overlap it), but a static collider around the plane does.
  it("stops a zero-thickness box on an integer plane at a static collider", function()
    local w = bp.World()
    local wall = C(4.5, 2, 4.5, 5.5, 3, 5.5)
    w:add_collider(wall)
    local e = w:spawn{ x = 5, y = 0, z = 5, width = 1e-20, height = 1 }
    assert.same({ 0, 1, 0 }, { e:move(0, 1.5, 0) })
    assert.is_false(e:box():overlaps(wall))
    assert.same({ 0, 0, 0 }, { e:move(0, 3, 0) }) -- and it stays below
  end)

  -- The fast cell walk holds cells within 2^30; its extra row below for shapes that
  -- rise above their cell (any defined one, as a fence) must stay inside it too.
  it("lands on a floor at y = -2^30 when a tall shape is defined", function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:define_block{ name = "fence", boxes = { { 0.375, 0, 0.375, 0.625, 1.5, 0.625 } } }
    local Y = -2 ^ 30
    w:set_block(0, Y, 0, "stone") -- top face at Y + 1
    local e = w:spawn{ x = 0.5, y = Y + 1.25, z = 0.5 }
    assert.same({ 0, -0.25, 0 }, { e:move(0, -0.5, 0) })
    assert.is_true(e.on_ground)
    w:set_block(0, Y + 1, 1, "fence") -- a fence rising from the row below the region
    e:teleport(0.5, Y + 2.75, 1.5)
    assert.same({ 0, -0.25, 0 }, { e:move(0, -0.5, 0) }) -- onto its top at Y + 2.5
  end)
end)
