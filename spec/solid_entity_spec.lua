-- luacheck: std +busted
-- Solid entities (boats, minecarts): their boxes block other entities' moves.
local bp = require "blockphys"
local H = require "helpers.world"

local STILL = bp.rules.beta173{ push = false }

local function world() return (H.stone_floor(8)) end

describe("solid entities", function()
  it("are a floor: an entity falls onto one and stands on it", function()
    local w = world()
    local raft = w:spawn{ x = 0.5, y = 64, z = 0.5, width = 2, height = 0.5, solid = true,
                          rules = STILL }
    local e = w:spawn{ x = 0.5, y = 67, z = 0.5, rules = STILL }
    for _ = 1, 40 do w:step() end
    assert.equal(64.5, e.y)
    assert.is_true(e.on_ground)
    assert.equal(64, raft.y) -- the raft rests on the stone, not pushed into it
    for _ = 1, 5 do w:step() end
    assert.equal(64.5, e.y)
  end)

  it("are a wall for the per-axis resolver", function()
    local w = world()
    w:spawn{ x = 2.5, y = 64, z = 0.5, width = 1, height = 1, solid = true, rules = STILL }
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = STILL }
    local dx, dy, dz = e:move(3, 0, 0)
    -- e's max x (0.5 + 0.3F) stops at the wall's min x (2)
    local _, _, _, x2 = e:box():unpack()
    assert.equal(2, x2)
    assert.is_near(1.2, dx, 1e-7)
    assert.equal(0, dy)
    assert.equal(0, dz)
    assert.is_true(e.collided_horizontally)
  end)

  it("never block themselves", function()
    local w = world()
    local s = w:spawn{ x = 0.5, y = 64, z = 0.5, solid = true, rules = STILL }
    assert.equal(3, (s:move(3, 0, 0)))
    assert.is_false(s.collided_horizontally)
  end)

  it("are blocked by every entity they interact with (Beta's boat rule)", function()
    local w = world()
    local boat = w:spawn{ x = 0.5, y = 64, z = 0.5, width = 1, height = 0.6, solid = true,
                          rules = STILL }
    w:spawn{ x = 3, y = 64, z = 0.5, width = 1, rules = STILL } -- not solid
    local dx = boat:move(3, 0, 0)
    assert.equal(1.5, dx) -- from max x 1 to the other's min x 2.5
  end)

  it("block only entities whose group and mask match", function()
    local w = world()
    local wall = w:spawn{ x = 2.5, y = 64, z = 0.5, width = 1, solid = true, group = 2,
                          rules = STILL }
    local ghost = w:spawn{ x = 0.5, y = 64, z = 0.5, mask = 1, rules = STILL }
    assert.equal(3, (ghost:move(3, 0, 0)))
    wall.group = 1
    ghost:teleport(0.5, 64, 0.5)
    assert.is_true(ghost:move(3, 0, 0) < 2)
  end)

  it("stop blocking when removed or made non-solid", function()
    local w = world()
    local wall = w:spawn{ x = 2.5, y = 64, z = 0.5, width = 1, solid = true, rules = STILL }
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = STILL }
    assert.is_true(e:move(3, 0, 0) < 2)
    wall.solid = false
    assert.equal(3, (e:move(3, 0, 0)))
    wall.solid = true
    e:teleport(0.5, 64, 0.5)
    assert.is_true(e:move(3, 0, 0) < 2)
    w:remove(wall)
    assert.equal(3, (e:move(3, 0, 0)))
  end)

  it("follow the solid as it moves (the broadphase is kept current)", function()
    local w = world()
    local wall = w:spawn{ x = 2.5, y = 64, z = 0.5, width = 1, solid = true, rules = STILL }
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = STILL }
    wall:teleport(6.5, 64, 0.5)
    local dx = e:move(7, 0, 0)
    assert.is_near(5.2, dx, 1e-7)
    -- e now touches the wall: the wall cannot move back through it (boat rule)
    assert.equal(0, (wall:move(-4, 0, 0)))
    assert.equal(6, (wall:box():unpack()))
  end)
end)
