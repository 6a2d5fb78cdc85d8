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
end)
