-- luacheck: std +busted
-- e:knockback(dx, dz): Beta 1.7.3 EntityLiving.knockBack (docs/beta173.md
-- section 2, "Knockback"). The game halves the motion, subtracts (d / f) * 0.4F with
-- d = attacker minus entity and f its length as a Java float, adds 0.4F to vy and caps
-- it at 0.4F. We take the push direction (-d): the same numbers, as negation and
-- a - (-b) = a + b are exact. The expected values repeat those operations, so the
-- comparisons are exact.
local bp = require "blockphys"
local H = require "helpers.world"

local K = H.f32(0.4) -- 0.4F, the push and the lift; also the cap 0.40000000596046448D

local function entity(vx, vy, vz, rules)
  local w = bp.World()
  local e = w:spawn{ x = 0, y = 10, z = 0, vx = vx, vy = vy, vz = vz, rules = rules }
  return w, e
end

describe("e:knockback", function()
  it("halves the velocity, pushes 0.4F along the direction, lifts and caps vy", function()
    local _, e = entity(0.2, 0.1, -0.3)
    e:knockback(3, 4) -- float length 5
    assert.equal(0.2 / 2 + 3 / 5 * K, e.vx)
    assert.equal(K, e.vy) -- 0.05 + 0.4F is above the cap
    assert.equal(-0.3 / 2 + 4 / 5 * K, e.vz)
  end)

  it("divides by the length rounded to float, as MathHelper.sqrt_double returns", function()
    local _, e = entity(0, -0.5, 0)
    e:knockback(1, 1)
    local len = H.f32(math.sqrt(2)) -- 1.4142135381698608, not sqrt(2)
    assert.equal(1 / len * K, e.vx)
    assert.equal(1 / len * K, e.vz)
    assert.equal(-0.5 / 2 + K, e.vy) -- below the cap: kept
    assert.are_not.equal(1 / math.sqrt(2) * K, e.vx)
  end)

  it("uses only the direction when its length is exact in float", function()
    local _, a = entity(0, 0, 0)
    local _, b = entity(0, 0, 0)
    local _, c = entity(0, 0, 0)
    a:knockback(-2, 0)
    b:knockback(-0.25, 0)
    c:knockback(-1e-9, 0) -- 1e-9 is not a float: the game's rounding shows
    assert.equal(-K, a.vx)
    assert.equal(a.vx, b.vx)
    assert.equal(-1e-9 / H.f32(1e-9) * K, c.vx)
    assert.are_not.equal(a.vx, c.vx)
  end)

  it("takes the strengths from the entity's rules", function()
    local _, e = entity(0, 0, 0, bp.rules.beta173{ knockback = 0.8, knockback_max_vy = 1 })
    e:knockback(0, -1)
    assert.equal(0.8, e.vy)
    assert.equal(-0.8, e.vz)
    assert.equal(0, e.vx)
  end)

  it("sends a standing entity up and away through world:step", function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:fill(-8, 0, -8, 8, 0, 8, "stone")
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    w:step()
    w:step()
    assert.is_true(e.on_ground)
    e:knockback(1, 0)
    w:step()
    assert.is_false(e.on_ground)
    assert.is_true(e.x > 0.5 and e.y > 1)
  end)

  it("raises for a bad direction, another model or a removed entity, changing nothing", function()
    local w, e = entity(0.1, 0.2, 0.3)
    for _, args in ipairs{ { 0, 0 }, { 1e-300, 0 }, { 1e300, 1e300 } } do
      local ok, err = pcall(e.knockback, e, args[1], args[2])
      assert.is_false(ok)
      assert.truthy(err:find("knockback: the direction (dx, dz) must have a length", 1, true))
    end
    local ok, err = pcall(function() e:knockback(0 / 0, 1) end)
    assert.is_false(ok)
    assert.truthy(err:find("bad argument #1 to 'knockback' (number must be finite)", 1, true))
    ok, err = pcall(function() e:knockback(1, "x") end)
    assert.is_false(ok)
    assert.truthy(err:find("bad argument #2 to 'knockback'", 1, true))
    assert.same({ 0.1, 0.2, 0.3 }, { e:velocity() })
    e.rules = bp.rules.mccpp{}
    ok, err = pcall(function() e:knockback(1, 0) end)
    assert.is_false(ok)
    assert.truthy(err:find("knockback: needs Beta rules (model beta173), not mccpp", 1, true))
    w:remove(e)
    ok, err = pcall(function() e:knockback(1, 0) end)
    assert.is_false(ok)
    assert.truthy(err:find("entity has been removed", 1, true))
  end)
end)
