-- luacheck: std +busted
-- The per-entity gather cache (bp_GatherCache, query.c): an entity that stays within
-- the same cells reuses the non-air cells its last move walked. These specs change the
-- blocks under and in front of entities that have been reusing their cache, and check
-- that the next step sees the change (set_block, fill, a different shape), with the
-- exact positions the per-axis resolver gives.
local H = require "helpers.world"
local F = H.F

local HW = F.half_width
local GROUND = -0.0784000015258789 -- (0 - 0.08) * 0.98F: a grounded entity's vy

-- An entity standing still on the block at (0, 0, 0), stepped until its cache is warm.
local function standing_on_one_block(w)
  w:set_block(0, 0, 0, "stone")
  local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
  for _ = 1, 5 do w:step() end
  assert.is_true(e.on_ground)
  assert.equal(1, e.y)
  return e
end

describe("gather cache", function()
  local removals = {
    { "set_block", function(w) w:set_block(0, 0, 0, "air") end },
    { "fill", function(w) w:fill(-1, 0, -1, 1, 0, 1, "air") end },
  }
  for _, r in ipairs(removals) do
    local how, remove = r[1], r[2]
    it("sees the block under a standing entity removed with " .. how, function()
      local w = H.world()
      local e = standing_on_one_block(w)
      remove(w)
      w:step()
      assert.is_false(e.on_ground)
      assert.equal(1 + GROUND, e.y)
    end)
  end

  it("sees a block replaced by a lower shape and lands on it", function()
    local w = H.world()
    local e = standing_on_one_block(w)
    w:set_block(0, 0, 0, "slab")
    local landed
    for t = 1, 20 do
      w:step()
      if e.on_ground then landed = t break end
    end
    assert.truthy(landed)
    assert.equal(0.5, e.y)
  end)

  it("sees a wall placed in front of a walking entity", function()
    local w = H.world()
    H.flat(w, 0)
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5, yaw = -90 } -- facing +X
    e.forward = 1
    for _ = 1, 5 do w:step() end
    local wall = math.floor(e.x + HW) + 2
    w:fill(wall, 1, -1, wall, 3, 1, "stone")
    for _ = 1, 60 do w:step() end
    assert.equal(wall, e.x + HW)
    assert.is_true(e.collided_horizontally)
    assert.equal(0, #w:boxes_in(e:box()))
  end)

  it("keeps entities apart: each has its own cache", function()
    local w = H.world()
    w:set_block(0, 0, 0, "stone")
    w:set_block(10, 0, 0, "stone")
    local a = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    local b = w:spawn{ x = 10.5, y = 1, z = 0.5 }
    for _ = 1, 5 do w:step() end
    w:set_block(10, 0, 0, "air")
    w:step()
    assert.equal(1, a.y)
    assert.is_true(a.on_ground)
    assert.equal(1 + GROUND, b.y)
  end)

  -- The cache notes at most 16 non-air cells (BP_GATHER_CELLS); a walk that meets more
  -- overflows it and must leave it empty, or later moves would miss the cells past the
  -- 16th. A 1.8-wide walker on carpet (1/16 high) walks +Z into a wall whose bottom is at
  -- y = 65, below its head (64.0625 + 1.8). Pressed against it, its region (with the
  -- step-up rows) is cells x 3 .. 5, y 63 .. 66, z 2 .. 4: 9 stone, then 9 carpet, then
  -- 3 wall cells in the walk's y, z, x order, all in chunk column (0, 0), so the wall
  -- cells come after the 16th. It stops with its max z on the wall's face, z = 4 - 0.9.
  it("does not keep a walk of more than 16 cells: a wall past the 16th still stops", function()
    local w = H.world()
    w:define_block{ name = "carpet", boxes = { { 0, 0, 0, 1, 1 / 16, 1 } } }
    H.flat(w, 63)
    w:fill(-8, 64, -8, 8, 64, 8, "carpet")
    w:fill(-8, 65, 4, 8, 65, 4, "stone") -- the wall: its bottom at head height
    local e = w:spawn{ x = 4.5, y = 64.0625, z = 0.5, width = 1.8 } -- yaw 0: faces +Z
    e.forward = 1
    for _ = 1, 40 do w:step() end
    assert.equal(4, e:box().z2)
    assert.is_near(3.1, e.z, 1e-12)
    assert.equal(4.5, e.x)
    assert.equal(64.0625, e.y)
    assert.is_true(e.on_ground)
    assert.is_true(e.collided_horizontally)
  end)

  -- The friction block under a grounded entity is looked up in the cache: the lookup
  -- must match all three coordinates. Stone at z <= 0 and ice at z >= 1, both with
  -- top y = 64; the entity at z = 1.1 (box z 0.8 .. 1.4) overlaps both rows, so its
  -- cache holds stone (0, 63, 0) before ice (0, 63, 1), same x and y. Its position is
  -- over the ice: one tick of sliding multiplies vx by 0.98F x 0.91F (float product),
  -- not stone's 0.6F x 0.91F: 0.2 x 0.89180004596710205 = 0.17836000919342043.
  it("looks the friction block up by x, y and z among the cached cells", function()
    local w = H.world()
    w:fill(-8, 63, -8, 8, 63, 0, "stone")
    w:fill(-8, 63, 1, 8, 63, 8, "ice")
    local e = w:spawn{ x = 0.5, y = 64, z = 1.1 }
    for _ = 1, 3 do w:step() end -- lands; the cache now holds the move's cells
    assert.is_true(e.on_ground)
    assert.equal(64, e.y)
    e.vx = 0.2
    w:step()
    assert.equal(0.2 * H.f32(F.ice * F.air), e.vx)
    assert.equal(0.17836000919342043, e.vx)
    assert.is_near(0.7, e.x, 1e-12)
  end)
end)
