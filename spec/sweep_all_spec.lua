-- luacheck: std +busted
-- world:sweep_all(collider, dx, dy, dz [, filter]): every block box, static collider
-- and entity box a moving box crosses, in order, with entry and exit times and the
-- normal of the face crossed (bump's querySegmentWithCoords, for boxes).
local bp = require "blockphys"
local C = bp.Collider

local function world()
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  return w
end

-- kind, entry, exit, normal and the place of each crossing, for assert.same
local function summary(list)
  local out = {}
  for i, x in ipairs(list) do
    local where = x.kind == "block" and { x.x, x.y, x.z } or x.kind == "collider" and x.handle
      or x.entity
    out[i] = { x.kind, x.entry, x.exit, x.nx, x.ny, x.nz, where }
  end
  return out
end

describe("world:sweep_all", function()
  it("lists the blocks a bullet box passes through, in order, with entry and exit", function()
    local w = world()
    for x = 2, 6, 2 do w:set_block(x, 0, 0, "stone") end -- blocks at x = 2, 4, 6
    -- a 0.5-wide box from x = 0 .. 0.5 moving +8 along X: enters block x at
    -- (x - 0.5) / 8 and leaves at (x + 1) / 8
    local got = w:sweep_all(C(0, 0.25, 0.25, 0.5, 0.75, 0.75), 8, 0, 0)
    assert.same({
      { "block", 1.5 / 8, 3 / 8, -1, 0, 0, { 2, 0, 0 } },
      { "block", 3.5 / 8, 5 / 8, -1, 0, 0, { 4, 0, 0 } },
      { "block", 5.5 / 8, 7 / 8, -1, 0, 0, { 6, 0, 0 } },
    }, summary(got))
    assert.equal(w:block_id("stone"), got[1].id)
    assert.same({ 2, 0, 0, 3, 1, 1 }, { got[1].box:unpack() })
  end)

  it("includes colliders and entities, each by its kind, and the box it starts in", function()
    local w = world()
    w:set_block(0, 0, 0, "slab") -- the box starts inside the slab
    local h = w:add_collider(C(3, 0, 0, 4, 1, 1))
    local e = w:spawn{ x = 6.5, y = 0, z = 0.5, width = 1, height = 1 }
    local got = w:sweep_all(C(0.25, 0.25, 0.25, 0.75, 0.75, 0.75), 8, 0, 0)
    assert.same({
      { "block", 0, 0.75 / 8, 0, 0, 0, { 0, 0, 0 } }, -- inside at the start
      { "collider", 2.25 / 8, 3.75 / 8, -1, 0, 0, h },
      { "entity", 5.25 / 8, 6.75 / 8, -1, 0, 0, e },
    }, summary(got))
    assert.is_true(got[2].collider)
  end)

  it("does not list a box only grazed or touched", function()
    local w = world()
    w:set_block(1, 1, 0, "stone")
    -- the moving box's top edge slides along the block's bottom face: touching only
    assert.same({}, w:sweep_all(C(0, 0, 0, 1, 1, 1), 3, 0, 0))
    -- an edge grazed at one instant (x reaches 1 as y leaves 1)
    assert.same({}, w:sweep_all(C(0, 2, 0, 1, 3, 1), 1, 1, 0))
    -- a box touched at the very end of the move: not crossed
    assert.same({}, w:sweep_all(C(-1, 1, 0, 0, 2, 1), 1, 0, 0))
  end)

  it("orders a face contact before an edge contact at the same entry", function()
    local w = world()
    w:set_block(0, 0, 0, "stone")
    w:set_block(1, 0, 0, "stone")
    -- the issue's case: at t = 0.5 the box meets block (0,0,0) edge-first (x and y
    -- enter then) and block (1,0,0) face-first (y): the face comes first
    local got = w:sweep_all(C(1.5, 2, 0.2, 2, 3, 0.8), -1, -2, 0)
    assert.same({ "block", 0.5, 1, 0, 1, 0, { 1, 0, 0 } }, summary(got)[1])
    assert.same({ "block", 0.5, 1.5, 1, 0, 0, { 0, 0, 0 } }, summary(got)[2])
  end)

  it("orders colliders the same whatever order they were added in", function()
    local function run(order)
      local w = world()
      local boxes = { C(2, 0, 0, 3, 1, 1), C(2, 0, 1, 3, 1, 2) }
      for _, i in ipairs(order) do w:add_collider(boxes[i]) end
      local out = {}
      for i, x in ipairs(w:sweep_all(C(0, 0, 0.5, 1, 1, 1.5), 4, 0, 0)) do
        out[i] = { x.box:unpack() }
      end
      return out
    end
    assert.same(run{ 1, 2 }, run{ 2, 1 })
    assert.same({ 2, 0, 0, 3, 1, 1 }, run{ 2, 1 }[1])
  end)

  it("keeps only what the filter accepts", function()
    local w = world()
    for x = 2, 6, 2 do w:set_block(x, 0, 0, "stone") end
    w:spawn{ x = 3.5, y = 0, z = 0.5, width = 0.5, height = 1 }
    local seen = 0
    local got = w:sweep_all(C(0, 0.25, 0.25, 0.5, 0.75, 0.75), 8, 0, 0, function(x)
      seen = seen + 1
      return x.kind == "entity"
    end)
    assert.equal(4, seen)
    assert.equal(1, #got)
    assert.equal("entity", got[1].kind)
  end)

  it("wraps a filter's errors as step and move filters do", function()
    local w = world()
    w:set_block(2, 0, 0, "stone")
    local c = C(0, 0.25, 0.25, 0.5, 0.75, 0.75)
    local ok, err = pcall(w.sweep_all, w, c, 8, 0, 0, function() error("nope", 0) end)
    assert.is_false(ok)
    assert.equal("sweep_all: filter failed: nope", err)
    ok, err = pcall(w.sweep_all, w, c, 8, 0, 0, function() error({}) end)
    assert.is_false(ok)
    assert.equal("sweep_all: filter failed: (a table value)", err)
    ok, err = pcall(w.sweep_all, w, c, 8, 0, 0, function() error() end)
    assert.is_false(ok)
    assert.equal("sweep_all: filter failed: nil", err)
  end)

  it("with a zero displacement lists the boxes the collider overlaps", function()
    local w = world()
    w:set_block(0, 0, 0, "stone")
    local got = w:sweep_all(C(0.5, 0.5, 0.5, 1.5, 1.5, 1.5), 0, 0, 0)
    assert.equal(1, #got)
    assert.equal(0, got[1].entry)
    assert.equal(math.huge, got[1].exit)
  end)

  it("raises on bad arguments and past its work bounds", function()
    local w = world()
    local c = C(0, 0, 0, 1, 1, 1)
    assert.has_error(function() w:sweep_all({}, 1, 0, 0) end,
      "bad argument #1 to 'sweep_all' (blockphys.Collider expected, got table)")
    assert.has_error(function() w:sweep_all(c, 2000, 0, 0) end,
      "bad argument #2 to 'sweep_all' (displacement must be at most 1024 blocks per axis)")
    assert.has_error(function() w:sweep_all(c, 0, 0 / 0, 0) end,
      "bad argument #3 to 'sweep_all' (number must be finite)")
    assert.has_error(function() w:sweep_all(c, 1, 0, 0, 5) end,
      "bad argument #5 to 'sweep_all' (function expected, got number)")
    assert.has_error(function() w:sweep_all(C(0, 0, 0, 1000, 1000, 1000), 1000, 0, 0) end,
      "sweep_all: region too large (more than 16777216 cells)")
    local boxes = {}
    for i = 0, 63 do boxes[#boxes + 1] = { i / 64, 0, 0, (i + 0.5) / 64, 1, 0.5 } end
    w:define_block{ name = "comb", boxes = boxes }
    w:fill(0, 0, 0, 255, 127, 0, "comb")
    assert.has_error(function() w:sweep_all(C(-1, 0.25, 0.6, -0.5, 127, 0.9), 300, 0, 0) end,
      "sweep_all: the path holds more than 1048576 block boxes, or crosses more than 1048576 "
      .. "boxes (limits.max_query_boxes)")
  end)

  it("bounds a still box's cells as boxes_in bounds a region's", function()
    -- a still box lists what it starts inside, so it scans its own cells: side 256 is
    -- 257^3 cells touched (over 16777216), side 255 is 256^3 = 16777216 (allowed)
    local w = world()
    w:set_block(3, 3, 3, "stone")
    for _, side in ipairs{ 256, 8000, 20000, 2e9 } do
      assert.has_error(function() w:sweep_all(C(0, 0, 0, side, side, side), 0, 0, 0) end,
        "sweep_all: region too large (more than 16777216 cells)")
    end
    assert.has_error(function() w:boxes_in(C(0, 0, 0, 8000, 8000, 8000)) end)
    local got = w:sweep_all(C(0.5, 0.5, 0.5, 255.5, 255.5, 255.5), 0, 0, 0)
    assert.equal(1, #got)
    assert.same({ 3, 3, 3 }, { got[1].x, got[1].y, got[1].z })
    -- a moving box is counted as before: its path, not its own cells alone
    assert.has_error(function() w:sweep_all(C(0, 0, 0, 255, 255, 255), 2, 0, 0) end,
      "sweep_all: region too large (more than 16777216 cells)")
  end)

  it("counts the colliders and entities it crosses against max_query_boxes", function()
    -- 1048576 colliders and an entity on one spot: every one is a crossing, one more
    -- than the bound
    local w = world()
    local unit = C(0, 0, 0, 1, 1, 1)
    for _ = 1, bp.limits.max_query_boxes do w:add_collider(unit) end
    local probe = C(0.5, 0.5, 0.5, 0.6, 0.6, 0.6)
    w:spawn{ x = 0.5, y = 0, z = 0.5, width = 0.5, height = 1 }
    assert.has_error(function() w:sweep_all(probe, 0, 0, 0) end,
      "sweep_all: the path holds more than 1048576 block boxes, or crosses more than 1048576 "
      .. "boxes (limits.max_query_boxes)")
    assert.has_error(function() w:sweep_all(probe, 0.25, 0, 0) end)
    w:add_collider(unit)
    assert.has_error(function() w:sweep_all(probe, 0, 0, 0) end)
    -- a probe beside them crosses none and is fine
    assert.equal(0, #w:sweep_all(C(5, 5, 5, 6, 6, 6), 0, 0, 0))
  end)
end)
