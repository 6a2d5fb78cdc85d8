-- luacheck: std +busted
-- world:query(collider): entities whose boxes overlap a box, in creation order.
local bp = require "blockphys"
local H = require "helpers.world"

local STILL = bp.rules.beta173{ push = false, gravity = 0 }

describe("world:query", function()
  it("returns overlapping entities in creation order, whatever their positions", function()
    local w = bp.World()
    local es = {}
    for i = 1, 5 do es[i] = w:spawn{ x = 10 - 2 * i, y = 0, z = 0, rules = STILL } end
    w:remove(es[3])
    es[6] = w:spawn{ x = 5, y = 0, z = 0, rules = STILL } -- reuses slot 3
    local got = w:query(bp.Collider(-100, -1, -1, 100, 1, 1))
    assert.same({ es[1], es[2], es[4], es[5], es[6] }, got)
    local near = w:query(bp.Collider(3.9, 0, -1, 6.1, 1, 1)) -- x = 4 (es[3] gone), 6, 5
    assert.same({ es[2], es[6] }, near)
  end)

  it("does not count touching as overlap", function()
    local w = bp.World()
    local e = w:spawn{ x = 0.5, y = 0, z = 0.5, width = 1, height = 1, rules = STILL }
    assert.same({}, w:query(bp.Collider(1, 0, 0, 2, 1, 1)))
    assert.same({}, w:query(bp.Collider(0, 1, 0, 1, 2, 1)))
    assert.same({ e }, w:query(bp.Collider(0.999, 0, 0, 2, 1, 1)))
    -- a point strictly inside overlaps (Beta's intersectsWith)
    assert.same({ e }, w:query(bp.Collider(0.5, 0.5, 0.5, 0.5, 0.5, 0.5)))
  end)

  it("follows teleports, moves, steps, removes and spawns", function()
    local w = bp.World()
    local e = w:spawn{ x = 0.5, y = 0, z = 0.5, rules = bp.rules.beta173{ push = false } }
    local probe = bp.Collider(100, -1, 100, 101, 1, 101)
    assert.same({}, w:query(probe))
    e:teleport(100.5, 0, 100.5)
    assert.same({ e }, w:query(probe))
    e:move(10, 0, 0)
    assert.same({}, w:query(probe))
    e.vx = -10
    w:step()
    assert.same({ e }, w:query(bp.Collider(100, -1, 100, 101, 1, 101)))
    w:remove(e)
    assert.same({}, w:query(probe))
  end)

  it("matches a brute-force scan for a random crowd", function()
    local w = bp.World()
    local rnd = H.rng(7)
    for _ = 1, 500 do
      w:spawn{ x = rnd() * 30 - 15, y = rnd() * 6, z = rnd() * 30 - 15,
               width = 0.2 + rnd() * 3, height = 0.2 + rnd() * 3, rules = STILL }
    end
    for _ = 1, 200 do
      local x, y, z = rnd() * 34 - 17, rnd() * 8 - 1, rnd() * 34 - 17
      local box = bp.Collider(x, y, z, x + rnd() * 6, y + rnd() * 3, z + rnd() * 6)
      local want = {}
      for _, e in ipairs(w:entities()) do
        if e:box() & box then want[#want + 1] = e end
      end
      assert.same(want, w:query(box))
    end
    -- a region wider than the grid (scanned linearly) gives the same answer
    assert.equal(500, #w:query(bp.Collider(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9)))
  end)

  it("raises on bad arguments", function()
    local w = bp.World()
    assert.has_error(function() w:query() end,
                     "bad argument #1 to 'query' (blockphys.Collider expected, got no value)")
    assert.has_error(function() w:query({ 0, 0, 0, 1, 1, 1 }) end,
                     "bad argument #1 to 'query' (blockphys.Collider expected, got table)")
    w:destroy()
    assert.has_error(function() w:query(bp.Collider(0, 0, 0, 1, 1, 1)) end,
                     "calling 'query' on bad self (world has been destroyed)")
  end)
end)
