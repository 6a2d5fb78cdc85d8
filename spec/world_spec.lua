-- luacheck: std +busted
-- bp.World: block registry, chunked block grid (borders, negatives, int32 extremes),
-- fill, boxes_in (tall shapes, static colliders) and stats.
local bp = require "blockphys"
local C = require "helpers.compat"
local H = require "helpers.world"

describe("bp.World", function()
  describe(":define_block", function()
    it("numbers types from 1 (0 is air) in definition order", function()
      local w = bp.World()
      assert.equal(1, w:define_block{ name = "stone" })
      assert.equal(2, w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } })
      assert.equal(3, w:define_block{ name = "water", boxes = {}, liquid = "water" })
      assert.equal(0, w:block_id("air"))
      assert.equal(1, w:block_id("stone"))
      assert.equal(3, w:block_id("water"))
      assert.is_nil(w:block_id("dirt"))
      assert.equal(4, w:stats().block_types)
    end)

    it("defaults to a full cube, slipperiness 0.6F, no liquid, not climbable", function()
      local w = bp.World()
      local id = w:define_block{ name = "stone" }
      local info = w:block_info(id)
      assert.same({ id = 1, name = "stone", boxes = { { 0, 0, 0, 1, 1, 1 } },
                    slipperiness = 0.6000000238418579, climbable = false,
                    velocity_factor = 1, web = false, level = 0, solid = true,
                    ice = false, normal_cube = true, outline = { { 0, 0, 0, 1, 1, 1 } } }, info)
      assert.same(info, w:block_info("stone"))
    end)

    it("keeps the given boxes, slipperiness, liquid and climbable flag", function()
      local w = H.world()
      assert.same({ id = 2, name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } },
                    slipperiness = 0.6000000238418579, climbable = false,
                    velocity_factor = 1, web = false, level = 0, solid = true,
                    ice = false, normal_cube = false, outline = { { 0, 0, 0, 1, 0.5, 1 } } },
                  w:block_info("slab"))
      assert.equal(0.9800000190734863, w:block_info("ice").slipperiness)
      assert.equal("water", w:block_info("water").liquid)
      assert.same({}, w:block_info("water").boxes)
      assert.equal("lava", w:block_info("lava").liquid)
      assert.is_true(w:block_info("ladder").climbable)
      assert.same({ { 0.375, 0, 0.375, 0.625, 1.5, 0.625 } }, w:block_info("fence").boxes)
    end)

    it("gives a liquid no boxes unless it names some: an entity sinks into it", function()
      local w = bp.World()
      w:define_block { name = "stone" }
      w:define_block { name = "still_water", liquid = "water" }
      w:define_block { name = "lava", liquid = "lava" }
      w:define_block { name = "jelly", liquid = "water", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
      assert.same({}, w:block_info("still_water").boxes)
      assert.same({}, w:block_info("lava").boxes)
      assert.same({ { 0, 0, 0, 1, 0.5, 1 } }, w:block_info("jelly").boxes)
      w:fill(-2, 60, -2, 2, 60, 2, "stone")
      w:fill(-2, 61, -2, 2, 63, 2, "still_water")
      local e = w:spawn { x = 0.5, y = 64, z = 0.5 }
      for _ = 1, 60 do w:step() end
      assert.is_true(e.in_water)
      assert.is_true(e.y < 62, "the entity floats at " .. e.y)
    end)

    it("describes air", function()
      assert.same({ id = 0, name = "air", boxes = {}, slipperiness = 0.6000000238418579,
                    climbable = false, velocity_factor = 1, web = false, level = 0,
                    solid = false, ice = false, normal_cube = false, outline = {} },
                  bp.World():block_info(0))
    end)
  end)

  describe(":set_block / :get_block", function()
    it("reads air everywhere in a new world", function()
      local w = bp.World()
      assert.equal(0, w:get_block(0, 0, 0))
      assert.equal(0, w:get_block(-2147483648, 2147483647, 12345))
      assert.equal(0, w:stats().chunks)
    end)

    local coords = { -17, -16, -15, -1, 0, 15, 16, 17, 31, 32 }

    it("keeps every cell independent across chunk borders on each axis", function()
      local w = bp.World()
      for i = 1, 8 do w:define_block{ name = "b" .. i } end
      -- a distinct id per position along each axis, others at 0
      for axis = 1, 3 do
        for i, v in ipairs(coords) do
          local p = { 0, 0, 0 }
          p[axis] = v
          w:set_block(p[1], p[2] + 100 * axis, p[3], (i % 8) + 1)
        end
      end
      for axis = 1, 3 do
        for i, v in ipairs(coords) do
          local p = { 0, 0, 0 }
          p[axis] = v
          assert.equal((i % 8) + 1, w:get_block(p[1], p[2] + 100 * axis, p[3]))
        end
        -- the cells between the set ones stay air
        for _, v in ipairs{ -14, -2, 1, 14, 18, 30, 33 } do
          local p = { 0, 0, 0 }
          p[axis] = v
          assert.equal(0, w:get_block(p[1], p[2] + 100 * axis, p[3]))
        end
      end
      assert.equal(30, w:stats().blocks)
    end)

    it("distinguishes -1 from 15 and -16 from 0 (floor, not truncation)", function()
      local w = bp.World()
      w:define_block{ name = "stone" }
      w:set_block(-1, -1, -1, "stone")
      assert.equal(1, w:get_block(-1, -1, -1))
      assert.equal(0, w:get_block(15, 15, 15))
      assert.equal(0, w:get_block(15, -1, -1))
      w:set_block(-16, 0, 0, 1)
      assert.equal(1, w:get_block(-16, 0, 0))
      assert.equal(0, w:get_block(0, 0, 0))
      assert.equal(0, w:get_block(-17, 0, 0))
    end)

    it("stores blocks at the int32 extremes", function()
      local w = bp.World()
      w:define_block{ name = "stone" }
      local M, m = 2147483647, -2147483648
      w:set_block(M, M, M, "stone")
      w:set_block(m, m, m, "stone")
      w:set_block(M, m, 0, "stone")
      assert.equal(1, w:get_block(M, M, M))
      assert.equal(1, w:get_block(m, m, m))
      assert.equal(1, w:get_block(M, m, 0))
      assert.equal(0, w:get_block(M - 1, M, M))
      assert.equal(0, w:get_block(m + 1, m, m))
      assert.equal(0, w:get_block(m, M, m))
      assert.equal(3, w:stats().blocks)
    end)

    it("replaces and clears blocks, keeping the count", function()
      local w = H.world()
      w:set_block(5, 5, 5, "stone")
      w:set_block(5, 5, 5, "slab")
      assert.equal(w:block_id("slab"), w:get_block(5, 5, 5))
      assert.equal(1, w:stats().blocks)
      w:set_block(5, 5, 5, 0)
      assert.equal(0, w:get_block(5, 5, 5))
      assert.equal(0, w:stats().blocks)
    end)

    it("does not store air where no chunk exists", function()
      local w = H.world()
      w:set_block(1000, 1000, 1000, "air")
      assert.equal(0, w:stats().chunks)
    end)
  end)

  describe(":fill", function()
    it("fills an inclusive box given by corners in any order", function()
      local w = H.world()
      w:fill(3, 2, -1, -2, 0, 1, "stone") -- x 3..-2, y 2..0, z -1..1
      assert.equal(6 * 3 * 3, w:stats().blocks)
      for _, p in ipairs{ { -2, 0, -1 }, { 3, 2, 1 }, { 0, 1, 0 }, { -2, 2, 1 } } do
        assert.equal(1, w:get_block(p[1], p[2], p[3]))
      end
      for _, p in ipairs{ { -3, 0, 0 }, { 4, 0, 0 }, { 0, -1, 0 }, { 0, 3, 0 }, { 0, 0, 2 },
                          { 0, 0, -2 } } do
        assert.equal(0, w:get_block(p[1], p[2], p[3]))
      end
    end)

    it("fills whole chunks without per-block arrays (a 64^3 fill stays small)", function()
      local w = H.world()
      local before = w:stats().bytes
      w:fill(0, 0, 0, 63, 63, 63, "stone")
      local s = w:stats()
      assert.equal(64 * 64 * 64, s.blocks)
      assert.equal(64, s.chunks)
      -- one 16^3 array of uint16 would be 8192 bytes: 64 uniform chunks cost far less
      assert.is_true(s.bytes - before < 8192, "bytes grew by " .. (s.bytes - before))
      assert.equal(1, w:get_block(63, 63, 63))
      assert.equal(0, w:get_block(64, 63, 63))
    end)

    it("clears with air, partial chunks included", function()
      local w = H.world()
      w:fill(0, 0, 0, 31, 31, 31, "stone")
      w:fill(1, 1, 1, 30, 30, 30, "air")
      assert.equal(32 ^ 3 - 30 ^ 3, w:stats().blocks)
      assert.equal(0, w:get_block(15, 16, 1))
      assert.equal(1, w:get_block(0, 16, 16))
      w:fill(0, 0, 0, 31, 31, 31, 0)
      assert.equal(0, w:stats().blocks)
      assert.equal(0, w:get_block(0, 0, 0))
    end)

    it("gives arrays back when a chunk becomes uniform again", function()
      local w = H.world()
      w:fill(0, 0, 0, 15, 15, 15, "stone")
      local uniform = w:stats().bytes
      w:set_block(3, 3, 3, "slab")
      assert.is_true(w:stats().bytes >= uniform + 8192)
      w:set_block(3, 3, 3, "stone")
      assert.equal(uniform, w:stats().bytes)
    end)

    -- Two fills that each cover part of a chunk leave it all stone: the second must
    -- give the 8 KB id array back (4096 uint16), as one whole-chunk fill never makes it.
    it("compacts a chunk that two partial fills complete", function()
      local w = H.world()
      w:fill(0, 0, 0, 15, 7, 15, "stone") -- the lower half: an id array
      local half = w:stats().bytes
      w:fill(0, 8, 0, 15, 15, 15, "stone") -- the upper half: the chunk is all stone
      local s = w:stats()
      assert.equal(4096, s.blocks)
      assert.equal(1, s.chunks)
      assert.equal(half - 8192 - 16, s.bytes) -- the array and its header (chunk.c)
      local whole = H.world()
      whole:fill(0, 0, 0, 15, 15, 15, "stone")
      assert.equal(whole:stats().bytes, s.bytes)
      assert.equal(1, w:get_block(15, 15, 15))
    end)

    -- A fill covering a whole chunk stores one id for it (no array): every reader of
    -- blocks must see that id. Chunk (0, 0, 0) is cells 0 .. 15 on each axis.
    describe("whole chunks (one id, no array) are read by the movement code", function()
      it("stone: an entity stands on it", function()
        local w = H.world()
        w:fill(0, 0, 0, 15, 15, 15, "stone")
        local e = w:spawn{ x = 8.5, y = 16, z = 8.5 }
        for _ = 1, 5 do w:step() end
        assert.equal(16, e.y)
        assert.is_true(e.on_ground)
        assert.equal(1, #w:boxes_in(bp.Collider(8.2, 15.5, 8.2, 8.8, 16.5, 8.8)))
      end)

      it("water: an entity inside is in water", function()
        local w = H.world()
        w:fill(0, 0, 0, 15, 15, 15, "water")
        local e = w:spawn{ x = 8.5, y = 8, z = 8.5 }
        w:step()
        assert.is_true(e.in_water)
      end)

      -- Soul sand (Beta: 0.875 high, velocity_factor 0.4): a walker landed on it walks
      -- one tick from rest. The heading adds the float ground acceleration, the move
      -- keeps it, the one touched cell (8, 15, 8) scales it by 0.4, then the friction
      -- 0.6F x 0.91F (the block under floor(15.875) - 1 = 14 is soul sand, slipperiness
      -- 0.6F): 0.021403200299072014, exact as the game's order of operations.
      it("soul sand: slows a walker standing on it", function()
        local w = H.world()
        w:define_block{ name = "soul_sand", boxes = { { 0, 0, 0, 1, 0.875, 1 } },
                        velocity_factor = 0.4 }
        w:fill(0, 0, 0, 15, 15, 15, "soul_sand")
        local e = w:spawn{ x = 8.5, y = 15.875, z = 8.5 }
        w:step() -- the spawn tick: an air tick, vy = 0, so a move of 0 (not grounded)
        w:step() -- lands (vy < 0, clipped to 0)
        assert.is_true(e.on_ground)
        assert.equal(0, e.vz)
        e.forward = 1
        w:step()
        local F = H.F
        local f = H.f32(F.slip * F.air)
        local accel = H.f32(F.input * H.f32(F.ground * H.f32(F.accel / H.f32(H.f32(f * f) * f))))
        assert.equal(accel * 0.4 * f, e.vz)
        assert.equal(0.021403200299072014, e.vz)
        assert.equal(15.875, e.y)
      end)
    end)

    it("fills whole chunks beyond the limit on cut chunks", function()
      local w = H.world()
      assert.equal(65536, bp.limits.max_fill_cut_chunks)
      w:fill(0, 0, 0, 16 * 65537 - 1, 15, 15, "stone") -- 65,537 whole chunks, none cut
      assert.equal(65537, w:stats().chunks)
      assert.equal(w:block_id("stone"), w:get_block(16 * 65537 - 1, 15, 15))
    end)

    it("clearing where nothing is stored creates no chunks", function()
      local w = H.world()
      w:fill(-100, -100, -100, 100, 100, 100, "air")
      assert.equal(0, w:stats().chunks)
    end)

    it("fills across the int32 extremes", function()
      local w = H.world()
      w:fill(2147483646, 0, 0, 2147483647, 0, 0, "stone")
      w:fill(-2147483648, 0, 0, -2147483647, 0, 0, "stone")
      assert.equal(4, w:stats().blocks)
      assert.equal(1, w:get_block(2147483647, 0, 0))
      assert.equal(1, w:get_block(-2147483648, 0, 0))
    end)
  end)

  describe(":boxes_in", function()
    it("returns the shapes of blocks overlapping the region, in world space", function()
      local w = H.world()
      w:set_block(2, 0, -3, "slab")
      local boxes = w:boxes_in(bp.Collider(2.1, 0.1, -2.9, 2.2, 0.2, -2.8))
      assert.equal(1, #boxes)
      assert.is_true(boxes[1] == bp.Collider(2, 0, -3, 3, 0.5, -2))
      -- above the slab's top (0.5) nothing is found, touching is not overlap
      assert.same({}, w:boxes_in(bp.Collider(2, 0.5, -3, 3, 1, -2)))
    end)

    it("finds a 1.5-high fence from the cell above it", function()
      local w = H.world()
      w:set_block(0, 0, 0, "fence")
      local boxes = w:boxes_in(bp.Collider(0, 1.2, 0, 1, 1.4, 1))
      assert.equal(1, #boxes)
      assert.is_true(boxes[1] == bp.Collider(0.375, 0, 0.375, 0.625, 1.5, 0.625))
      assert.same({}, w:boxes_in(bp.Collider(0, 1.5, 0, 1, 2, 1)))
    end)

    it("includes static colliders and forgets removed ones", function()
      local w = H.world()
      local c = bp.Collider(10.5, 3.25, 10.5, 12, 4, 11)
      local h = w:add_collider(c)
      assert.equal(1, w:stats().colliders)
      local boxes = w:boxes_in(bp.Collider(11, 3, 10, 11.5, 3.5, 10.75))
      assert.equal(1, #boxes)
      assert.is_true(boxes[1] == c)
      w:remove_collider(h)
      assert.equal(0, w:stats().colliders)
      assert.same({}, w:boxes_in(bp.Collider(11, 3, 10, 11.5, 3.5, 10.75)))
      assert.has_error(function() w:remove_collider(h) end,
        "bad argument #1 to 'remove_collider' (no such collider (removed, never added, or another world's))")
    end)

    it("does not confuse a reused collider slot with a removed handle", function()
      local w = H.world()
      local h1 = w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1))
      w:remove_collider(h1)
      local h2 = w:add_collider(bp.Collider(5, 5, 5, 6, 6, 6))
      assert.are_not.equal(h1, h2)
      assert.has_error(function() w:remove_collider(h1) end,
        "bad argument #1 to 'remove_collider' (no such collider (removed, never added, or another world's))")
      assert.equal(1, w:stats().colliders)
      w:remove_collider(h2)
      assert.equal(0, w:stats().colliders)
    end)

    it("blocks entity moves with static colliders", function()
      local w = H.world()
      w:add_collider(bp.Collider(-5, -1, -5, 5, 0.25, 5))
      local e = w:spawn{ x = 0, y = 1, z = 0 }
      local _, dy = e:move(0, -2, 0)
      assert.equal(-0.75, dy)
      assert.equal(0.25, e.y)
      assert.is_true(e.on_ground)
    end)

    -- A removed collider keeps its slot (marked dead until add_collider reuses it), so
    -- every walk over the colliders must skip dead slots: the move's gather
    -- (bp_world_collect), the sweep and the raycast each have their own loop.
    it("stops blocking moves, sweeps and rays once the collider is removed", function()
      local w = H.world() -- no blocks: the collider is the only thing to meet
      local h = w:add_collider(bp.Collider(-1, 63, -1, 2, 64, 2)) -- a floor, top y = 64
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
      local probe = bp.Collider(0, 66, 0, 1, 67, 1)
      -- present: the entity stands on it, a box 2 above it meets it after 2 of 5 blocks
      -- (t = 2 / 5, exact), a ray down from y = 66 after 2 (exact)
      assert.same({ 0, 0, 0 }, { e:move(0, -0.5, 0) })
      local t, ax, ay, az, hit = w:sweep(probe, 0, -5, 0)
      assert.same({ 0.4, 0, -2, 0 }, { t, ax, ay, az })
      assert.same({ collider = true, handle = h, nx = 0, ny = 1, nz = 0 }, hit)
      assert.equal(2, w:raycast(0.5, 66, 0.5, 0, -1, 0, 10).distance)
      w:remove_collider(h)
      -- removed: the whole 0.5 down (exact: 64 - 0.5), the whole sweep, no ray hit
      assert.same({ 0, -0.5, 0 }, { e:move(0, -0.5, 0) })
      assert.equal(63.5, e.y)
      assert.is_false(e.on_ground)
      assert.same({ 1, 0, -5, 0 }, { w:sweep(probe, 0, -5, 0) })
      assert.is_nil(select(5, w:sweep(probe, 0, -5, 0)))
      assert.is_nil(w:raycast(0.5, 66, 0.5, 0, -1, 0, 10))
    end)

    -- Cells -17 and -16 lie in chunks -2 and -1: -16 is the first cell of chunk -1, the
    -- one a floor division of a negative cell number gets wrong if it is off by one
    -- (-16 // 16 = -1, not -2). Each axis in turn: the region is x -17.5 .. -15.5
    -- (cells -18 .. -16), so its last chunk must be -1.
    it("finds the blocks on both sides of a negative chunk border, on each axis", function()
      for axis = 1, 3 do
        local w = H.world()
        local lo, hi = { 0.2, 0.2, 0.2 }, { 0.8, 0.8, 0.8 }
        lo[axis], hi[axis] = -17.5, -15.5
        local want = {}
        for i, v in ipairs{ -17, -16 } do -- chunk by chunk: chunk -2 first
          local c = { 0, 0, 0 }
          c[axis] = v
          w:set_block(c[1], c[2], c[3], "stone")
          local d = { c[1] + 1, c[2] + 1, c[3] + 1 }
          want[i] = bp.Collider(c[1], c[2], c[3], d[1], d[2], d[3])
        end
        local boxes = w:boxes_in(bp.Collider(lo[1], lo[2], lo[3], hi[1], hi[2], hi[3]))
        assert.equal(2, #boxes)
        assert.is_true(boxes[1] == want[1], "axis " .. axis .. ": " .. tostring(boxes[1]))
        assert.is_true(boxes[2] == want[2], "axis " .. axis .. ": " .. tostring(boxes[2]))
      end
    end)

    it("refuses a region too large to scan", function()
      local w = H.world()
      assert.has_error(function() w:boxes_in(bp.Collider(0, 0, 0, 1e5, 1e5, 1e5)) end,
        "boxes_in: region too large (more than 16777216 cells)")
    end)

    -- 16,896 cells of a 64-box shape hold 1,081,344 boxes: over the limit, though the
    -- region is far under its cell limit.
    it("refuses a region holding more boxes than limits.max_query_boxes", function()
      local w = bp.World()
      local boxes = {}
      for i = 0, 63 do boxes[#boxes + 1] = { 0, i / 64, 0, 1, (i + 1) / 64, 1 } end
      w:define_block { name = "stack", boxes = boxes }
      w:fill(0, 0, 0, 31, 15, 32, "stack")
      assert.equal(1048576, bp.limits.max_query_boxes)
      assert.has_error(function() w:boxes_in(bp.Collider(0, 0, 0, 32, 16, 33)) end,
        "boxes_in: region holds more than 1048576 boxes (limits.max_query_boxes)")
      assert.equal(64 * 32 * 16 * 32, #w:boxes_in(bp.Collider(0, 0, 0, 32, 16, 32)))
    end)

    -- A flat region on a cell boundary holds no cells, so no cell limit stops it: it
    -- must not walk the chunks of its other two axes (this one would take hours).
    it("answers a flat region on a cell boundary without walking it, however wide", function()
      local w = H.world()
      w:set_block(7, 0, 0, "stone")
      assert.same({}, w:boxes_in(bp.Collider(7, -1e9, -1e9, 7, 1e9, 1e9)))
      assert.same({}, w:boxes_in(bp.Collider(3e9, -1e9, -1e9, 4e9, 1e9, 1e9))) -- beyond the grid
      -- flat on Y: this world has a 1.5-high fence type, so the row below counts and
      -- the cell limit applies; a world without tall shapes has no cells there
      assert.has_error(function() w:boxes_in(bp.Collider(-1e9, 5, -1e9, 1e9, 5, 1e9)) end,
        "boxes_in: region too large (more than 16777216 cells)")
      local plain = bp.World()
      plain:define_block{ name = "stone" }
      plain:set_block(0, 4, 0, "stone")
      assert.same({}, plain:boxes_in(bp.Collider(-1e9, 5, -1e9, 1e9, 5, 1e9)))
      assert.same({}, w:query(bp.Collider(-1e9, 3, -1e9, 1e9, 3, 1e9)))
      assert.equal(1, #w:boxes_in(bp.Collider(7.5, -1, -1, 7.5, 1, 1))) -- inside the cell
    end)
  end)

  describe(":stats", function()
    it("counts blocks, chunks, types, entities and colliders", function()
      local w = H.world()
      w:set_block(0, 0, 0, "stone")
      w:set_block(16, 0, 0, "stone")
      w:spawn{ x = 0, y = 5, z = 0 }
      w:add_collider(bp.Collider(0, 0, 0, 1, 1, 1))
      local s = w:stats()
      assert.equal(2, s.blocks)
      assert.equal(2, s.chunks)
      assert.equal(8, s.block_types)
      assert.equal(1, s.entities)
      assert.equal(1, s.colliders)
      assert.equal("integer", C.mtype(s.bytes))
      assert.is_true(s.bytes > 0)
    end)

    it("prints a summary and a destroyed state", function()
      local w = H.world()
      w:set_block(0, 0, 0, "stone")
      assert.equal("blockphys.World (0 entities, 1 blocks)", tostring(w))
      w:destroy()
      assert.equal("blockphys.World (destroyed)", tostring(w))
    end)
  end)

  -- The last cell of the grid, 2^31 - 1, collides like any other (a range end clamped
  -- to INT32_MAX once dropped it); beyond it is air.
  describe("the int32 edge", function()
    local M = 2147483647

    it("boxes_in finds the block in the last cell on each axis", function()
      for axis = 1, 3 do
        local w = H.world()
        local c = { 0, 0, 0 }
        c[axis] = M
        w:set_block(c[1], c[2], c[3], "stone")
        local lo, hi = { 0.1, 0.1, 0.1 }, { 0.9, 0.9, 0.9 }
        lo[axis], hi[axis] = M + 0.1, M + 0.9
        local found = w:boxes_in(bp.Collider(lo[1], lo[2], lo[3], hi[1], hi[2], hi[3]))
        assert.equal(1, #found)
        lo[axis], hi[axis] = M + 1.1, M + 1.9 -- beyond the grid
        assert.same({}, w:boxes_in(bp.Collider(lo[1], lo[2], lo[3], hi[1], hi[2], hi[3])))
      end
    end)

    it("stops an entity at a wall in the last cell and holds it on a floor there", function()
      local w = H.world()
      w:fill(0, 0, M, 0, 2, M, "stone")
      local e = w:spawn{ x = 0.5, y = 0, z = 2147482000, rules = bp.rules.beta173{ push = false } }
      e:move(0, 0, 1024)
      local _, _, dz = e:move(0, 0, 1000)
      assert.is_true(dz < 1000)
      assert.near(M - H.F.half_width, e.z, 1e-6)
      assert.is_true(e:box().z2 <= M)
      w:fill(-1, -1, M - 1, 1, -1, M, "stone") -- a floor under it, the last row included
      e:move(0, 0, 0.2) -- still against the wall
      e:move(0, -0.5, 0)
      assert.equal(0, e.y)
      assert.is_true(e.on_ground)
    end)

    it("finds water in the last cell", function()
      local w = H.world()
      w:fill(-1, -2, M, 1, 2, M, "water")
      local e = w:spawn{ x = 0.5, y = 0, z = 2147482000 }
      e:move(0, 0, 1024)
      e:move(0, 0, M + 0.5 - e.z) -- box z M + 0.2 .. M + 0.8: only the last row
      assert.is_true(e:box().z1 > M and e:box().z2 < M + 1)
      w:step()
      assert.is_true(e.in_water)
      -- wholly beyond the last cell: air, whatever the last cell holds
      e:move(0, 0, 1)
      assert.is_true(e:box().z1 > M + 1)
      w:step()
      assert.is_false(e.in_water)
      w:set_block(0, 0, M, "stone")
      assert.same({}, w:boxes_in(bp.Collider(0, 0, M + 1.1, 1, 1, M + 1.9)))
    end)

    it("is air beyond the last cell for the tick's point lookups (ladder, friction)", function()
      -- Falls one cell beyond a column of (box-less) ladders and ice, and without it.
      local function fall(with_column)
        local w = H.world()
        w:define_block{ name = "vine", boxes = {}, climbable = true }
        if with_column then
          w:fill(0, 0, M, 0, 20, M, "vine")
          w:fill(0, -1, M, 0, -1, M, "ice")
        end
        local e = w:spawn{ x = 0.5, y = 10, z = 2147482000 }
        e:move(0, 0, 1024)
        e:move(0, 0, M + 1.5 - e.z)
        e.forward = 1
        for _ = 1, 12 do w:step() end
        return { e.x, e.y, e.z, e.vx, e.vy, e.vz }
      end
      assert.same(fall(false), fall(true))
    end)
  end)
end)
