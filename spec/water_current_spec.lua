-- luacheck: std +busted
-- The water current of the Beta 1.7.3 tick (docs/beta173.md section 5:
-- the flow vectors of the water blocks in the water test range, summed, normalised,
-- x 0.014 added to the velocity before the jump and the move; the decompile's
-- BlockFluid.getFlowVector for each block). The expected numbers repeat the game's
-- operations in its order, in double, with the normalisations' float lengths: exact.
local bp = require "blockphys"
local H = require "helpers.world"
local F = H.f32

local PUSH = 0.014
local DRAG = F(0.8) -- water_drag 0.8F

-- A world with stone, ice (Beta's ice material) and water of every level.
local function world()
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:define_block{ name = "ice", slipperiness = F(0.98), ice = true }
  for level = 0, 15 do
    w:define_block{ name = "water" .. level, liquid = "water", level = level }
  end
  w:define_block{ name = "lava", liquid = "lava" }
  return w
end

-- A channel along +X at y = 1, one cell wide (z = 0), walled in stone on both sides
-- and floored at y = 0: cell x holds water of level levels[x + 1].
local function channel(levels)
  local w = world()
  local n = #levels
  w:fill(-2, 0, -2, n + 2, 0, 2, "stone")
  w:fill(-2, 1, -1, n + 2, 3, -1, "stone")
  w:fill(-2, 1, 1, n + 2, 3, 1, "stone")
  w:set_block(-1, 1, 0, "stone")
  for x = 0, n - 1 do w:set_block(x, 1, 0, "water" .. levels[x + 1]) end
  return w
end

-- Still water at y = 2 along x = 0..3 over a stone floor, walled on both sides and at
-- x = -1; beside its end, x = 4 is left open (air, and stone below it at y = 1).
local function pool_end()
  local w = world()
  w:fill(-2, 0, -2, 8, 1, 2, "stone")
  w:fill(-2, 2, -1, 8, 4, -1, "stone")
  w:fill(-2, 2, 1, 8, 4, 1, "stone")
  w:set_block(-1, 2, 0, "stone")
  w:fill(0, 2, 0, 3, 2, 0, "water0")
  return w
end

-- A column of falling water at (0, y, 0), y = 3..8, walled on -X by `wall` (also
-- "slab", a solid bottom slab, or "solid_water", water defined solid), open elsewhere;
-- the entity in it after one step from y = 5.
local function falling_column(wall)
  local w = world()
  w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  w:define_block{ name = "solid_water", liquid = "water", solid = true }
  w:fill(-3, 0, -3, 3, 0, 3, "stone")
  w:fill(-1, 3, 0, -1, 8, 0, wall)
  w:fill(0, 3, 0, 0, 8, 0, "water8")
  local e = w:spawn{ x = 0.5, y = 5, z = 0.5 }
  w:step()
  return e
end

-- The entity of falling_column after its step: pulled down along (0, -1, 0) by the
-- current (no horizontal flow in either case), or only sinking.
local function assert_pulled(e, pulled)
  assert.equal(pulled and 5 - PUSH or 5, e.y)
  assert.equal(pulled and -PUSH * DRAG - 0.02 or -0.02, e.vy)
  assert.equal(0, e.vx)
end

describe("the water current (Beta flow)", function()
  it("pushes 0.014 b/t down a channel whose level rises along it, before the move", function()
    local w = channel({ 0, 1, 2, 3, 4, 5, 6, 7 })
    local e = w:spawn{ x = 3.5, y = 1, z = 0.5 }
    w:step()
    assert.is_true(e.in_water)
    -- cell 3 (level 3): level 2 behind, 4 ahead: (2, 0, 0), normalised (1, 0, 0)
    assert.equal(3.5 + PUSH, e.x)
    assert.equal(PUSH * DRAG, e.vx)
    assert.equal(0, e.vz)
    assert.equal(-0.02, e.vy) -- on the floor: water gravity only
  end)

  it("drifts toward v = (v + 0.014) x 0.8F, tick by tick", function()
    local w = channel({ 0, 1, 2, 3, 4, 5, 6, 7 })
    local e = w:spawn{ x = 1.5, y = 1, z = 0.5 }
    local x, v = 1.5, 0
    for _ = 1, 20 do
      w:step()
      v = v + PUSH
      x = x + v
      v = v * DRAG
      assert.near(x, e.x, 1e-12)
      assert.equal(v, e.vx)
    end
    -- e.vx settles at 0.014 x 0.8F / (1 - 0.8F) = 0.056; each tick moves it
    -- e.vx + 0.014 = 0.07 blocks (1.4 m/s)
    assert.near(0.056, e.vx, 0.001)
  end)

  it("flows toward a neighbour that is neither water nor solid, over water below it", function()
    -- still water at y = 2 over a stone floor, ending at x = 3; beside it at x = 4
    -- air over water: the current runs to the edge, k = 0 - (0 - 8) = 8
    local w = pool_end()
    w:set_block(4, 1, 0, "water0")
    local e = w:spawn{ x = 3.5, y = 2, z = 0.5 }
    w:step()
    assert.equal(PUSH * DRAG, e.vx)
    -- a solid block there instead, and the same water is still
    w:set_block(4, 2, 0, "stone")
    local still = w:spawn{ x = 3.5, y = 2, z = 0.5, solid = false }
    w:remove(e)
    w:step()
    assert.equal(0, still.vx)
    assert.is_true(still.in_water)
  end)

  it("flows past lava (not solid) but not into it: the water below decides", function()
    local w = pool_end()
    w:set_block(4, 2, 0, "lava")
    local e = w:spawn{ x = 2.5, y = 2, z = 0.5 } -- cell 2: water on both sides
    w:step()
    assert.equal(0, e.vx)
    w:set_block(4, 1, 0, "water0")
    local e2 = w:spawn{ x = 3.5, y = 2, z = 0.5 }
    w:step()
    assert.equal(PUSH * DRAG, e2.vx)
  end)

  it("normalises each block's flow before the sum: two cells, two directions, 45°", function()
    -- the box spans cells (0, 2, 0) and (0, 2, 1): the first flows +X with k = 8 (an
    -- edge), the second +Z with k = 1 (a level-1 neighbour); summed raw that would be
    -- (8, 0, 1), normalised first it is (1, 0, 1)
    local w = world()
    w:fill(-2, 0, -2, 4, 1, 4, "stone")
    w:fill(-1, 2, -1, 1, 4, 3, "stone")
    w:set_block(0, 2, 0, "water0")
    w:set_block(0, 2, 1, "water0")
    w:set_block(0, 2, 2, "water1")
    w:set_block(1, 2, 0, 0)         -- air beside cell (0, 2, 0) ...
    w:set_block(1, 1, 0, "water0")  -- ... over water
    local e = w:spawn{ x = 0.5, y = 2, z = 1.0 }
    w:step()
    local d = F(math.sqrt(2)) -- MathHelper.sqrt_double: a float length
    local push = 1 / d * PUSH
    assert.equal(push * DRAG, e.vx)
    assert.equal(push * DRAG, e.vz)
    assert.near(0.5 + push, e.x, 1e-15)
  end)

  it("cancels when the cells' currents are opposite (the sum is zero)", function()
    -- cell -1 flows -X (level 2 beyond it), cell 0 flows +X (level 2 beyond it)
    local w = channel({ 1, 2 }) -- cells 0, 1
    w:set_block(-1, 1, 0, "water1")
    w:set_block(-2, 1, 0, "water2")
    local e = w:spawn{ x = 0.0, y = 1, z = 0.5 } -- spans cells -1 and 0
    w:step()
    assert.is_true(e.in_water)
    assert.equal(0, e.vx)
  end)

  it("pulls falling water (level 8+) down beside a solid block, not beside ice", function()
    -- horizontal flow (0, 0, 0), normalised stays 0; + (0, -6, 0): (0, -1, 0)
    assert_pulled(falling_column("stone"), true)
    -- ice is no side for the pull (Beta's BlockFluid.getIsBlockSolid)
    assert_pulled(falling_column("ice"), false)
  end)

  it("treats falling water as level 0 for its neighbours", function()
    -- cell 0 (level 1) beside falling water (level 8, counted 0): k = 0 - 1 = -1
    -- toward -X, so the current runs toward the falling water's cell... +X
    local w = channel({ 1, 2 })
    w:set_block(-1, 1, 0, "water8")
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    w:step()
    -- cell 0: (-1)(0 - 1) + (+1)(2 - 1) = 2 on X: (1, 0, 0)
    assert.equal(PUSH * DRAG, e.vx)
  end)

  it("is the rule water_current, per entity; 0 turns it off", function()
    local w = channel({ 0, 1, 2, 3, 4, 5, 6, 7 })
    local a = w:spawn{ x = 3.5, y = 1, z = 0.5, rules = bp.rules.beta173{ water_current = 0 } }
    local b = w:spawn{ x = 5.5, y = 1, z = 0.5, rules = bp.rules.beta173{ water_current = 0.1 } }
    assert.equal(0.014, bp.rules.beta173().water_current)
    w:step()
    assert.equal(0, a.vx)
    assert.equal(0.1 * DRAG, b.vx)
  end)

  it("is not part of the MC-CPP rules, and the resolver does not matter", function()
    local w = channel({ 0, 1, 2, 3, 4, 5, 6, 7 })
    local m = w:spawn{ x = 3.5, y = 1, z = 0.5, rules = bp.rules.mccpp() }
    local s = w:spawn{ x = 5.5, y = 1, z = 0.5, rules = bp.rules.beta173{ resolver = "swept" } }
    w:step()
    assert.equal(0, m.vx)
    assert.equal(PUSH * DRAG, s.vx)
    assert.has_error(function() bp.rules.mccpp{ water_current = 1 } end,
      "bp.rules.mccpp: rule 'water_current' belongs to model beta173, not mccpp")
    assert.has_error(function() s.rules.water_current = 0 / 0 end,
      "entity.rules: rule 'water_current' must be a number in [-1000000, 1000000]")
    assert.equal(0.014, s.rules.water_current) -- unchanged
  end)

  it("leaves still water still: a walled pool has no current", function()
    local w = world()
    w:fill(-4, 0, -4, 4, 4, 4, "stone")
    w:fill(-3, 1, -3, 3, 3, 3, "water0")
    local e = w:spawn{ x = 0.3, y = 1.5, z = -0.2 }
    for _ = 1, 10 do w:step() end
    assert.equal(0, e.vx)
    assert.equal(0, e.vz)
  end)

  it("pulls falling water down beside a solid block one above it, after normalising", function()
    -- falling water (level 8, decay 0) at (0, 5, 0); +X is air over still water, so
    -- k = 0 - (0 - 8) = 8 and the flow is (8, 0, 0). The only solid side is at (0, 6, -1),
    -- one block above (the game's second four getIsBlockSolid tests). The flow is
    -- normalised, (0, -6, 0) added, and normalised again: (1, -6, 0) / |(1, -6, 0)|.
    local w = world()
    w:set_block(0, 5, 0, "water8")
    w:set_block(1, 4, 0, "water0")
    w:set_block(0, 6, -1, "stone")
    -- box y 4.6 .. 6.4: the water test range is the cell y = 5 only
    local e = w:spawn{ x = 0.5, y = 4.6, z = 0.5 }
    w:step()
    assert.is_true(e.in_water)
    local d1 = F(math.sqrt(1 * 1 + (-6) * (-6) + 0 * 0))
    local x, y = 1 / d1, -6 / d1                             -- the block's flow vector
    local d2 = F(math.sqrt(x * x + y * y + 0 * 0))           -- the sum's normalisation
    assert.equal(x / d2 * PUSH * DRAG, e.vx)
    assert.equal(y / d2 * PUSH * DRAG - 0.02, e.vy)
    assert.equal(0, e.vz)
  end)

  it("weighs an edge (k = level below - (level - 8)) against a level difference", function()
    -- still water at (0, 2, 0): +X is air over water (k = 0 - (0 - 8) = 8), +Z water of
    -- level 1 (k = 1 - 0 = 1), -X and -Z stone: the flow is (8, 0, 1) before normalising
    local w = world()
    w:fill(-2, 0, -2, 3, 4, 3, "stone")
    w:set_block(0, 2, 0, "water0")
    w:set_block(0, 3, 0, 0)
    w:set_block(1, 2, 0, 0)
    w:set_block(1, 1, 0, "water0")
    w:set_block(0, 2, 1, "water1")
    local e = w:spawn{ x = 0.5, y = 2, z = 0.5 }
    w:step()
    local d = F(math.sqrt(8 * 8 + 0 * 0 + 1 * 1))
    local x, z = 8 / d, 1 / d
    local d2 = F(math.sqrt(x * x + 0 * 0 + z * z))
    assert.equal(x / d2 * PUSH * DRAG, e.vx)
    assert.equal(z / d2 * PUSH * DRAG, e.vz)
  end)

  it("sums the upper cell of the water test range too (water at head height only)", function()
    -- the entity stands at y = 1 in a one-cell pocket: (0, 1, 0) air, (0, 2, 0) water of
    -- level 1 with water of level 2 on +X, so (1, 0, 0); the test range is y = 1 .. 2
    local w = world()
    w:fill(-2, 0, -2, 4, 3, 2, "stone")
    w:set_block(0, 1, 0, 0)
    w:set_block(0, 2, 0, "water1")
    w:set_block(1, 2, 0, "water2")
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    w:step()
    assert.is_true(e.in_water)
    assert.equal(PUSH * DRAG, e.vx)
  end)

  it("sums only water: lava in the test range adds no flow of its own", function()
    -- walled still water at (0, 1, 0) (flow 0) under lava at (0, 2, 0) that has still
    -- water on its +X side; only the water's (zero) flow counts: no current
    local w = world()
    w:fill(-2, 0, -2, 3, 3, 2, "stone")
    w:set_block(0, 1, 0, "water0")
    w:set_block(0, 2, 0, "lava")
    w:set_block(1, 2, 0, "water0")
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    w:step()
    assert.is_true(e.in_water)
    assert.equal(0, e.vx)
    assert.equal(0, e.vz)
  end)

  it("takes the flow from the water test's cells, not from the whole box", function()
    -- box y 1.7 .. 3.5 (cells 1 .. 3); the test box 2.101 .. 3.099 (cells 2 .. 3).
    -- (0, 1, 0) flows +X (level 1, level 2 beyond) but lies outside the test range;
    -- (0, 2, 0) is walled still water: the current is zero
    local w = world()
    w:fill(-2, 0, -2, 3, 4, 2, "stone")
    w:set_block(0, 1, 0, "water1")
    w:set_block(1, 1, 0, "water2")
    w:set_block(0, 2, 0, "water0")
    w:set_block(0, 3, 0, 0)
    local e = w:spawn{ x = 0.5, y = 1.7, z = 0.5 }
    w:step()
    assert.is_true(e.in_water)
    assert.equal(0, e.vx)
  end)

  it("counts a solid non-cube (a slab) as a side for falling water, solid water never", function()
    -- getIsBlockSolid is the material's isSolid: a slab is solid but no normal cube.
    -- Water defined solid = true is still water: never a side (and, level 0 beside
    -- falling water's decay 0, k = 0: no horizontal flow either)
    assert_pulled(falling_column("slab"), true)
    assert_pulled(falling_column("solid_water"), false)
  end)

  it("sums the cells' unit flows x, then y, then z, and normalises a small sum", function()
    -- the test range is x = 0 .. 1, y = 1 .. 2, z = 0. Flows (levels: still water 0
    -- everywhere in range; water of level 4 at x = -1, of level 7 on +Z of A and -Z of B,
    -- of level 1 at x = 2 beside C):
    --   A (0, 1, 0): (-4, 0, 7)   B (0, 2, 0): (-4, 0, -7)
    --   C (1, 1, 0): (1, 0, 0)    D (1, 2, 0): (0, 0, 0)
    -- each normalised, summed in the game's order (A, B, C, D): a sum of length 0.0077
    -- (above Vec3D.normalize's 1e-4), normalised to just above 1 by the float length
    local w = world()
    w:fill(-3, 0, -3, 4, 4, 3, "stone")
    w:fill(0, 1, 0, 1, 2, 0, "water0")
    w:fill(-1, 1, 0, -1, 2, 0, "water4")
    w:set_block(0, 1, 1, "water7")
    w:set_block(0, 2, -1, "water7")
    w:set_block(2, 1, 0, "water1")
    local e = w:spawn{ x = 1.0, y = 1, z = 0.5 }
    w:step()
    assert.is_true(e.in_water)
    local d = F(math.sqrt(4 * 4 + 0 * 0 + 7 * 7))
    local sx = 0 + -4 / d + -4 / d + 1 + 0 -- A, B, C, D
    local sz = 0 + 7 / d + -7 / d + 0 + 0
    local n = F(math.sqrt(sx * sx + 0 * 0 + sz * sz))
    assert.equal(sx / n * PUSH * DRAG, e.vx)
    assert.equal(0, e.vz)
  end)

  it("takes a negative water_current as a push against the flow", function()
    -- cell 3 of the rising channel flows (1, 0, 0); water_current = -0.1 adds -0.1
    local w = channel({ 0, 1, 2, 3, 4, 5, 6, 7 })
    local e = w:spawn{ x = 3.5, y = 1, z = 0.5, rules = bp.rules.beta173{ water_current = -0.1 } }
    w:step()
    assert.equal(-0.1 * DRAG, e.vx)
    assert.equal(0, e.vz)
  end)

  it("divides by the length (Vec3D.normalize), a 3-4-5 flow to the last bit", function()
    -- still water at (0, 2, 0): +X water of level 3 (k = 3), +Z water of level 4 (k = 4),
    -- -X and -Z stone: (3, 0, 4), length 5; 3 / 5 is not 3 x (1 / 5) in double
    local w = world()
    w:fill(-2, 0, -2, 3, 4, 3, "stone")
    w:set_block(0, 2, 0, "water0")
    w:set_block(0, 3, 0, 0)
    w:set_block(1, 2, 0, "water3")
    w:set_block(0, 2, 1, "water4")
    local e = w:spawn{ x = 0.5, y = 2, z = 0.5 }
    w:step()
    local x, z = 3 / 5, 4 / 5
    local d = F(math.sqrt(x * x + 0 * 0 + z * z))
    assert.equal(x / d * PUSH * DRAG, e.vx)
    assert.equal(z / d * PUSH * DRAG, e.vz)
  end)
end)

describe("define_block level, solid and ice", function()
  it("keeps them and block_info reports them", function()
    local w = world()
    local info = w:block_info("water9")
    assert.equal(9, info.level)
    assert.is_false(info.solid)
    assert.is_false(info.ice)
    assert.is_true(w:block_info("ice").ice)
    assert.is_true(w:block_info("ice").solid)
    assert.equal(0, w:block_info("stone").level)
  end)

  it("derives solid from the boxes unless given: a box and not a liquid", function()
    local w = bp.World()
    w:define_block{ name = "plant", boxes = {} }
    w:define_block{ name = "ladder", boxes = { { 0, 0, 0.875, 1, 1, 1 } }, solid = false }
    w:define_block{ name = "sign", boxes = {}, solid = true }
    w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
    w:define_block{ name = "jelly", liquid = "water", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
    assert.is_false(w:block_info("plant").solid)
    assert.is_false(w:block_info("ladder").solid)
    assert.is_true(w:block_info("sign").solid)
    assert.is_true(w:block_info("slab").solid)
    assert.is_false(w:block_info("jelly").solid)
  end)

  it("a non-solid block beside flowing water lets the current through (a ladder)", function()
    local w = pool_end()
    w:define_block{ name = "ladder", boxes = { { 0, 0, 0.875, 1, 1, 1 } }, solid = false,
                    climbable = true }
    w:set_block(4, 2, 0, "ladder")
    w:set_block(4, 1, 0, "water0")
    local e = w:spawn{ x = 3.5, y = 2, z = 0.5 }
    w:step()
    assert.equal(PUSH * DRAG, e.vx)
  end)

  it("raises for bad values and defines nothing", function()
    local w = bp.World()
    local n = w:stats().block_types
    local cases = {
      { { name = "a", liquid = "water", level = 16 }, "define_block: level must be an integer in [0, 15]" },
      { { name = "a", liquid = "water", level = -1 }, "define_block: level must be an integer in [0, 15]" },
      { { name = "a", liquid = "water", level = 1.5 }, "define_block: field 'level' must be an integer" },
      { { name = "a", liquid = "water", level = "x" }, "define_block: field 'level' must be an integer" },
      { { name = "a", liquid = "water", level = "1" }, "define_block: field 'level' must be an integer" },
      { { name = "a", liquid = "water", level = 0 / 0 }, "define_block: field 'level' must be an integer" },
      { { name = "a", level = 3 }, "define_block: level needs liquid = \"water\" or \"lava\"" },
      { { name = "a", solid = 1 }, "define_block: field 'solid' must be a boolean" },
      { { name = "a", ice = "yes" }, "define_block: field 'ice' must be a boolean" },
    }
    for _, c in ipairs(cases) do
      assert.has_error(function() w:define_block(c[1]) end, c[2])
    end
    assert.equal(n, w:stats().block_types)
    assert.is_nil(w:block_id("a"))
  end)
end)

describe("bp.minecraft liquids and materials", function()
  local minecraft = bp.minecraft

  it("keeps a liquid's level in its name and definition (0, a source, keeps the bare name)", function()
    assert.equal("minecraft:water", minecraft.block_def("minecraft:water[level=0]").name)
    assert.is_nil(minecraft.block_def("minecraft:water[level=0]").level)
    local d = minecraft.block_def("minecraft:water[level=3]")
    assert.equal("minecraft:water[level=3]", d.name)
    assert.equal(3, d.level)
    assert.equal(12, minecraft.block_def("minecraft:lava[level=12]").level)
    assert.equal("minecraft:water[level=9]", minecraft.beta173.block_def("minecraft:water[level=9]").name)
  end)

  it("marks Beta's non-solid materials with boxes, solid ones without, and ice", function()
    assert.is_false(minecraft.block_def("minecraft:ladder[facing=north]").solid)
    assert.is_false(minecraft.block_def("minecraft:snow[layers=3]").solid)
    assert.is_false(minecraft.block_def("minecraft:red_carpet").solid)
    assert.is_true(minecraft.block_def("minecraft:oak_sign[rotation=2]").solid)
    assert.is_true(minecraft.block_def("minecraft:stone_pressure_plate").solid)
    assert.is_true(minecraft.block_def("minecraft:cobweb").solid) -- Beta's web material
    assert.is_nil(minecraft.block_def("minecraft:stone").solid) -- the default: a box
    assert.is_true(minecraft.block_def("minecraft:ice").ice)
    assert.is_nil(minecraft.block_def("minecraft:packed_ice").ice)
  end)

  it("pastes flowing water that pushes", function()
    local w = bp.World()
    local schem = {
      width = 4, height = 2, length = 3, offset = { 0, 0, 0 }, format = "sponge2",
      palette = { "minecraft:air", "minecraft:stone", "minecraft:water[level=1]",
                  "minecraft:water[level=2]", "minecraft:water" },
      cell_bytes = 1,
    }
    -- y = 0 stone; y = 1: stone walls at z = 0 and 2, water levels 0, 1, 2 and stone
    -- along z = 1 (x fastest, then z, then y; 0-based palette indices)
    schem.blocks = string.char(1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                               1, 1, 1, 1, 4, 2, 3, 1, 1, 1, 1, 1)
    function schem.get() end
    local report = w:paste(schem, 0, 0, 0)
    assert.equal(24, report.placed)
    assert.equal(1, w:block_info("minecraft:water[level=1]").level)
    local e = w:spawn{ x = 1.5, y = 1, z = 1.5 }
    w:step()
    assert.equal(PUSH * DRAG, e.vx)
  end)
end)
