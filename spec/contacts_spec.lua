-- e:contacts(), e:ground() and e.ground_v*: the boxes that stopped the last step, and
-- what an entity stands on, for both resolvers, blocks, colliders and solid entities.
local bp = require "blockphys"
local H = require "helpers.world"

local RESOLVERS = { "axis", "swept" }

local function summary(cs)
  local out = {}
  for i, c in ipairs(cs) do
    local what = c.kind == "block" and ("%d,%d,%d"):format(c.x, c.y, c.z)
      or c.kind == "collider" and tostring(c.collider) or tostring(c.entity)
    out[i] = ("%s %s %d,%d,%d"):format(c.kind, what, c.nx, c.ny, c.nz)
  end
  return out
end

describe("contacts", function()
  for _, resolver in ipairs(RESOLVERS) do
    it("of a walker against a wall over a seam, sorted (" .. resolver .. ")", function()
      local w = H.world()
      H.flat(w, 63)
      w:fill(-3, 64, 2, 3, 65, 2, "stone") -- a wall whose face is at z = 2
      local e = w:spawn{ x = 0, y = 64, z = 0, rules = bp.rules.beta173{ resolver = resolver } }
      e.forward = 1
      for _ = 1, 30 do w:step() end
      assert.is_true(e.collided_horizontally)
      assert.is_true(e.z > 1.69 and e.z <= 1.7, "z " .. e.z)
      -- the box spans x in [-0.3, 0.3]: two floor blocks (x = -1, 0) and two wall
      -- columns of two blocks each (the box is 1.8 high from y = 64); floor first (+Y)
      assert.same({
        "block -1,63,1 0,1,0", "block 0,63,1 0,1,0",
        "block -1,64,2 0,0,-1", "block -1,65,2 0,0,-1", "block 0,64,2 0,0,-1", "block 0,65,2 0,0,-1",
      }, summary(e:contacts()))
      -- the centre (x = 0) is on the seam of x = -1 and 0: the lower x wins
      assert.same({ "block", -1, 63, 1, w:block_id("stone") }, { e:ground() })
    end)

    it("of a head under a ceiling, and none in the air (" .. resolver .. ")", function()
      local w = H.world()
      H.flat(w, 63)
      w:set_block(0, 66, 0, "stone")
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{ resolver = resolver } }
      for _ = 1, 3 do w:step() end
      e.jumping = true
      w:step() -- the jump: 0.42 up, stopped 0.2 up by the ceiling
      assert.same({ "block 0,66,0 0,-1,0" }, summary(e:contacts()))
      assert.is_nil(e:ground())
      local faller = w:spawn{ x = 5.5, y = 70, z = 5.5, rules = bp.rules.beta173{ resolver = resolver } }
      for _ = 1, 3 do w:step() end
      assert.same({}, faller:contacts())
      assert.is_nil(faller:ground())
    end)
  end

  it("of a collider and a solid entity, with the ground they give", function()
    local w = H.world()
    H.flat(w, 63)
    local h = w:add_collider(bp.Collider(10, 64, -1, 12, 64.25, 1))
    local on_collider = w:spawn{ x = 11, y = 66, z = 0 }
    local raft = w:spawn{ x = 5, y = 64, z = 0, width = 3, height = 0.5, solid = true }
    local rider = w:spawn{ x = 5.5, y = 66, z = 0.5 }
    for _ = 1, 30 do w:step() end
    assert.equal(64.25, on_collider.y)
    assert.same({ "collider", h }, { on_collider:ground() })
    assert.same({ "collider " .. h .. " 0,1,0" }, summary(on_collider:contacts()))
    assert.equal(64.5, rider.y)
    local kind, other = rider:ground()
    assert.equal("entity", kind)
    assert.equal(raft, other)
    assert.equal(raft, rider:contacts()[1].entity)
    assert.equal(0, rider.ground_vx)
  end)

  it("ground on a slab, a fence post and at an edge", function()
    local w = H.world()
    H.flat(w, 63)
    local slab, fence = w:block_id("slab"), w:block_id("fence")
    w:set_block(5, 64, 0, "slab")
    w:set_block(8, 64, 0, "fence")
    w:fill(-10, 64, -10, -6, 64, -6, "stone")
    local a = w:spawn{ x = 5.5, y = 66, z = 0.5 }
    local b = w:spawn{ x = 8.5, y = 67, z = 0.5 }
    for _ = 1, 30 do w:step() end
    assert.equal(64.5, a.y)
    assert.same({ "block", 5, 64, 0, slab }, { a:ground() })
    assert.equal(65.5, b.y)
    assert.same({ "block", 8, 64, 0, fence }, { b:ground() })
    -- over an edge: the centre (-5.85) is past the block's side (-6 .. -5 is air): the
    -- nearest support, block -6, is the ground
    local c = w:spawn{ x = -5.85, y = 65, z = -7.5 }
    for _ = 1, 3 do w:step() end
    assert.equal(65, c.y)
    assert.same({ "block", -6, 64, -8, w:block_id("stone") }, { c:ground() })
  end)

  it("ground velocity of a moving platform, in the rider's units", function()
    local w = H.world()
    local lift = w:spawn{ x = 0, y = 64, z = 0, width = 3, height = 0.5, solid = true,
                          rules = bp.rules.beta173{ gravity = 0 } }
    local beta = w:spawn{ x = -0.5, y = 64.5, z = 0 }
    local mc = w:spawn{ x = 0.8, y = 64.5, z = 0, rules = bp.rules.mccpp() }
    for _ = 1, 3 do w:step() end
    lift.vx = 0.25 -- blocks per tick (Beta rules): its friction slows it
    w:step(0.05)
    local moved = lift.x
    assert.is_true(moved > 0)
    assert.equal(lift, select(2, beta:ground()))
    assert.near(moved, beta.ground_vx, 1e-12) -- blocks per tick
    assert.near(moved / 0.05, mc.ground_vx, 1e-9) -- blocks per second
    assert.equal(0, beta.ground_vy)
    assert.has_error(function() beta.ground_vx = 1 end, "entity field 'ground_vx' is read-only")
  end)

  it("of a removed entity raise; teleport clears them", function()
    local w = H.world()
    H.flat(w, 63)
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    for _ = 1, 3 do w:step() end
    assert.equal(1, #e:contacts())
    e:teleport(0.5, 64, 0.5)
    assert.same({}, e:contacts())
    assert.is_nil(e:ground())
    w:remove(e)
    assert.has_error(function() e:contacts() end)
    assert.has_error(function() e:ground() end)
  end)
end)
