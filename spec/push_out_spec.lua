-- luacheck: std +busted
-- pushOutOfBlocks (docs/beta173.md section 0: EntityPlayerSP.onLivingUpdate
-- calls it four times, after the sneak dip; the body as in the decompile): a player
-- whose corner points, drawn in to 0.35 of its width from its centre at its feet +
-- 0.5, lie in a normal cube (or under one, the cell above) gets vx or vz of -+0.1F
-- toward the nearest open side. Opt-in: rules.push_out_of_blocks.
local bp = require "blockphys"
local H = require "helpers.world"

local PUSH = H.f32(0.1)
local PLAYER = bp.rules.beta173{ push_out_of_blocks = true }

-- An entity spawned in w at (x, y, z) above its floor, after two steps that land it.
local function landed(w, x, y, z, rules)
  local e = w:spawn{ x = x, y = y, z = z, rules = rules or PLAYER }
  w:step()
  w:step()
  assert.is_true(e.on_ground)
  return e
end

-- A stone floor (top at y = 1) and an entity on it at (x, 1, z), landed.
local function setup(x, z, rules)
  local w = H.world()
  w:define_block{ name = "glass", normal_cube = false }
  w:define_block{ name = "sand_low", boxes = { { 0, 0, 0, 1, 0.875, 1 } }, normal_cube = true }
  H.flat(w, 0)
  return w, landed(w, x, 1, z, rules)
end

-- The velocity the push leaves, read in a heading hook (it runs after the push,
-- before the move): no input, so the hook adds nothing.
local function pushed(w, e)
  local seen
  local r = e.rules
  r.heading = function(self) seen = { self.vx, self.vz } return 0, 0 end
  e.rules = r
  w:step()
  return seen[1], seen[2]
end

describe("pushOutOfBlocks (push_out_of_blocks = true)", function()
  it("pushes out of a block placed into the entity: the last point's side wins", function()
    local w, e = setup(0.5, 0.3)
    w:set_block(0, 1, 0, "stone")
    -- points (x, z): (0.29, 0.51) -> -X; (0.29, 0.09) -> -Z; (0.71, 0.09) -> -Z;
    -- (0.71, 0.51) -> +X (0.29 to +X beats 0.49 to +Z): vx = 0.1F, vz = -0.1F
    local vx, vz = pushed(w, e)
    assert.equal(PUSH, vx)
    assert.equal(-PUSH, vz)
  end)

  it("tests the cell above the point too (a block at head height)", function()
    local w, e = setup(0.45, 0.4)
    w:set_block(0, 2, 0, "stone")
    -- points (0.24, 0.61) -> -X; (0.24, 0.19) -> -Z; (0.66, 0.19) -> -Z (0.19 beats
    -- 0.34 to +X); (0.66, 0.61) -> +X (0.34 beats 0.39 to +Z)
    local vx, vz = pushed(w, e)
    assert.equal(PUSH, vx)
    assert.equal(-PUSH, vz)
  end)

  it("needs both cells of a side open, and does nothing when all sides are shut", function()
    local w, e = setup(0.5, 0.5)
    w:fill(-1, 1, -1, 1, 2, 1, "stone") -- the entity's cell and every side, both heights
    local vx, vz = pushed(w, e)
    assert.equal(0, vx)
    assert.equal(0, vz)
    -- open the +Z side at the lower cell only: still shut (the upper one is stone)
    w:set_block(0, 1, 1, 0)
    vx, vz = pushed(w, e)
    assert.equal(0, vx)
    assert.equal(0, vz)
    -- both cells open: every point goes +Z
    w:set_block(0, 2, 1, 0)
    vx, vz = pushed(w, e)
    assert.equal(0, vx)
    assert.equal(PUSH, vz)
  end)

  it("ignores blocks that are not normal cubes (glass, a slab); a lower normal cube counts", function()
    local w, e = setup(0.45, 0.4)
    w:set_block(0, 1, 0, "glass")
    local vx, vz = pushed(w, e)
    assert.equal(0, vx)
    assert.equal(0, vz)
    w:set_block(0, 1, 0, "slab")
    vx, vz = pushed(w, e)
    assert.equal(0, vx)
    assert.equal(0, vz)
    w:set_block(0, 1, 0, "sand_low")
    vx, vz = pushed(w, e)
    assert.equal(PUSH, vx)
    assert.equal(-PUSH, vz)
  end)

  it("is off by default (only Beta's local player has it) and per entity", function()
    assert.is_false(bp.rules.beta173().push_out_of_blocks)
    local w, e = setup(0.5, 0.3, bp.rules.beta173())
    w:set_block(0, 1, 0, "stone")
    local vx, vz = pushed(w, e)
    assert.equal(0, vx)
    assert.equal(0, vz)
  end)

  it("walks the entity out of the block over a few ticks", function()
    local w, e = setup(0.5, 0.5)
    w:set_block(0, 1, 0, "stone")
    assert.equal(1, #w:boxes_in(e:box()))
    for _ = 1, 30 do w:step() end
    assert.equal(0, #w:boxes_in(e:box()), "the entity still overlaps the block")
    assert.equal(1, e.y)
  end)

  it("takes its constants from the rules", function()
    local w, e = setup(0.5, 0.3, bp.rules.beta173{ push_out_of_blocks = true, push_out_speed = 0.5 })
    w:set_block(0, 1, 0, "stone")
    local vx, vz = pushed(w, e)
    assert.equal(0.5, vx)
    assert.equal(-0.5, vz)
    assert.equal(0.35, PLAYER.push_out_reach)
    assert.equal(0.5, PLAYER.push_out_height)
    assert.equal(PUSH, PLAYER.push_out_speed)
    assert.has_error(function() bp.rules.mccpp{ push_out_of_blocks = true } end,
      "bp.rules.mccpp: rule 'push_out_of_blocks' belongs to model beta173, not mccpp")
    assert.has_error(function() bp.rules.beta173{ push_out_of_blocks = 1 } end,
      "bp.rules.beta173: rule 'push_out_of_blocks' must be a boolean")
    assert.has_error(function() bp.rules.beta173{ push_out_reach = 17 } end,
      "bp.rules.beta173: rule 'push_out_reach' must be a number in [-16, 16]")
    assert.has_error(function() e.rules.push_out_height = 65 end,
      "entity.rules: rule 'push_out_height' must be a number in [-64, 64]")
    assert.equal(0.5, e.rules.push_out_height) -- unchanged
  end)

  -- Beta rules with the push on, at reach r (0: the four points coincide).
  local function reach(r)
    return bp.rules.beta173{ push_out_of_blocks = true, push_out_reach = r }
  end

  it("keeps the first side on a tie (-X), and pushes toward -X", function()
    -- the point (0.5, 0.5): every side 0.5 away and open
    local w, e = setup(0.5, 0.5, reach(0))
    w:set_block(0, 1, 0, "stone")
    local vx, vz = pushed(w, e)
    assert.equal(-PUSH, vx)
    assert.equal(0, vz)
  end)

  it("compares each side with the nearest so far, on X and on Z", function()
    -- X open, Z shut: the point 0.2 from -X goes -X, not to the later +X
    local w, e = setup(0.2, 0.5, reach(0))
    w:set_block(0, 1, 0, "stone")
    w:set_block(0, 1, -1, "stone")
    w:set_block(0, 1, 1, "stone")
    local vx, vz = pushed(w, e)
    assert.equal(-PUSH, vx)
    assert.equal(0, vz)
    -- Z open, X shut: 0.2 from -Z goes -Z, not to the later +Z (0.8 > 0.2)
    local w2, e2 = setup(0.5, 0.2, reach(0))
    w2:set_block(0, 1, 0, "stone")
    w2:set_block(-1, 1, 0, "stone")
    w2:set_block(1, 1, 0, "stone")
    vx, vz = pushed(w2, e2)
    assert.equal(0, vx)
    assert.equal(-PUSH, vz)
  end)

  it("floors the point's cell below zero and measures z within its own cell", function()
    -- the point (-2.5, -9.5, 3.3): cell (-3, -10, 3), 0.5 from -X, 0.3 from -Z: -Z
    local w = H.world()
    w:fill(-6, -11, 0, 0, -11, 6, "stone")
    local e = landed(w, -2.5, -10, 3.3, reach(0))
    w:set_block(-3, -10, 3, "stone")
    local vx, vz = pushed(w, e)
    assert.equal(0, vx)
    assert.equal(-PUSH, vz)
  end)

  it("tests the points at push_out_height above the box's bottom (standing on a slab)", function()
    -- feet at y = 0.5: the points are at y = 1.0, cells 1 and 2; a block at head height
    -- (0, 2, 0) pushes, as in the first test of this file
    local w = H.world()
    w:define_block{ name = "low_slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
    w:fill(-3, 0, -3, 3, 0, 3, "low_slab")
    local e = landed(w, 0.5, 0.5, 0.3, reach(0.35))
    w:set_block(0, 2, 0, "stone")
    local vx, vz = pushed(w, e)
    assert.equal(PUSH, vx)
    assert.equal(-PUSH, vz)
  end)

  it("takes a negative reach as the points in the other order", function()
    -- reach -0.35: points (0.71, 0.09) -Z, (0.71, 0.51) +X, (0.29, 0.51) -X,
    -- (0.29, 0.09) -Z: the last X point is -X
    local w, e = setup(0.5, 0.3, reach(-0.35))
    w:set_block(0, 1, 0, "stone")
    local vx, vz = pushed(w, e)
    assert.equal(-PUSH, vx)
    assert.equal(-PUSH, vz)
    -- at x = 0.1 the points' X cells differ (-1 and 0): the cells tested are still
    -- those of x -+ |d|. Points (0.31, 0.51) -X, (0.31, 0.09) -Z; x = -0.11 is open
    local w2, e2 = setup(0.1, 0.3, reach(-0.35))
    w2:set_block(0, 1, 0, "stone")
    vx, vz = pushed(w2, e2)
    assert.equal(-PUSH, vx)
    assert.equal(-PUSH, vz)
  end)

  it("works near the edge of the int32 grid (x = 2.1e9)", function()
    local X = 2100000000
    local w = H.world()
    w:fill(X - 2, 0, -2, X + 2, 0, 2, "stone")
    local e = landed(w, X + 0.5, 1, 0.3, reach(0.35))
    w:set_block(X, 1, 0, "stone")
    -- as at the origin (the first test of this file): vx = 0.1F, vz = -0.1F
    local vx, vz = pushed(w, e)
    assert.equal(PUSH, vx)
    assert.equal(-PUSH, vz)
  end)

  it("tests a side at the point's height and one above, not higher", function()
    -- the point (0.3, 0.5): -X is nearest, but its lower cell (-1, 1, 0) is stone, so
    -- -X is shut; +X (0.7) loses to -Z (0.5), which +Z (0.5) does not beat: -Z
    local w, e = setup(0.3, 0.5, reach(0))
    w:set_block(0, 1, 0, "stone")
    w:set_block(-1, 1, 0, "stone")
    local vx, vz = pushed(w, e)
    assert.equal(0, vx)
    assert.equal(-PUSH, vz)
    -- two above the point's cell is not tested: stone there leaves -X open
    w, e = setup(0.3, 0.5, reach(0))
    w:set_block(0, 1, 0, "stone")
    w:set_block(-1, 3, 0, "stone")
    vx, vz = pushed(w, e)
    assert.equal(-PUSH, vx)
    assert.equal(0, vz)
  end)
end)

describe("define_block normal_cube", function()
  it("defaults to the unit cube of a solid block, and block_info reports it", function()
    local w = H.world()
    assert.is_true(w:block_info("stone").normal_cube)
    assert.is_false(w:block_info("slab").normal_cube)
    assert.is_false(w:block_info("water").normal_cube)
    w:define_block{ name = "soft", solid = false }
    assert.is_false(w:block_info("soft").normal_cube)
    w:define_block{ name = "pane", normal_cube = false }
    assert.is_false(w:block_info("pane").normal_cube)
  end)

  it("raises for a value that is not a boolean", function()
    local w = bp.World()
    assert.has_error(function() w:define_block{ name = "a", normal_cube = 1 } end,
      "define_block: field 'normal_cube' must be a boolean")
    assert.is_nil(w:block_id("a"))
  end)

  it("bp.minecraft marks glass, leaves and ice as not normal, soul sand as normal", function()
    local m = bp.minecraft
    assert.is_false(m.block_def("minecraft:glass").normal_cube)
    assert.is_false(m.block_def("minecraft:lime_stained_glass").normal_cube)
    assert.is_false(m.block_def("minecraft:oak_leaves[distance=2]").normal_cube)
    assert.is_false(m.block_def("minecraft:ice").normal_cube)
    assert.is_true(m.block_def("minecraft:soul_sand").normal_cube)
    assert.is_nil(m.block_def("minecraft:stone").normal_cube)
    assert.is_false(m.block_def("minecraft:tnt").normal_cube)
    assert.is_false(m.block_def("minecraft:piston[extended=false,facing=up]").normal_cube)
    assert.is_nil(m.block_def("minecraft:glowstone").normal_cube) -- Beta's is rock
    -- Beta: farmland and an extended piston collide as whole cubes but are not
    -- rendered as one; a chest is a normal cube
    local w = bp.World()
    local function normal(state)
      return w:block_info(w:block_id(m.beta173.block_def(state).name)
        or w:define_block(m.beta173.block_def(state))).normal_cube
    end
    assert.is_false(normal("minecraft:farmland[moisture=7]"))
    assert.is_false(normal("minecraft:piston[extended=true,facing=up]"))
    assert.is_true(normal("minecraft:chest[facing=north]"))
    assert.is_true(normal("minecraft:glowstone"))
    assert.same({ { 0, 0, 0, 1, 1, 1 } },
      m.beta173.block_def("minecraft:sticky_piston[extended=true,facing=east]").boxes)
  end)
end)
