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

  -- bp_collect_blocking (solid.c): with a solid entity in the world, a move gathers the
  -- block boxes of its region, then adds the solid entities' boxes. The three cases:

  -- A region of more than 64 cells (here 6 x 12 x 6) is not gathered into a list: the
  -- gather says so (n < 0) and each axis pass clips against the world itself. The
  -- solid entity (box 3.2 .. 3.8 x 66 .. 67.8) lies in the region but in no pass's slab;
  -- only the floor (top 64) stops the fall from 70: exactly 6 down, 5 and 5 across.
  it("leave a long move to the per-axis gathers, which still see the blocks", function()
    local w = world()
    w:spawn{ x = 3.5, y = 66, z = 3.5, solid = true, rules = STILL }
    local e = w:spawn{ x = 0.5, y = 70, z = 0.5, rules = STILL }
    assert.same({ 5, -6, 5 }, { e:move(5, -10, 5) })
    assert.equal(64, e.y)
    assert.is_true(e.on_ground)
  end)

  -- A short region holding block boxes (the floor row under a move with dy < 0) and a
  -- solid entity: both go into the list. The floor holds y (64 - 0.1 is clipped to 0)
  -- and the solid's min x 2 stops e's max x 0.5 + 0.3F: dx = 2 - (0.5 + 0.3F) exactly.
  it("are gathered with the block boxes of the move's region", function()
    local w = world()
    w:spawn{ x = 2.5, y = 64, z = 0.5, width = 1, height = 1, solid = true, rules = STILL }
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = STILL }
    local dx, dy, dz = e:move(1.5, -0.1, 0)
    assert.equal(2 - (0.5 + H.F.half_width), dx)
    assert.equal(0, dy)
    assert.equal(0, dz)
    assert.equal(2, e:box().x2)
    assert.is_true(e.collided_horizontally)
    assert.is_true(e.on_ground)
  end)

  -- The move's list holds 96 boxes. Two cells of a block with 48 boxes (all the full
  -- cube) fill it exactly; the solid entity is the 97th box, so the gather gives up
  -- (n < 0) and each pass clips against the world and the solid itself. Giving up must
  -- not read as "no boxes": the floor holds y, the solid stops x at 2 (dx = 2 - (1 + 0.3F)).
  it("make the move gather per axis when they overflow the move's list", function()
    local w = bp.World()
    local boxes = {}
    for i = 1, 48 do boxes[i] = { 0, 0, 0, 1, 1, 1 } end
    w:define_block{ name = "thick", boxes = boxes }
    w:fill(0, 63, 0, 1, 63, 0, "thick") -- cells x 0 and 1 under e (box x 0.7 .. 1.3)
    -- the solid stands over air at x = 2 (no step runs, so it stays)
    w:spawn{ x = 2.5, y = 64, z = 0.5, width = 1, height = 1, solid = true, rules = STILL }
    local e = w:spawn{ x = 1, y = 64, z = 0.5, rules = STILL }
    -- the region x 0.7 .. 2.3, y 63.5 .. 65.8, z 0.2 .. 0.8: 9 cells, 96 block boxes
    assert.equal(96, #w:boxes_in(bp.Collider(0.7, 63.5, 0.2, 2.3, 65.8, 0.8)))
    local dx, dy, dz = e:move(1, -0.5, 0)
    assert.equal(2 - (1 + H.F.half_width), dx)
    assert.equal(0, dy)
    assert.equal(0, dz)
    assert.equal(2, e:box().x2)
    assert.equal(64, e.y)
  end)

  it("considers the 24 oldest entities near a move in a pile: O(n) per step, not O(n^2)", function()
    -- 200 solid entities on one spot: a mover walking into the pile asks its filter
    -- about the first 24 of them only (it asked about all, 297 times over its queries),
    -- and those still stop it at the pile's face: 0.5 + 0.3 + 0.3
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:fill(-8, -1, -8, 8, -1, 8, "stone")
    local pile = {}
    for i = 1, 200 do pile[i] = w:spawn{ x = 0.5, y = 0, z = 0.5, solid = true } end
    local asked = {}
    local e = w:spawn{ x = 2.5, y = 0, z = 0.5, filter = function(_, other)
      asked[#asked + 1] = other
      return true
    end }
    e:move(-1.5, 0, 0)
    assert.equal(24, #asked)
    local oldest = {}
    for i = 1, 24 do oldest[pile[i]] = true end
    for _, o in ipairs(asked) do assert.is_true(oldest[o]) end
    assert.near(1.1, e.x, 1e-6)
  end)
end)
