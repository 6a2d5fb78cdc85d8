-- luacheck: std +busted
-- Blocks that slow what touches them, in the Beta 1.7.3 tick: soul sand (a
-- velocity_factor) and cobwebs (web = true); docs/beta173.md section 2
-- ("Soul sand", "Cobweb") and section 3 (the start and the end of moveEntity). The
-- expected numbers repeat the game's operations in its order, in double, so the
-- comparisons are exact.
local bp = require "blockphys"
local H = require "helpers.world"
local F = H.F

local FRICTION = H.f32(F.slip * F.air) -- 0.6F * 0.91F, the ground friction f2
local SLOW_Y = H.f32(0.05)              -- a web's 0.05F on dy
local GROUND = (0 - 0.08) * F.drag      -- vy after a tick's gravity and drag from 0

-- A world with soul sand (Beta: 0.875 high, X/Z velocity x 0.4 per touched cell), a
-- block of the same shape without the effect, and a cobweb (no box).
local function world()
  local w = H.world()
  w:define_block{ name = "soul_sand", boxes = { { 0, 0, 0, 1, 0.875, 1 } },
                  velocity_factor = 0.4 }
  w:define_block{ name = "low", boxes = { { 0, 0, 0, 1, 0.875, 1 } } }
  w:define_block{ name = "cobweb", boxes = {}, web = true }
  return w
end

-- An entity landed on a floor of `block` at y = 0 (top 0.875).
local function on_floor(block, x, z, rules)
  local w = world()
  H.flat(w, 0, block)
  local e = w:spawn{ x = x or 0.5, y = 0.875, z = z or 0.5, rules = rules }
  w:step()
  w:step()
  assert.is_true(e.on_ground)
  return w, e
end

describe("soul sand (velocity_factor)", function()
  it("scales the X/Z velocity after the move, before the ground friction", function()
    local w, e = on_floor("soul_sand")
    e.vx, e.vz = 0.2, -0.1
    w:step()
    -- The move uses the whole velocity; then x 0.4 (touched), then x f2. The friction
    -- block is the one under floor(0.875) - 1 = -1: air, so the default 0.6F.
    assert.equal(0.5 + 0.2, e.x)
    assert.equal(0.5 - 0.1, e.z)
    assert.equal(0.2 * 0.4 * FRICTION, e.vx)
    assert.equal(-0.1 * 0.4 * FRICTION, e.vz)
  end)

  -- Soul sand is 0.875 high: its friction block, under floor(0.875) - 1 = -1, is air,
  -- so the friction is the rules' default_slipperiness (0.6F in the preset, the same
  -- as a block's default: only another value tells the two apart) x 0.91F.
  it("takes the friction from default_slipperiness: the block under soul sand is air",
    function()
    local w, e = on_floor("soul_sand", nil, nil, bp.rules.beta173{ default_slipperiness = 0.98 })
    e.vx = 0.2
    w:step()
    local f = H.f32(H.f32(0.98) * F.air) -- 0.98F x 0.91F = 0.89180004596710205
    assert.equal(0.89180004596710205, f)
    assert.equal(0.2 * 0.4 * f, e.vx)
  end)

  it("applies once per touched cell: standing across two cells gives 0.4 twice", function()
    local w, e = on_floor("soul_sand", 1.0, 0.5) -- box x 0.7 .. 1.3: cells 0 and 1
    e.vz = 0.1
    w:step()
    assert.equal(0.1 * 0.4 * 0.4 * FRICTION, e.vz)
  end)

  it("slows a walker by 0.4 per touched cell, every tick", function()
    local w1, a = on_floor("soul_sand")
    local w2, b = on_floor("low")
    a.forward, b.forward = 1, 1
    for _ = 1, 20 do
      w1:step()
      w2:step()
    end
    assert.equal(b.y, a.y)
    assert.is_true(a.z > 0.5 and b.z > a.z)
    -- One tick: the heading adds the float ground acceleration (moveFlying at yaw 0),
    -- the move keeps the velocity, then x 0.4 per soul sand cell the box touches
    -- (one or two along Z as it walks), then x f2.
    local f = FRICTION
    local accel = H.f32(F.input * H.f32(F.ground * H.f32(F.accel / H.f32(H.f32(f * f) * f))))
    local seen = {}
    for _ = 1, 10 do
      local v0 = a.vz
      w1:step()
      local lo, hi = a.z - F.half_width, a.z + F.half_width
      local cells = math.floor(hi - 0.001) - math.floor(lo + 0.001) + 1
      local expect = (v0 + accel) * 0.4
      if cells == 2 then expect = expect * 0.4 end
      assert.equal(expect * f, a.vz)
      seen[cells] = true
    end
    assert.is_true(seen[1] and seen[2]) -- both cases were checked
  end)

  it("acts only on cells the box overlaps by more than 0.001", function()
    -- A soul sand wall at x = 1: the box stops flush with it (max x = 1.0), so
    -- floor(1.0 - 0.001) = 0 leaves the wall's cells out.
    local w = world()
    H.flat(w, 0, "stone")
    w:fill(1, 1, -2, 1, 3, 2, "soul_sand")
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    w:step()
    w:step()
    e.vx, e.vz = 0.5, 0.1
    w:step()
    assert.equal(1.0 - F.half_width, e.x)
    assert.equal(0.1 * FRICTION, e.vz)
    -- Pushed into it by a hair, the box overlaps the cells by less than 0.001: still
    -- nothing. At 0.002 inside, the two cells the box spans on Y act (0.4 twice).
    -- (A teleported entity is not on the ground: its tick uses the air friction.)
    e:teleport(1.0 - F.half_width + 0.0005, 1, 0.5)
    e.vz = 0.1
    w:step()
    assert.equal(0.1 * F.air, e.vz)
    e:teleport(1.0 - F.half_width + 0.002, 1, 0.5)
    e.vz = 0.1
    w:step()
    assert.equal(0.1 * 0.4 * 0.4 * F.air, e.vz)
  end)

  it("leaves vy alone: a jump from soul sand rises as from any block", function()
    local w1, a = on_floor("soul_sand")
    local w2, b = on_floor("low")
    a.jumping, b.jumping = true, true
    w1:step()
    w2:step()
    assert.equal(b.vy, a.vy)
    assert.equal(b.y, a.y)
  end)

  it("acts in the water branch too, before the water drag", function()
    local w = world()
    w:fill(-3, 0, -3, 3, 0, 3, "soul_sand")
    w:fill(-3, 1, -3, 3, 3, 3, "water")
    local e = w:spawn{ x = 0.5, y = 0.875, z = 0.5 }
    w:step()
    assert.is_true(e.in_water)
    e.vx = 0.1
    w:step()
    assert.equal(0.1 * 0.4 * H.f32(0.8), e.vx)
  end)

  it("stops when the block is replaced, and starts when one is placed", function()
    local w, e = on_floor("soul_sand")
    w:fill(-16, 0, -16, 16, 0, 16, "low") -- whole chunks and parts of chunks
    e.vx = 0.1
    w:step()
    assert.equal(0.1 * FRICTION, e.vx)
    w:set_block(0, 0, 0, "soul_sand")
    e:teleport(0.5, 0.875, 0.5)
    e.vx = 0.1
    w:step()
    assert.equal(0.1 * 0.4 * F.air, e.vx) -- teleported: an air tick
  end)

  it("acts with the swept resolver under Beta rules too", function()
    local w, e = on_floor("soul_sand", nil, nil, bp.rules.beta173{ resolver = "swept" })
    e.vx = 0.2
    w:step()
    assert.equal(0.2 * 0.4 * FRICTION, e.vx)
  end)

  it("is not applied by e:move, the resolver alone", function()
    local _, e = on_floor("soul_sand")
    e.vx = 0.3
    e:move(0.1, 0, 0)
    assert.equal(0.3, e.vx)
  end)

  it("is not part of the MC-CPP rules", function()
    local r = bp.rules.mccpp{}
    local w1, a = on_floor("soul_sand", nil, nil, r)
    local w2, b = on_floor("low", nil, nil, r)
    a.vx, b.vx = 2, 2
    w1:step(0.05)
    w2:step(0.05)
    assert.equal(b.vx, a.vx)
    assert.equal(b.x, a.x)
  end)
end)

describe("cobweb (web = true)", function()
  -- An entity in the air inside a column of cobwebs.
  local function in_web(rules)
    local w = world()
    w:fill(0, 5, 0, 0, 20, 0, "cobweb")
    local e = w:spawn{ x = 0.5, y = 10, z = 0.5, rules = rules }
    return w, e
  end

  it("sets in_web at the end of a tick that touches one", function()
    local w, e = in_web()
    assert.is_false(e.in_web)
    w:step()
    assert.is_true(e.in_web)
    assert.equal(10, e.y)
    assert.equal(GROUND, e.vy)
  end)

  it("scales the next move by 0.25, 0.05F, 0.25 and zeroes the motion first", function()
    local w, e = in_web()
    w:step()
    e.vx = 0.4
    w:step()
    -- dy = vy * 0.05F; the velocity restarts from 0, so after gravity and drag vy is
    -- the first tick's again, and vx is 0 (no input: nothing added since).
    assert.equal(10 + GROUND * SLOW_Y, e.y)
    assert.equal(0.5 + 0.4 * 0.25, e.x)
    assert.equal(GROUND, e.vy)
    assert.equal(0, e.vx)
    assert.is_true(e.in_web)
    -- Sinking at 0.0784 * 0.05F blocks a tick from then on.
    local y0 = e.y
    w:step()
    assert.equal(y0 + GROUND * SLOW_Y, e.y)
  end)

  it("takes the factors from the entity's rules", function()
    local w, e = in_web(bp.rules.beta173{ web_factor_y = 1, web_factor_xz = 0.5 })
    w:step()
    e.vx = 0.4
    w:step()
    assert.equal(10 + GROUND, e.y)
    assert.equal(0.5 + 0.4 * 0.5, e.x)
  end)

  it("lets go once the entity no longer touches one", function()
    local w = world()
    w:set_block(0, 10, 0, "cobweb")
    local e = w:spawn{ x = 0.5, y = 10.5, z = 0.5 }
    w:step()
    assert.is_true(e.in_web)
    e.vx = 4 -- the slowed move: x + 1.0, out of the web's cell (box x 1.2 .. 1.8)
    w:step()
    assert.equal(1.5, e.x)
    assert.is_false(e.in_web)
    e.vx = 1
    w:step()
    assert.equal(2.5, e.x) -- a whole move again
  end)

  it("works in water: the move there is slowed too", function()
    local w = world()
    w:fill(-3, 0, -3, 3, 0, 3, "stone")
    w:fill(-3, 1, -3, 3, 3, 3, "water")
    w:set_block(0, 2, 0, "cobweb") -- a cobweb replaces the water in its cell
    local e = w:spawn{ x = 0.5, y = 1.5, z = 0.5 }
    w:step()
    assert.is_true(e.in_web)
    e.vx = 0.2
    w:step()
    assert.equal(0.5 + 0.2 * 0.25, e.x)
  end)

  it("is cleared when the entity takes rules of another model", function()
    local w, e = in_web()
    w:step()
    assert.is_true(e.in_web)
    e.rules = bp.rules.mccpp{}
    assert.is_false(e.in_web)
    e.rules = bp.rules.beta173{}
    e:teleport(40.5, 10, 0.5)
    e.vx = 1
    w:step()
    assert.equal(41.5, e.x) -- not slowed
  end)
end)

describe("define_block velocity_factor and web", function()
  it("are reported by block_info (defaults 1 and false)", function()
    local w = world()
    assert.equal(0.4, w:block_info("soul_sand").velocity_factor)
    assert.is_false(w:block_info("soul_sand").web)
    assert.is_true(w:block_info("cobweb").web)
    assert.equal(1, w:block_info("stone").velocity_factor)
  end)

  it("raise for a factor outside [0, 1] or not a number, and define nothing", function()
    local w = bp.World()
    for _, bad in ipairs{ 1.5, -0.1, 0 / 0, math.huge } do
      local ok, err = pcall(w.define_block, w, { name = "s", velocity_factor = bad })
      assert.is_false(ok)
      assert.truthy(err:find("define_block: velocity_factor must be in [0, 1]", 1, true))
    end
    local ok, err = pcall(w.define_block, w, { name = "s", velocity_factor = "x" })
    assert.is_false(ok)
    assert.truthy(err:find("define_block: field 'velocity_factor' must be a number", 1, true))
    assert.is_nil(w:block_id("s"))
  end)

  it("rules raise for web factors outside [0, 1]", function()
    local ok, err = pcall(bp.rules.beta173, { web_factor_y = 2 })
    assert.is_false(ok)
    assert.truthy(err:find("rule 'web_factor_y' must be a number in [0, 1]", 1, true))
  end)

  it("in_web is read-only", function()
    local w = world()
    local e = w:spawn{ x = 0.5, y = 10, z = 0.5 }
    local ok, err = pcall(function() e.in_web = true end)
    assert.is_false(ok)
    assert.truthy(err:find("entity field 'in_web' is read-only", 1, true))
  end)

  it("come with bp.minecraft's soul sand and cobweb", function()
    local mc = require "blockphys.minecraft"
    assert.equal(0.4, mc.block_def("minecraft:soul_sand").velocity_factor)
    assert.is_true(mc.block_def("cobweb").web)
    assert.is_nil(mc.block_def("stone").web)
  end)
end)
