-- The swept resolver (e:move_swept): passes, back-off, seams, tunnelling, step
-- assist, no-op and a seeded property test. Source: docs/mccpp.md, "The swept
-- resolver", for MC-CPP's algorithm and our decisions.
local bp = require "blockphys"
local H = require "helpers.world"

local BACK = 0.001 -- rules.back_off: a fraction of the pass's displacement

-- A world with a floor of separate blocks (top at y = 64) set one by one.
local function floor_world(x1, x2, z1, z2)
  local w = bp.World()
  w:define_block { name = "stone" }
  w:define_block { name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  for x = x1 or -8, x2 or 8 do
    for z = z1 or -8, z2 or 8 do
      w:set_block(x, 63, z, "stone")
    end
  end
  return w
end

-- An MC-CPP entity 0.6 x 1.8 (exact doubles, so that gaps are round numbers).
local function mccpp(w, x, y, z, rules)
  return w:spawn { x = x, y = y, z = z, width = 0.6, height = 1.8, rules = rules or bp.rules.mccpp() }
end

-- Nothing overlaps the entity's box (boxes_in lists strict overlaps only).
local function free(w, e)
  return #w:boxes_in(e:box()) == 0
end

describe("e:move_swept", function()
  describe("passes", function()
    it("resolves a move into a corner in three passes (X, Z, then the floor)", function()
      local w = floor_world()
      w:fill(3, 64, -8, 3, 66, 8, "stone") -- wall at x = 3
      w:fill(-8, 64, 3, 8, 66, 3, "stone") -- wall at z = 3
      local e = mccpp(w, 2.5, 64.5, 2.5) -- box x, z in [2.2, 2.8], feet 0.5 up
      e.vx, e.vy, e.vz = 1, -1, 1
      local dx, dy, dz = e:move_swept(1, -1, 1)
      -- pass 1: both walls at t = 0.2 (faces; X first), moved 0.199 on every axis
      -- pass 2: rest (0, -0.801, 0.801); z wall at (0.001 / 0.801), stop back 0.001 x 0.801
      -- pass 3: rest (0, -0.800801, 0); floor, stop back 0.001 x 0.800801
      assert.is_near(3 - BACK * 1, e:box():unpack() + 0.6, 1e-12)
      assert.is_near(2.999 - 0.3, e.x, 1e-12)
      assert.is_near(3 - BACK * 0.801 - 0.3, e.z, 1e-12)
      assert.is_near(64 + BACK * 0.800801, e.y, 1e-12)
      assert.is_near(e.x - 2.5, dx, 1e-12)
      assert.is_near(e.y - 64.5, dy, 1e-12)
      assert.is_near(e.z - 2.5, dz, 1e-12)
      assert.are.same({ 0, 0, 0 }, { e:velocity() })
      assert.is_true(e.on_ground and e.collided_horizontally and e.collided_vertically)
      assert.is_true(free(w, e))
    end)

    it("with one pass, the rest of the motion is clipped per axis (no tunnelling)", function()
      local w = floor_world()
      w:fill(3, 64, -8, 3, 66, 8, "stone")
      local e = mccpp(w, 2.5, 64.5, 0.5, bp.rules.mccpp { passes = 1 })
      e:move_swept(1, -1, 0)
      -- pass 1 stops X at the wall; the rest (0, -0.801, 0) is clipped onto the floor
      assert.is_near(2.999 - 0.3, e.x, 1e-12)
      assert.are.equal(64, e.y)
      assert.is_true(e.on_ground)
    end)

    it("with one pass, the rest is clipped, not applied: no tunnelling through a thin pane", function()
      -- Pins the per-axis clip of what is left when the passes run out (advance() would
      -- move the box by the rest when its end box overlaps nothing, and the end box here
      -- lies past the pane). Standing exactly on the floor (not grounded: no step), the
      -- only pass meets the floor at t = 0 (face Y, touching and moving into it), which
      -- moves nothing and zeroes the rest's Y; the rest (0, 0, 3) is clipped per axis: Z
      -- stops touching the pane's face at z = 2.45, so dz = 2.45 - (0.5 + 0.3) = 1.65
      -- exactly (no back-off on a clip). Through the pane it would be 3.
      local w = floor_world()
      w:define_block { name = "pane", boxes = { { 0, 0, 0.45, 1, 1, 0.55 } } } -- 0.1 thick
      w:fill(-8, 64, 2, 8, 65, 2, "pane")
      local e = mccpp(w, 0.5, 64, 0.5, bp.rules.mccpp { passes = 1 })
      e.vx, e.vy, e.vz = 1, -4, 60
      local dx, dy, dz = e:move_swept(0, -0.2, 3)
      assert.are.same({ 0, 0 }, { dx, dy })
      assert.is_near(1.65, dz, 1e-12)
      assert.is_true(e.on_ground and e.collided_vertically and e.collided_horizontally)
      assert.are.same({ 1, 0, 0 }, { e:velocity() }) -- the floor's Y and the clip's Z
      assert.is_true(free(w, e))
    end)

    it("with one pass, the pass runs before the rest is clipped (back-off on its hit only)", function()
      -- Pins that passes = 1 gives exactly one swept pass (not zero: clipping the whole
      -- move per axis would end with z touching the wall, 0.2). In the air, a wall
      -- row at z = 1 (x <= 1, 0.2 ahead on Z) and a wall at x = 2 (1.2 ahead on X).
      -- The pass: X would hit at t = 1.2 / 1.5 = 0.8, Z at t = 0.2 / 0.5 = 0.4: Z first;
      -- the box moves to t = 0.4 - 0.001 on every axis: dz = 0.5 x 0.399 = 0.1995.
      -- The rest (1.5 x 0.601, -1.2 x 0.601, 0) is clipped Y, X, Z: Y free (down to
      -- 64.3, no floor within reach), X stops touching the wall at x = 2: dx = 2 - 0.8.
      local w = floor_world()
      w:fill(2, 64, -8, 2, 67, 8, "stone")
      w:fill(-8, 64, 1, 1, 67, 1, "stone")
      local e = mccpp(w, 0.5, 65.5, 0.5, bp.rules.mccpp { passes = 1 })
      e.vx, e.vy, e.vz = 30, -24, 10
      local dx, dy, dz = e:move_swept(1.5, -1.2, 0.5)
      assert.is_near(1.2, dx, 1e-12)
      assert.is_near(-1.2, dy, 1e-12)
      assert.is_near(0.5 * (0.4 - BACK), dz, 1e-12)
      assert.is_true(e.collided_horizontally)
      assert.is_false(e.on_ground or e.collided_vertically)
      assert.are.same({ 0, -24, 0 }, { e:velocity() }) -- Z hit, X clipped; Y was free
      assert.is_true(free(w, e))
    end)

    it("with one pass, the rest is clipped in the order Y, X, Z (Beta's), not X, Y, Z", function()
      -- Pins the order of clip_move. Box x [0.2, 0.8], z [0.4, 1] (z = 0.7 + 0.3 is 1
      -- exactly), feet at 65.5; a wall row at z = 1 touches it, a block at x = 1
      -- (top 65) stands in front on X. The only pass meets the wall at t = 0 (face Z,
      -- touching and moving into it): nothing moves, the rest is (1, -1, 0), clipped per
      -- axis. Y first: the box falls 1 (feet 64.5, the floor at 64 is not reached),
      -- then X stops touching the block's side: dx = 1 - 0.8. X first would pass above
      -- the block (feet 65.5 > 65) and then land on it: dx = 1, dy = -0.5, on_ground.
      local w = floor_world()
      w:set_block(1, 64, 0, "stone")
      w:fill(-8, 64, 1, 8, 67, 1, "stone")
      local e = mccpp(w, 0.5, 65.5, 0.7, bp.rules.mccpp { passes = 1 })
      e.vx, e.vy, e.vz = 1, 2, 3
      local dx, dy, dz = e:move_swept(1, -1, 0.5)
      assert.is_near(0.2, dx, 1e-12)
      assert.are.same({ -1, 0 }, { dy, dz })
      assert.are.same({ 0, 2, 0 }, { e:velocity() }) -- X clipped, Z hit; Y was free
      assert.is_true(e.collided_horizontally)
      assert.is_false(e.on_ground or e.collided_vertically)
      assert.is_true(free(w, e))
    end)

    it("leaves the velocity of axes that were not hit", function()
      local w = floor_world()
      local e = mccpp(w, 0.5, 64.5, 0.5)
      e.vx, e.vy, e.vz = 3, -4, 5
      e:move_swept(0.25, -1, 0.5)
      assert.are.same({ 3, 0, 5 }, { e:velocity() })
      assert.is_near(0.75, e.x, 1e-12)
      assert.is_near(1.0, e.z, 1e-12)
    end)
  end)

  describe("seams", function()
    -- Boxes placed exactly on a block boundary, standing exactly on the floor: the
    -- next block is met edge-first (x and y entries both 0) and must not stop X.
    for _, case in ipairs {
      { x = 0.7, dx = 5 }, { x = 1.3, dx = -5 }, { x = 0.5, dx = 5 }, { x = 0.5, dx = -5 },
    } do
      it(("slides %+g along a floor of separate blocks from x = %g"):format(case.dx, case.x), function()
        local w = floor_world(-10, 10, -2, 2)
        local e = mccpp(w, case.x, 64, 0.7)
        local dx, dy, dz = e:move_swept(case.dx, -0.05, 0)
        assert.is_near(case.dx, dx, 1e-12)
        assert.are.same({ 0, 0 }, { dy, dz })
        assert.is_true(e.on_ground)
        assert.is_false(e.collided_horizontally)
      end)
      it(("slides %+g along z, also from a seam"):format(case.dx), function()
        local w = floor_world(-2, 2, -10, 10)
        local e = mccpp(w, 0.7, 64, case.x)
        local _, _, dz = e:move_swept(0, -0.05, case.dx)
        assert.is_near(case.dx, dz, 1e-12)
      end)
    end

    for _, side in ipairs { 1, -1 } do
      it(("slides along a wall of separate blocks pressed into it (side %d)"):format(side), function()
        local w = floor_world(-10, 10, -10, 10)
        local wx = side > 0 and 3 or -3
        for z = -10, 10 do
          for y = 64, 65 do
            w:set_block(wx, y, z, "stone")
          end
        end
        -- box touching the wall exactly, its z edge on a seam
        local x = side > 0 and 2.7 or -1.7
        for _, dz in ipairs { 6, -6 } do
          local e = mccpp(w, x, 64, dz > 0 and 0.7 or 0.3)
          local dx, dy, got = e:move_swept(0.5 * side, -0.05, dz)
          assert.are.same({ 0, 0 }, { dx, dy })
          assert.is_near(dz, got, 1e-12)
          assert.is_true(e.collided_horizontally)
          w:remove(e)
        end
      end)
    end

    it("walks 40 ticks along a long floor without losing any distance", function()
      local w = floor_world(-2, 60, -2, 2)
      local e = mccpp(w, 0.5, 64, 0.5, bp.rules.mccpp { integrator = "mccpp" })
      e.forward, e.yaw = 1, -90 -- yaw -90 faces +X
      for _ = 1, 10 do w:step() end -- up to speed
      local x0 = e.x
      for _ = 1, 40 do w:step() end
      -- every tick moves walk_speed * dt (rules_mccpp_spec derives it)
      assert.is_near(40 * 4.317 * 0.05, e.x - x0, 1e-9)
    end)
  end)

  describe("flags", function()
    it("a Z wall alone sets collided_horizontally (and neither vertical flag)", function()
      -- Pins that collided_horizontally counts Z hits, not only X ones. Standing on the
      -- floor, moving (0.1, 0, 1) toward a wall at z = 1 whose face is 0.2 ahead:
      -- hit at t = 0.2, stopped back 0.001 of the pass: dz = 0.199, dx = 0.1 (the rest
      -- of X goes on). Nothing moves on Y, so nothing is hit there.
      local w = floor_world()
      w:fill(-8, 64, 1, 8, 65, 1, "stone")
      local e = mccpp(w, 0.5, 64, 0.5)
      e.vx, e.vy, e.vz = 2, 0, 20
      local dx, dy, dz = e:move_swept(0.1, 0, 1)
      assert.is_near(0.1, dx, 1e-12)
      assert.are.equal(0, dy)
      assert.is_near(0.2 - BACK * 1, dz, 1e-12)
      assert.is_true(e.collided_horizontally)
      assert.is_false(e.collided_vertically)
      assert.is_false(e.on_ground)
      assert.are.same({ 2, 0, 0 }, { e:velocity() })
    end)

    it("a ceiling sets collided_vertically but not on_ground, and keeps the fall distance", function()
      -- Pins on_ground = a Y hit while moving down (not any Y hit). Head 65.8, ceiling
      -- at y = 66: moving up 1, hit at t = 0.2, stopped back 0.001: dy = 0.199.
      local w = floor_world()
      w:fill(-8, 66, -8, 8, 66, 8, "stone")
      local e = mccpp(w, 0.5, 64, 0.5)
      e.vx, e.vy, e.vz = 0, 20, 0
      e.fall_distance = 3
      local dx, dy, dz = e:move_swept(0, 1, 0)
      assert.are.same({ 0, 0 }, { dx, dz })
      assert.is_near(0.2 - BACK * 1, dy, 1e-12)
      assert.is_true(e.collided_vertically)
      assert.is_false(e.on_ground)
      assert.is_false(e.collided_horizontally)
      assert.are.equal(0, e.vy)
      assert.are.equal(3, e.fall_distance) -- neither reset (ground) nor grown (moved up)
    end)
  end)

  describe("corners", function()
    it("never passes between two blocks that meet at a corner", function()
      local w = floor_world()
      w:set_block(2, 64, 1, "stone")
      w:set_block(1, 64, 2, "stone")
      local e = mccpp(w, 0.5, 64, 0.5)
      for _ = 1, 20 do
        e:move_swept(0.37, -0.01, 0.37)
        assert.is_true(free(w, e))
      end
      local x1, _, z1, x2, _, z2 = e:box():unpack()
      assert.is_true(x2 <= 2 and z2 <= 2)
      assert.is_true(x1 < 2 and z1 < 2)
    end)

    -- docs/mccpp.md "A pass moves along the path": pass 1 meets both walls at t = 0.9 and
    -- stops at 2.697 (back-off 0.001 x 3); pass 2 has 0.303 of Z left and a gap of
    -- 0.003, and backs off 0.001 x 0.303: z = 2.697 + 0.003 - 0.000303.
    it("backs off a later pass by a fraction of the displacement left (inside corner)", function()
      local w = bp.World()
      w:define_block{ name = "s" }
      for i = -3, 6 do
        w:set_block(3, 0, i, "s")
        w:set_block(i, 0, 3, "s")
      end
      local e = w:spawn{ x = 0, y = 0, z = 0, width = 0.6, height = 0.9, rules = bp.rules.mccpp{} }
      local dx, dy, dz = e:move_swept(3, 0, 3)
      assert.is_near(2.697, dx, 1e-12)
      assert.equal(0, dy)
      assert.is_near(2.699697, dz, 1e-12)
    end)

    it("moving exactly into a block's edge slides past it on the other axis", function()
      local w = floor_world()
      w:set_block(1, 64, 1, "stone")
      local e = mccpp(w, 0.7, 64, 0.7) -- box [0.4, 1.0] touches the block's edge
      local dx, _, dz = e:move_swept(0.5, 0, 0.5)
      -- X is stopped (tie X before Z, t = 0), Z then moves freely beside the block
      assert.are.equal(0, dx)
      assert.is_near(0.5, dz, 1e-12)
      assert.is_true(free(w, e))
    end)
  end)

  describe("rounding fallback", function()
    -- With back_off = 0 a pass moves exactly to the hit time, and t x d can round past
    -- the face it met: the end box then overlaps a box the start box did not, and the
    -- pass falls back to the per-axis clip (Y, X, Z).
    it("an edge met on Y and Z: the clip stops Z too, which counts as stopped and is not moved again",
      function()
      -- A block at x [0, 1], y [-1, 0], z [0, 1] (its top y = 0 and front face z = 0
      -- meet at an edge along X). Box x [0.2, 0.8], feet y = 0.7, z [-1.3, -0.7]
      -- (-1 + 0.3 is -0.7 exactly): both gaps are 0.7, so moving (0, -1.2, 1.2) the
      -- entries tie at t = 0.7 / 1.2 (an edge: the hit axis is Y, on_ground). Near 0
      -- nothing absorbs the rounding: 1.2 x t > 0.7, so the end box is past both faces
      -- and overlaps the block. The clip: Y first, the box not yet over the block on Z,
      -- moves the whole part (feet 0.7 - 1.2 t, one ulp below the top); then Z meets the
      -- block's face and stops touching it: dz = 0.7 exactly, shorter than the part, so
      -- Z is clipped. Pins both uses of `clipped` after the pass:
      -- - the clipped Z counts as stopped: vz = 0 and collided_horizontally (else vz
      --   would stay 3 and no horizontal flag: Z is never hit again);
      -- - the rest of Z is zeroed, not the rest less what the clip made (with 1.2 - 0.7
      --   left, the next pass would meet the face at t = 0, a side hit while grounded,
      --   and step onto the block: dy = 0.6 - 1.2 t (about -0.1), dz = 1.2,
      --   step_offset -0.6).
      local w = bp.World()
      w:define_block { name = "stone" }
      w:set_block(0, -1, 0, "stone")
      local e = mccpp(w, 0.5, 0.7, -1, bp.rules.mccpp { back_off = 0 })
      local _, _, _, _, _, z2 = e:box():unpack()
      assert.are.equal(-0.7, z2)
      local t = 0.7 / 1.2
      assert.is_true(1.2 * t > 0.7) -- the premise: the pass's end rounds past the faces
      e.vx, e.vy, e.vz = 1, -2, 3
      local dx, dy, dz = e:move_swept(0, -1.2, 1.2)
      assert.are.same({ 0, (0.7 - 1.2 * t) - 0.7, 0.7 }, { dx, dy, dz })
      assert.are.equal(0.7 - 1.2 * t, e.y) -- one ulp below the block's top (< 0)
      assert.is_true(e.y < 0)
      assert.are.equal(0, e.step_offset)
      assert.are.same({ 1, 0, 0 }, { e:velocity() })
      assert.is_true(e.on_ground and e.collided_vertically and e.collided_horizontally)
      assert.is_true(free(w, e))
    end)

    -- The settling of a clipped axis (settle() in move_swept.c): the clip already stops
    -- touching, so its first test always passes unless a filter answers the clip and
    -- the test differently (filters need not be pure). These filters refuse the pair
    -- the first `refuse` times they are asked, then allow it: the clip ignores the
    -- solid entity S, and the test after it sees S. From d = the clip's displacement the
    -- test retries d - s, d - 3s, d - 7s, ... (s = the ulp of 1 here: 2^-52, the steps
    -- double), 16 tests in all, and gives up with 0 (the box stays on that axis).
    local EPS = 2 ^ -52

    -- One pass: a wall row at z = 1 touches the box (z [0.4, 1]), met at t = 0 on Z;
    -- the rest (dx, 0, 0) is clipped per axis. S: a solid 1 x 1 entity whose side is at
    -- x = gap past the box's (0.8). The scene depends on when the filter is asked:
    -- first by the clip of X when S lies beyond the pass's first segment (the pass
    -- searches no further: its hit is at t = 0), else by the pass, then by the clip;
    -- the tests after the clip ask it once each while the box overlaps S.
    local function settle_scene(dx, gap, refuse)
      local w = bp.World()
      w:define_block { name = "stone" }
      w:fill(-8, 60, 1, 8, 70, 1, "stone")
      local asked = 0
      local e = w:spawn { x = 0.5, y = 64, z = 0.7, width = 0.6, height = 1.8,
        rules = bp.rules.mccpp { passes = 1 },
        filter = function() asked = asked + 1; return asked > refuse end }
      local x1, _, _, x2 = e:box():unpack()
      local s = w:spawn { x = x2 + gap + 0.5, y = 64, z = 0.5, width = 1, height = 1, solid = true }
      assert.are.equal(x2 + gap, (s:box():unpack())) -- S's side exactly where asked
      e.vx, e.vy, e.vz = 1, 2, 3
      local got = e:move_swept(dx, 0, 0.5)
      return got, x1, e
    end

    -- d after n failed tests, as settle() computes it (moving +X)
    local function settled(d, n)
      local step = EPS
      for _ = 1, n do
        d, step = d - step, step * 2
      end
      return d
    end

    it("a clip that a filter let through is settled in at most 16 tests, then given up", function()
      -- Pins the bound of the settling loop (16 tests, i < 16). dx = 3; S's side at
      -- 3 - k s past the box: the box moved by d overlaps S while d > 3 - k s (to the
      -- rounding of 0.8 + d, 2 s). k = 24000 lies between 2^14 - 1 and 2^15 - 1: the
      -- 16th test (d = 3 - 32767 s) is the first free one, so dx = that d (15 tests
      -- would give up: dx = 0). k = 50000 < 2^16 - 1: only a 17th test (d = 3 -
      -- 65535 s) would be free; there are 16: dx = 0. Either way X stops (vx = 0).
      for _, case in ipairs { { k = 24000, fails = 15 }, { k = 50000 } } do
        local dx, x1, e = settle_scene(3, 3 - case.k * EPS, 1)
        local want = case.fails and (x1 + settled(3, case.fails)) - x1 or 0
        assert.are.equal(want, dx)
        assert.are.same({ 0, 2, 0 }, { e:velocity() })
        assert.is_true(e.collided_horizontally)
        assert.is_true(free(e.world, e))
      end
    end)

    it("a settling that shrinks d to within one step gives up with 0, never moves back", function()
      -- Pins the stop of the settling loop when |d| <= step: S touches the box (gap 0)
      -- and dx = 1e-12 (about 4504 s). Here the pass's search asks the filter first
      -- (S touches the box), the clip second. Every test overlaps S: the 13th, with
      -- d = 1e-12 - 4095 s (about 409 s) <= step = 4096 s, too, and the loop gives up
      -- there: dx = 0. Going on would try d - step < 0, a move away from S, free: the
      -- box would move back (about -3687 s) instead of staying.
      local dx, _, e = settle_scene(1e-12, 0, 2)
      assert.are.equal(0, dx)
      assert.are.same({ 0, 2, 0 }, { e:velocity() })
      assert.is_true(e.collided_horizontally)
      assert.is_true(free(e.world, e))
    end)
  end)

  describe("search along the path", function()
    it("a hit later than the end of its segment does not end the search", function()
      -- Pins the stop of earliest_hit (hit.t < t1, not merely a hit found): a box can
      -- lie in a segment's region (the hull of its ends, grown by 1e-6) and yet be
      -- entered after the segment ends, along a slow axis. Moving (3, 0, 0.001): three
      -- segments, the first ends at t1 = 1/3. Wall Z is 5e-7 past the first segment's
      -- end on Z (in its region), entered at t1 + 0.0005; wall X, 0.0006 past it on X
      -- (only in the second segment), is entered earlier, at tx = t1 + 0.0002. So the
      -- first pass stops X: dx = 3 (tx - 0.001). The second meets wall Z with the rest
      -- of Z, 0.001 (1 - tx + 0.001), 1.3e-6 away. Ending the search with wall Z would
      -- stop Z first, at dz = 0.001 (t1 + 0.0005 - 0.001), and X later (dx = 0.9986).
      -- (hit.t <= t1 there instead is equivalent: a box entered at t1 touches the box
      -- at the segment's end, inside the grown region.)
      local w = bp.World()
      local t1 = 1 / 3
      local tx = t1 + 0.0002
      local zwall = 0.8 + 0.001 * (t1 + 0.0005)
      local xwall = 0.8 + 3 * tx
      w:add_collider(bp.Collider(-10, -1, zwall, 10, 3, zwall + 1))
      w:add_collider(bp.Collider(xwall, -1, -10, xwall + 1, 3, zwall))
      local e = mccpp(w, 0.5, 0, 0.5)
      e.vx, e.vy, e.vz = 1, 2, 3
      local dx, dy, dz = e:move_swept(3, 0, 0.001)
      assert.is_near(3 * (tx - BACK), dx, 1e-12)
      assert.are.equal(0, dy)
      assert.is_near(zwall - 0.8 - BACK * 0.001 * (1 - tx + BACK), dz, 1e-15)
      assert.are.same({ 0, 2, 0 }, { e:velocity() })
      assert.is_true(free(w, e))
    end)
  end)

  describe("tunnelling", function()
    it("100 blocks in one move stop at a one-block wall", function()
      local w = bp.World()
      w:define_block { name = "stone" }
      w:fill(50, 0, -2, 50, 3, 2, "stone")
      local e = mccpp(w, 0.5, 1, 0.5)
      local dx = e:move_swept(100, 0, 0)
      -- stopped back 0.001 of the pass: 0.1 block before x = 50
      assert.is_near(50 - BACK * 100 - 0.8, dx, 1e-9)
      assert.is_true(e.collided_horizontally)
    end)

    it("100 blocks diagonally stop at a thin wall", function()
      local w = bp.World()
      w:define_block { name = "pane", boxes = { { 0.45, 0, 0, 0.55, 1, 1 } } }
      w:fill(50, -10, -10, 50, 120, 120, "pane")
      local e = mccpp(w, 0.5, 1, 0.5)
      e:move_swept(100, 100, 100)
      local _, _, _, x2 = e:box():unpack()
      assert.is_true(x2 < 50.45)
      assert.is_true(free(w, e))
    end)

    it("a 100-block fall lands on a one-block floor", function()
      local w = bp.World()
      w:define_block { name = "stone" }
      w:set_block(0, 0, 0, "stone")
      local e = mccpp(w, 0.5, 101, 0.5)
      local _, dy = e:move_swept(0, -120, 0) -- the floor is met at t = 100 / 120
      assert.is_near(-100 + BACK * 120, dy, 1e-9)
      assert.is_true(e.on_ground)
      assert.are.equal(0, e.fall_distance)
    end)

    it("refuses more than 1024 blocks per axis", function()
      local e = mccpp(bp.World(), 0, 0, 0)
      assert.has_error(function() e:move_swept(0, 1024.5, 0) end,
        "bad argument #2 to 'move_swept' (displacement too large (at most 1024 blocks per axis))")
      assert.has_error(function() e:move_swept(0 / 0, 0, 0) end,
        "bad argument #1 to 'move_swept' (number must be finite)")
      assert.are.same({ 1024, -1024, 0 }, { e:move_swept(1024, -1024, 0) })
    end)
  end)

  describe("step assist", function()
    -- Standing on the floor: a downward probe sets on_ground without moving.
    local function standing(w, rules)
      local e = mccpp(w, 0.5, 64, 0.5, rules)
      e:move_swept(0, -0.1, 0)
      assert.is_true(e.on_ground)
      return e
    end

    -- A side hit that did not step: the pass stopped at `want_dx` (its back-off short
    -- of the face), no rise, and the hit stands.
    local function assert_no_step(e, dx, want_dx)
      assert.is_near(want_dx, dx, 1e-12)
      assert.are.equal(0, e.step_offset)
      assert.is_true(e.collided_horizontally)
    end

    it("steps onto a slab: raised by step_height (0.6), camera offset -0.6", function()
      local w = floor_world()
      w:set_block(1, 64, 0, "slab")
      local e = standing(w)
      local _, py = e:lerp(0)
      local dx, dy = e:move_swept(1, 0, 0)
      assert.are.equal(1, dx)
      assert.is_near(0.6, dy, 1e-12)
      assert.are.equal(-0.6, e.step_offset)
      local _, py2 = e:lerp(0)
      assert.are.equal(py + 0.6, py2) -- prev raised too: lerp does not jump
      assert.is_false(e.collided_horizontally)
      assert.is_true(free(w, e))
    end)

    it("does not step onto a full block", function()
      local w = floor_world()
      w:set_block(1, 64, 0, "stone")
      local e = standing(w)
      local dx, dy = e:move_swept(1, 0, 0)
      assert.are.equal(0, dy)
      assert_no_step(e, dx, 0.2 - BACK * 1)
    end)

    it("does not step in the air or under a low ceiling", function()
      local w = floor_world()
      w:set_block(1, 64, 0, "slab")
      local e = mccpp(w, 0.5, 64, 0.5) -- not grounded yet
      assert.are.equal(0, select(2, e:move_swept(1, 0, 0)))
      w:set_block(0, 66, 0, "stone") -- 2 blocks of headroom: 1.8 + 0.6 does not fit
      local g = standing(w)
      assert.are.equal(0, select(2, g:move_swept(1, 0, 0)))
      assert.is_true(g.collided_horizontally)
    end)

    it("does not step while rising, even standing on the ground", function()
      -- Pins "standing at the start *and not rising*": grounded, moving (1, 0.1, 0)
      -- into a slab's side 0.2 ahead. The pass stops at t = 0.2 - 0.001 (dx = 0.199);
      -- the rest of Y (0.1 - 0.0199) goes on in the next pass, so dy = 0.1 and no
      -- step (a step would give dx = 1, dy = 0.6 + 0.1).
      local w = floor_world()
      w:set_block(1, 64, 0, "slab")
      local e = standing(w)
      local dx, dy = e:move_swept(1, 0.1, 0)
      assert.is_near(0.1, dy, 1e-12)
      assert_no_step(e, dx, 0.2 - BACK * 1)
    end)

    it("makes no zero-height step attempt with step_height = 0", function()
      -- Pins that step_height = 0 skips the step assist instead of trying a step of
      -- height 0: such an attempt would test the end box (past a 0.1 pane, free),
      -- cancel the hit and use up the only pass, and the rest would then be clipped
      -- to touch the pane exactly (dx = 1.65). With no attempt the pass stops
      -- back_off short: t = 1.65 / 3 - 0.001, dx = 1.65 - 3 x 0.001.
      local w = floor_world()
      w:define_block { name = "pane", boxes = { { 0.45, 0, 0, 0.55, 1, 1 } } }
      w:fill(2, 64, -8, 2, 66, 8, "pane") -- face at x = 2.45
      local e = standing(w, bp.rules.mccpp { passes = 1, step_height = 0 })
      local dx, dy = e:move_swept(3, 0, 0)
      assert.are.equal(0, dy)
      assert_no_step(e, dx, 1.65 - 3 * BACK)
    end)

    it("does not step while flying, even standing on the ground", function()
      -- Pins the flying test of the step assist: grounded (the probe), slab side 0.2
      -- ahead, but e.flying: the pass stops at t = 0.2 less the back-off, no rise.
      local w = floor_world()
      w:set_block(1, 64, 0, "slab")
      local e = standing(w)
      e.flying = true
      local dx, dy = e:move_swept(1, 0, 0)
      assert.are.equal(0, dy)
      assert_no_step(e, dx, 0.2 - BACK * 1)
      -- flight is MC-CPP's: under Beta rules the same entity steps (dx 1, onto 64.5)
      e.rules = bp.rules.beta173{ resolver = "swept" }
      e:teleport(0.5, 64, 0.5)
      e:move_swept(0, -0.1, 0)
      dx, dy = e:move_swept(1, 0, 0)
      assert.are.equal(1, dx)
      assert.are.equal(0.5, dy)
    end)

    it("does not step while falling onto a slab's side before landing", function()
      -- Pins "grounded" = standing at the start or a floor hit earlier in this move,
      -- not merely moving down. From y = 64.3 moving (1, -0.2, 0): the slab's side
      -- (0.2 ahead) is hit at t = 0.2 at y = 64.26, below its top (64.5), and the floor
      -- (0.3 below) is not reached. So no step: dx = 0.2 - 0.001, dy = -0.2 (the rest of
      -- Y goes on in the next pass).
      local w = floor_world()
      w:set_block(1, 64, 0, "slab")
      local e = mccpp(w, 0.5, 64.3, 0.5)
      local dx, dy = e:move_swept(1, -0.2, 0)
      assert.is_near(-0.2, dy, 1e-12)
      assert_no_step(e, dx, 0.2 - BACK * 1)
      assert.is_false(e.on_ground)
    end)

    it("steps after landing in the same move (a floor hit earlier in the move)", function()
      -- Pins the second half of "grounded": not on the ground at the start (spawned in
      -- the air), the move (2, -0.4, 0) from y = 64.1 lands first (floor 0.1 below:
      -- t = 0.25, stopped at 0.249: dy = -0.0996, dx = 0.498), then meets the slab row
      -- at x = 2 and steps onto it: rises 0.6 and goes on with the rest of X (no slab or
      -- wall in the way up there): dx = 2, dy = -0.0996 + 0.6 = 0.5004.
      local w = floor_world()
      w:fill(2, 64, -8, 8, 64, 8, "slab")
      local e = mccpp(w, 0.5, 64.1, 0.5)
      assert.is_false(e.on_ground)
      local dx, dy, dz = e:move_swept(2, -0.4, 0)
      assert.is_near(2, dx, 1e-12)
      assert.is_near(-0.4 * (0.25 - BACK) + 0.6, dy, 1e-12)
      assert.are.equal(0, dz)
      assert.are.equal(-0.6, e.step_offset)
      assert.is_false(e.collided_horizontally) -- the side hit was cancelled by the step
      assert.is_true(e.on_ground) -- the landing stopped downward motion
      assert.is_true(free(w, e))
    end)

    it("tests the raised box where it would end: a long move rises in front of a thin wall",
      function()
      -- docs/mccpp.md "The swept resolver", step assist: the document's test
      -- of the stepped position only. A 1-thick wall 7 high at x = 5, 4.2 ahead.
      for _, case in ipairs{ { 5, 0 }, { 6, 0.6 } } do
        local w = floor_world()
        w:fill(5, 64, -8, 5, 70, 8, "stone")
        local e = standing(w)
        local dx, dy = e:move_swept(case[1], 0, 0)
        -- the first pass stops 0.001 of its displacement short of the wall
        assert.is_near(4.2 - BACK * case[1], dx, 1e-12)
        -- a 5-block move's raised box would end inside the wall, a 6-block one's past it
        assert.is_near(case[2], dy, 1e-12)
        assert.is_true(e.collided_horizontally)
        assert.is_true(free(w, e))
      end
    end)

    it("uses the rules' step height: 0.5 for a Beta entity lands on the slab", function()
      local w = floor_world()
      w:set_block(1, 64, 0, "slab")
      local e = standing(w, bp.rules.beta173 { resolver = "swept" })
      assert.are.same({ 1, 0.5 }, { (e:move_swept(1, 0, 0)) , e.y - 64 })
      assert.are.equal(-0.5, e.step_offset)
    end)
  end)

  describe("no-op and limits", function()
    it("a zero move keeps position and velocity and clears the flags", function()
      local w = floor_world()
      local e = mccpp(w, 0.5, 64, 0.5)
      e:move_swept(0, -1, 0)
      assert.is_true(e.on_ground and e.collided_vertically)
      e.vx, e.vy, e.vz = 1, 2, 3
      local before = { e.x, e.y, e.z, e.fall_distance }
      assert.are.same({ 0, 0, 0 }, { e:move_swept(0, 0, 0) })
      assert.are.same(before, { e.x, e.y, e.z, e.fall_distance })
      assert.are.same({ 1, 2, 3 }, { e:velocity() })
      -- nothing was hit (MC-CPP's update clears grounded before it moves)
      assert.is_false(e.on_ground or e.collided_vertically or e.collided_horizontally)
    end)

    it("lets a resting entity fall when its floor goes away, and not jump in the air", function()
      local w = floor_world()
      local e = mccpp(w, 0.5, 64, 0.5)
      for _ = 1, 10 do w:step() end -- dt 0.05: vy decays to exactly 0 on the ground
      w:fill(-3, 63, -3, 3, 63, 3, 0)
      for _ = 1, 10 do w:step() end
      assert.is_true(e.y < 62 and e.vy < 0)
      assert.is_false(e.on_ground)
      local vy = e.vy
      e.jumping = true
      w:step()
      assert.is_true(e.vy < vy) -- still falling: no jump without ground
    end)

    it("counts fall distance like the per-axis resolver", function()
      local w = floor_world()
      local e = mccpp(w, 0.5, 70, 0.5)
      e:move_swept(0, -2.5, 0)
      assert.are.equal(2.5, e.fall_distance)
      e:move_swept(0, -10, 0)
      assert.are.equal(0, e.fall_distance)
    end)

    it("is blocked by static colliders and solid entities", function()
      local w = bp.World()
      w:add_collider(bp.Collider(3, 0, -1, 4, 2, 2))
      local e = mccpp(w, 0.5, 0, 0.5)
      assert.is_near(2.2 - BACK * 5, (e:move_swept(5, 0, 0)), 1e-12)
      w:spawn { x = e.x, y = 0, z = 5.5, solid = true, width = 1, height = 1 }
      local _, _, dz = e:move_swept(0, 0, 8)
      assert.is_near(4.7 - 0.5 - BACK * 8, dz, 1e-12)
    end)
  end)

  describe("property: never ends overlapping a block", function()
    it("holds for 3000 seeded random moves over rough terrain", function()
      local w = bp.World()
      w:define_block { name = "stone" }
      w:define_block { name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
      w:define_block { name = "fence", boxes = { { 0.375, 0, 0.375, 0.625, 1.5, 0.625 } } }
      w:define_block { name = "stair", boxes = { { 0, 0, 0, 1, 0.5, 1 }, { 0, 0.5, 0.5, 1, 1, 1 } } }
      local kinds = { "stone", "slab", "fence", "stair" }
      local rand = H.rng(20240611)
      for x = -12, 12 do
        for z = -12, 12 do
          w:set_block(x, 0, z, "stone")
          local h = math.floor(rand() * 3)
          for y = 1, h do
            w:set_block(x, y, z, kinds[1 + math.floor(rand() * #kinds)])
          end
        end
      end
      local e = mccpp(w, 0.5, 6, 0.5)
      local moves, hits = 0, 0
      for _ = 1, 3000 do
        local d = { (rand() - 0.5) * 4, (rand() - 0.7) * 4, (rand() - 0.5) * 4 }
        if rand() < 0.1 then d[2] = 0 end
        local x, y, z = e.x, e.y, e.z
        local got = { e:move_swept(d[1], d[2], d[3]) }
        moves = moves + 1
        if e.collided_horizontally or e.collided_vertically then hits = hits + 1 end
        assert.is_true(free(w, e), ("overlap after move %d from %g %g %g"):format(moves, x, y, z))
        for a = 1, 3 do
          -- never farther than asked, except a step assist upward
          if not (a == 2 and got[2] > 0) then
            assert.is_true(math.abs(got[a]) <= math.abs(d[a]) + 1e-12)
          end
        end
        if math.abs(e.x) > 10 or math.abs(e.z) > 10 or e.y > 8 then
          e:teleport(0.5, 6, 0.5)
        end
      end
      assert.is_true(hits > 1000) -- the test exercises collisions
    end)
  end)
end)
