-- luacheck: std +busted
-- bp.Collider: construction, arithmetic, overlap and the per-axis clip of the Beta
-- resolver (docs/beta173.md section 3, calculateX/Y/ZOffset).
local bp = require "blockphys"
local compat = require "helpers.compat"
-- How Lua names the __add metamethod in an argument error: "add" (Lua 5.4, LuaJIT);
-- Lua 5.1 names no metamethod: "?" (its own wording, helpers/compat.lua).
local ADD = compat.mm_name("add")
local C = bp.Collider

local function unpacked(c) return { c:unpack() } end

describe("bp.Collider", function()
  describe("construction", function()
    it("keeps the min and max corners exactly", function()
      local c = C(-1.5, 2, 0.25, 3, 4.125, 1)
      assert.same({ -1.5, 2, 0.25, 3, 4.125, 1 }, unpacked(c))
      assert.equal(-1.5, c.x1); assert.equal(2, c.y1); assert.equal(0.25, c.z1)
      assert.equal(3, c.x2); assert.equal(4.125, c.y2); assert.equal(1, c.z2)
    end)

    it("refuses assignments: its fields are read-only", function()
      local c = C(0, 0, 0, 1, 1, 1)
      assert.has_error(function() c.x1 = 5 end, "blockphys.Collider is read-only (field 'x1')")
      assert.has_error(function() c.foo = 1 end, "blockphys.Collider is read-only (field 'foo')")
      assert.has_error(function() c[3] = 1 end, "blockphys.Collider is read-only (field '3')")
      local key = setmetatable({}, { __tostring = function() error("boom") end })
      assert.has_error(function() c[key] = 1 end, "blockphys.Collider is read-only (a table key)")
    end)

    it("accepts a zero-size box", function()
      assert.same({ 1, 1, 1, 1, 1, 1 }, unpacked(C(1, 1, 1, 1, 1, 1)))
    end)

    it("rejects a min above its max on each axis with the max's argument number", function()
      assert.has_error(function() bp.Collider(1, 0, 0, 0, 1, 1) end,
        "bad argument #4 to 'Collider' (max corner must not be below the min corner)")
      assert.has_error(function() bp.Collider(0, 1, 0, 1, 0, 1) end,
        "bad argument #5 to 'Collider' (max corner must not be below the min corner)")
      assert.has_error(function() bp.Collider(0, 0, 1, 1, 1, 0) end,
        "bad argument #6 to 'Collider' (max corner must not be below the min corner)")
    end)

    it("rejects NaN and infinities", function()
      assert.has_error(function() bp.Collider(0 / 0, 0, 0, 1, 1, 1) end,
        "bad argument #1 to 'Collider' (number must be finite)")
      assert.has_error(function() bp.Collider(0, 0, 0, 1, math.huge, 1) end,
        "bad argument #5 to 'Collider' (number must be finite)")
      assert.has_error(function() bp.Collider(0, -math.huge, 0, 1, 1, 1) end,
        "bad argument #2 to 'Collider' (number must be finite)")
    end)

    it("rejects wrong types", function()
      assert.has_error(function() bp.Collider("a", 0, 0, 1, 1, 1) end,
        "bad argument #1 to 'Collider' (number expected, got string)")
      assert.has_error(function() bp.Collider(0, 0, 0, 1, 1) end,
        "bad argument #6 to 'Collider' (number expected, got no value)")
      assert.has_error(function() bp.Collider(0, {}, 0, 1, 1, 1) end,
        "bad argument #2 to 'Collider' (number expected, got table)")
    end)
  end)

  describe("offset and +", function()
    it("translates both corners", function()
      local c = C(0, 0, 0, 1, 2, 3)
      assert.same({ 0.5, -1, 2, 1.5, 1, 5 }, unpacked(c:offset(0.5, -1, 2)))
      assert.same({ 0.5, -1, 2, 1.5, 1, 5 }, unpacked(c + { 0.5, -1, 2 }))
      assert.same({ 0, 0, 0, 1, 2, 3 }, unpacked(c)) -- a value: the original is unchanged
    end)

    it("rejects a bad offset", function()
      local c = C(0, 0, 0, 1, 1, 1)
      assert.has_error(function() return c + { 1, 2 } end,
        "bad argument #2 to '" .. ADD .. "' (offset must be a table of three finite numbers)")
      assert.has_error(function() return c + { 1, 0 / 0, 2 } end,
        "bad argument #2 to '" .. ADD .. "' (offset must be a table of three finite numbers)")
      assert.has_error(function() return c + 1 end,
        "bad argument #2 to '" .. ADD .. "' (table expected, got number)")
      assert.has_error(function() c:offset(1, math.huge, 0) end,
        "bad argument #2 to 'offset' (number must be finite)")
      -- extend and sweep check their arguments themselves, not only the result
      -- (an infinite dz would otherwise raise "the resulting box is not finite", and a
      -- NaN velocity would sweep)
      assert.has_error(function() c:extend(0, 0, math.huge) end,
        "bad argument #3 to 'extend' (number must be finite)")
      assert.has_error(function() c:sweep(c, 0, 0, 0 / 0) end,
        "bad argument #4 to 'sweep' (number must be finite)")
    end)
  end)

  -- The operator where Lua has it (5.3+); Lua 5.1 and 5.2 have no `&`: the method the
  -- operator calls, overlaps.
  describe(compat.band_op and "& (overlap)" or ":overlaps (the & operator of Lua 5.3+)", function()
    local a = C(0, 0, 0, 1, 1, 1)
    local band = compat.band_op or function(p, q) return p:overlaps(q) end

    it("is true for overlapping interiors, both ways", function()
      local b = C(0.5, 0.5, 0.5, 2, 2, 2)
      assert.is_true(band(a, b))
      assert.is_true(band(b, a))
      assert.is_true(band(a, a))
      assert.is_true(band(a, C(0.25, 0.25, 0.25, 0.75, 0.75, 0.75))) -- contained
    end)

    for axis = 1, 3 do
      it("is false for boxes that only touch on axis " .. axis, function()
        local lo, hi = { 0, 0, 0 }, { 1, 1, 1 }
        lo[axis], hi[axis] = 1, 2
        local b = C(lo[1], lo[2], lo[3], hi[1], hi[2], hi[3])
        assert.is_false(band(a, b))
        assert.is_false(band(b, a))
        -- a hair of overlap counts
        lo[axis] = 1 - 2 ^ -40
        assert.is_true(band(a, C(lo[1], lo[2], lo[3], hi[1], hi[2], hi[3])))
      end)

      it("is false for boxes apart on axis " .. axis, function()
        local lo, hi = { 0, 0, 0 }, { 1, 1, 1 }
        lo[axis], hi[axis] = -3, -0.5
        assert.is_false(band(a, C(lo[1], lo[2], lo[3], hi[1], hi[2], hi[3])))
      end)
    end

    it("is false against a zero-size box on a face", function()
      assert.is_false(band(a, C(1, 0.5, 0.5, 1, 0.5, 0.5)))
    end)

    -- Beta's intersectsWith compares open intervals; MC-CPP's operator& would
    -- need a positive overlap volume and say false (see docs/api.md, Colliders).
    it("is true for a zero-thickness box lying inside (Beta intersectsWith)", function()
      assert.is_true(band(a, C(0, 0.5, 0, 1, 0.5, 1)))
      assert.is_true(band(C(0.5, 0.5, 0.5, 0.5, 0.5, 0.5), a))
    end)
  end)

  describe(":extend", function()
    local c = C(0, 0, 0, 1, 1, 1)
    it("grows max on positive and min on negative components", function()
      assert.same({ 0, -2, 0, 3, 1, 1 }, unpacked(c:extend(2, -2, 0)))
      assert.same({ -0.5, 0, 0, 1, 1, 1.25 }, unpacked(c:extend(-0.5, 0, 0.25)))
      assert.same({ 0, 0, 0, 1, 1, 1 }, unpacked(c:extend(0, 0, 0)))
    end)
  end)

  describe(":expand", function()
    local c = C(0, 0, 0, 1, 1, 1)
    it("grows (or shrinks) both sides of each axis", function()
      assert.same({ -1, -0.5, 0, 2, 1.5, 1 }, unpacked(c:expand(1, 0.5, 0)))
      assert.same({ 0.25, 0, 0.5, 0.75, 1, 0.5 }, unpacked(c:expand(-0.25, 0, -0.5)))
    end)

    it("refuses to shrink below zero size", function()
      assert.has_error(function() c:expand(0, -0.75, 0) end,
        "bad argument #2 to 'expand' (shrinks the box below zero size)")
    end)
  end)

  -- bp.Collider refuses infinite corners; no operation may make one either.
  describe("results that overflow", function()
    local huge = C(-1e308, 0, 0, 1e308, 1, 1.7e308)
    it("raise, naming the argument that overflowed", function()
      -- calls, not tail calls: LuaJIT forgets a tail-called C function's name
      assert.has_error(function() local _ = huge:expand(1e308, 0, 0) end,
        "bad argument #1 to 'expand' (the resulting box is not finite)")
      assert.has_error(function() local _ = huge:extend(0, 0, 1.7e308) end,
        "bad argument #3 to 'extend' (the resulting box is not finite)")
      assert.has_error(function() local _ = huge:offset(0, 0, 1e308) end,
        "bad argument #3 to 'offset' (the resulting box is not finite)")
      assert.has_error(function() return huge + { 1e308, 0, 0 } end,
        "bad argument #2 to '" .. ADD .. "' (the resulting box is not finite)")
      -- the offset table is one argument: an overflow on Z still names #2, not #4
      -- (pins check_result's per_axis = 0 for '+')
      assert.has_error(function() return huge + { 0, 0, 1e308 } end,
        "bad argument #2 to '" .. ADD .. "' (the resulting box is not finite)")
      -- pins the type check of the offset's items: a numeric string is refused
      assert.has_error(function() return C(0, 0, 0, 1, 1, 1) + { 0, "1", 0 } end,
        "bad argument #2 to '" .. ADD .. "' (offset must be a table of three finite numbers)")
    end)
    it("are fine up to the largest finite double", function()
      assert.same({ -1e308, 0, 0, 1e308, 1, 1.7e308 }, { huge:offset(0, 0, 0):unpack() })
      assert.same({ -1e308, 0, 0, 1e308, 1, 1.7e308 + 9e306 },
        { huge:extend(0, 0, 9e306):unpack() })
    end)
  end)

  describe(":clip_x/y/z", function()
    local m = C(0, 0, 0, 1, 1, 1)
    local clips = { "clip_x", "clip_y", "clip_z" }
    local function box(axis, lo, hi, olo, ohi)
      local a, b = { olo or 0, olo or 0, olo or 0 }, { ohi or 1, ohi or 1, ohi or 1 }
      a[axis], b[axis] = lo, hi
      return C(a[1], a[2], a[3], b[1], b[2], b[3])
    end

    for axis = 1, 3 do
      local clip = clips[axis]
      describe(clip, function()
        it("shortens a positive move to the gap", function()
          assert.equal(0.5, m[clip](m, box(axis, 1.5, 2), 2))
          assert.equal(0.25, m[clip](m, box(axis, 1.5, 2), 0.25)) -- shorter than the gap
        end)

        it("shortens a negative move to the gap", function()
          assert.equal(-0.75, m[clip](m, box(axis, -2, -0.75), -3))
          assert.equal(-0.5, m[clip](m, box(axis, -2, -0.75), -0.5))
        end)

        it("counts a touching box as on the far side (clip to 0)", function()
          assert.equal(0, m[clip](m, box(axis, 1, 2), 0.5))
          assert.equal(0, m[clip](m, box(axis, -1, 0), -0.5))
        end)

        it("ignores boxes behind the move", function()
          assert.equal(0.5, m[clip](m, box(axis, -2, -1), 0.5))
          assert.equal(-0.5, m[clip](m, box(axis, 2, 3), -0.5))
        end)

        it("ignores overlapping boxes (never pushes out)", function()
          assert.equal(0.5, m[clip](m, box(axis, 0.5, 2), 0.5))
          assert.equal(-0.5, m[clip](m, box(axis, -1, 0.5), -0.5))
        end)

        it("returns a zero move unchanged", function()
          assert.equal(0, m[clip](m, box(axis, 1, 2), 0))
        end)

        it("needs strict overlap on both other axes", function()
          -- touching on another axis: no clip
          for other = 1, 3 do
            if other ~= axis then
              local lo, hi = { 0, 0, 0 }, { 1, 1, 1 }
              lo[axis], hi[axis] = 1.5, 2
              lo[other], hi[other] = 1, 2
              assert.equal(2, m[clip](m, C(lo[1], lo[2], lo[3], hi[1], hi[2], hi[3]), 2))
              lo[other], hi[other] = 1 - 2 ^ -30, 2 -- a hair of overlap: clip
              assert.equal(0.5, m[clip](m, C(lo[1], lo[2], lo[3], hi[1], hi[2], hi[3]), 2))
            end
          end
        end)
      end)
    end

    -- 1 - z2 rounds up here, and z2 + (1 - z2) lands an ulp past 1: a displacement of
    -- exactly that gap is shortened as a longer one is, never into the box.
    it("never clips into a box by the rounded gap itself", function()
      local z2 = -0x1000d1b3e425af * 2 ^ -52 -- -0x1.000d1b3e425afp+0 (no hex floats in Lua 5.1)
      local mover, wall = C(0, 0, -2, 1, 1, z2), C(0, 0, 1, 1, 1, 2)
      local gap = 1 - z2
      assert.is_true(z2 + gap > 1) -- the rounding this test needs
      local d = mover:clip_z(wall, gap)
      assert.is_true(d > 0 and d < gap and z2 + d <= 1)
      local x2 = -z2 -- the same on X toward -X: the box's low face at -x2
      local d2 = C(-z2, 0, 0, 2, 1, 1):clip_x(C(-2, 0, 0, -1, 1, 1), -1 - x2)
      assert.is_true(d2 < 0 and d2 > -1 - x2 and x2 + d2 >= -1)
    end)

    it("rejects a non-finite displacement and a non-collider", function()
      assert.has_error(function() m:clip_y(m, 0 / 0) end,
        "bad argument #2 to 'clip_y' (number must be finite)")
      assert.has_error(function() m:clip_x({}, 1) end,
        "bad argument #1 to 'clip_x' (blockphys.Collider expected, got table)")
    end)
  end)

  describe("__eq and __tostring", function()
    it("compares by value", function()
      assert.is_true(C(0, 0, 0, 1, 1, 1) == C(0, 0, 0, 1, 1, 1))
      assert.is_false(C(0, 0, 0, 1, 1, 1) == C(0, 0, 0, 1, 1, 2))
      assert.is_true(C(0, 0, 0, 1, 1, 1) + { 1, 0, 0 } == C(1, 0, 0, 2, 1, 1))
    end)

    it("is false against any other userdata, on either side", function()
      local w = bp.World()
      local e = w:spawn{ x = 0, y = 0, z = 0 }
      local c = e:box()
      for _, other in ipairs{ w, e, io.stdout, e.rules } do
        assert.is_false(c == other)
        assert.is_false(other == c)
      end
      assert.is_true(c == e:box()) -- and still true for an equal Collider
    end)

    it("prints the corners", function()
      assert.equal("blockphys.Collider(0.0, -0.5, 0.25, 1.0, 2.0, 3.5)",
        tostring(C(0, -0.5, 0.25, 1, 2, 3.5)))
    end)
  end)
end)
