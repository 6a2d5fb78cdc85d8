-- luacheck: std +busted
-- Depenetration: e:depenetrate([max_distance]), world:free_position(x, y, z, width,
-- height [, max_distance]) and the rules option `depenetrate`. The answer is the
-- shortest translation after which the box overlaps no block shape, static collider or
-- solid entity (touching is allowed); nil when none lies within max_distance.
local bp = require "blockphys"
local C = require "helpers.compat"

local F = 0.30000001192092896 -- half the default width, 0.6F / 2

local function floor_world()
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  w:fill(-8, 63, -8, 8, 63, 8, "stone") -- top at y = 64
  return w
end

-- Every box the entity's box overlaps (blocks, colliders, solid entities).
local function overlapping(w, e)
  local n = #w:boxes_in(e:box())
  for _, o in ipairs(w:query(e:box())) do
    if o ~= e and o.solid then n = n + 1 end
  end
  return n
end

describe("e:depenetrate", function()
  it("lifts an entity spawned half a block into the floor onto it", function()
    local w = floor_world()
    local e = w:spawn{ x = 0.5, y = 63.5, z = 0.5 }
    assert.same({ 0, 0.5, 0 }, { e:depenetrate() })
    assert.same({ 0.5, 64, 0.5 }, { e.x, e.y, e.z })
    assert.equal(0, overlapping(w, e))
  end)

  it("returns 0, 0, 0 for an entity that overlaps nothing, and moves nothing", function()
    local w = floor_world()
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    assert.same({ 0, 0, 0 }, { e:depenetrate() })
    assert.same({ 0.5, 64, 0.5 }, { e.x, e.y, e.z })
  end)

  it("takes the shortest way: sideways out of a wall it barely entered", function()
    local w = floor_world()
    w:fill(1, 64, -8, 1, 70, 8, "stone") -- a wall at x in [1, 2]
    local e = w:spawn{ x = 1 - F + 0.125, y = 64, z = 0.5 } -- 0.125 into the wall
    local dx, dy, dz = e:depenetrate()
    assert.equal(0, dy)
    assert.equal(0, dz)
    assert.near(-0.125, dx, 1e-12)
    assert.is_true(e.x + F <= 1)
    assert.equal(0, overlapping(w, e))
  end)

  it("gives nil and moves nothing when no free place lies within max_distance", function()
    local w = floor_world()
    w:fill(-8, 40, -8, 8, 70, 8, "stone") -- buried deep
    local e = w:spawn{ x = 0.5, y = 65, z = 0.5 }
    assert.is_nil(e:depenetrate())
    assert.same({ 0.5, 65, 0.5 }, { e.x, e.y, e.z })
    assert.is_nil(e:depenetrate(4)) -- 6 blocks to the surface
    assert.is_nil(e:depenetrate(5.9))
    assert.same({ 0, 6, 0 }, { e:depenetrate(6) }) -- the top at y = 71
    assert.equal(71, e.y)
  end)

  it("moves out of a static collider and out of a solid entity", function()
    local w = floor_world()
    w:add_collider(bp.Collider(2, 64, 0, 3, 65, 1))
    local e = w:spawn{ x = 2.5, y = 64.75, z = 0.5, width = 0.5, height = 0.5 }
    assert.same({ 0, 0.25, 0 }, { e:depenetrate() }) -- onto the collider's top
    local boat = w:spawn{ x = -3.5, y = 64, z = 0.5, width = 1.5, height = 0.6, solid = true }
    local p = w:spawn{ x = -3.5, y = 64.5, z = 0.5, width = 0.5, height = 0.5 }
    local _, dy = p:depenetrate()
    assert.near(0.1, dy, 1e-12) -- onto the boat's top (64.6)
    assert.equal(0, overlapping(w, p))
    assert.same({ -3.5, 64, 0.5 }, { boat.x, boat.y, boat.z }) -- the boat stays
  end)

  it("never ends inside another obstacle and never goes farther than needed", function()
    -- Random rubble; every answer is checked against 1,000 random shorter offsets,
    -- none of which may be free.
    local seed = 12345
    local function rnd()
      seed = (C.mul32(seed, 1103515245) + 12345) % 2147483648
      return seed / 2147483648
    end
    local moved = 0
    for _ = 1, 60 do
      local w = floor_world()
      for _ = 1, 70 do
        w:set_block(math.floor(rnd() * 6) - 3, 64 + math.floor(rnd() * 4),
                    math.floor(rnd() * 6) - 3, rnd() < 0.5 and "stone" or "slab")
      end
      local e = w:spawn{ x = rnd() * 4 - 2, y = 64 + rnd() * 3, z = rnd() * 4 - 2 }
      local x0, y0, z0 = e.x, e.y, e.z
      local dx, dy, dz = e:depenetrate(2)
      if dx and (dx ~= 0 or dy ~= 0 or dz ~= 0) then
        moved = moved + 1
        assert.equal(0, overlapping(w, e))
        local len = math.sqrt(dx * dx + dy * dy + dz * dz)
        local probe = w:spawn{ x = x0, y = y0, z = z0 }
        for _ = 1, 1000 do
          local ux, uy, uz = rnd() * 2 - 1, rnd() * 2 - 1, rnd() * 2 - 1
          local n = math.sqrt(ux * ux + uy * uy + uz * uz)
          local r = len * rnd() * 0.999 / n
          probe:teleport(x0 + ux * r, y0 + uy * r, z0 + uz * r)
          assert.is_true(overlapping(w, probe) > 0)
        end
        w:remove(probe)
      elseif dx then
        assert.equal(0, overlapping(w, e))
        assert.same({ x0, y0, z0 }, { e.x, e.y, e.z })
      else
        assert.same({ x0, y0, z0 }, { e.x, e.y, e.z })
      end
    end
    assert.is_true(moved >= 20) -- most cases start inside the rubble
  end)

  it("raises on a bad max_distance and on a removed entity", function()
    local w = floor_world()
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    assert.has_error(function() e:depenetrate(-1) end,
      "bad argument #1 to 'depenetrate' (max_distance must be in [0, 16] blocks)")
    assert.has_error(function() e:depenetrate(17) end,
      "bad argument #1 to 'depenetrate' (max_distance must be in [0, 16] blocks)")
    assert.has_error(function() e:depenetrate(0 / 0) end,
      "bad argument #1 to 'depenetrate' (number must be finite)")
    w:remove(e)
    assert.error_matches(function() e:depenetrate() end, "entity has been removed", 1, true)
  end)
end)

describe("world:free_position", function()
  it("finds the nearest free spawn point for a box of the given size", function()
    local w = floor_world()
    assert.same({ 0.5, 64, 0.5 }, { w:free_position(0.5, 63.75, 0.5, 0.6, 1.8) })
    assert.same({ 0.5, 64, 0.5 }, { w:free_position(0.5, 64, 0.5, 0.6, 1.8) })
    w:fill(-8, 40, -8, 8, 70, 8, "stone")
    assert.is_nil(w:free_position(0.5, 65, 0.5, 0.6, 1.8))
    local x, y, z = w:free_position(0.5, 65, 0.5, 0.6, 1.8, 8)
    assert.same({ 0.5, 71, 0.5 }, { x, y, z })
  end)

  it("raises on bad sizes and distances", function()
    local w = floor_world()
    assert.has_error(function() w:free_position(0, 64, 0, 0, 1.8) end,
      "bad argument #4 to 'free_position' (width must be in (0, 16] blocks)")
    assert.has_error(function() w:free_position(0, 64, 0, 0.6, 33) end,
      "bad argument #5 to 'free_position' (height must be in (0, 32] blocks)")
    assert.has_error(function() w:free_position(0, 64, 0, 0.6, 1.8, 20) end,
      "bad argument #6 to 'free_position' (max_distance must be in [0, 16] blocks)")
  end)
end)

describe("rules.depenetrate", function()
  it("is off in both presets: a Beta entity inside the floor falls through it", function()
    assert.is_false(bp.rules.beta173().depenetrate)
    assert.is_false(bp.rules.mccpp().depenetrate)
    assert.equal(1, bp.rules.beta173().depenetrate_distance)
    local w = floor_world()
    local e = w:spawn{ x = 0.5, y = 63.5, z = 0.5 }
    for _ = 1, 40 do w:step() end
    assert.is_true(e.y < 63)
  end)

  it("moves an entity out of a block placed into it at the start of the next step", function()
    local w = floor_world()
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = bp.rules.beta173{ depenetrate = true } }
    w:step()
    w:set_block(0, 64, 0, "slab") -- a slab placed into its feet
    w:step()
    assert.equal(64.5, e.y)
    assert.is_true(e.on_ground)
  end)
end)
