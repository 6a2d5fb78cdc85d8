-- luacheck: std +busted
-- world:remove leaves a hole in the creation order that the next reader closes, so
-- that removing n entities one by one costs O(n), not O(n^2); the order seen by
-- world:entities(), world:step and the queries never changes.
local bp = require "blockphys"

local function xs(w)
  local out = {}
  for i, e in ipairs(w:entities()) do out[i] = e.x end
  return out
end

describe("world:remove", function()
  it("keeps creation order through holes, compactions and reused slots", function()
    local w = bp.World()
    local es = {}
    for i = 1, 10 do es[i] = w:spawn{ x = i, y = 0, z = 0 } end
    for i = 2, 10, 2 do w:remove(es[i]) end
    assert.same({ 1, 3, 5, 7, 9 }, xs(w))
    w:spawn{ x = 11, y = 0, z = 0 } -- reuses a freed slot, comes last in creation order
    w:remove(es[1])
    assert.same({ 3, 5, 7, 9, 11 }, xs(w))
    assert.equal(5, w:stats().entities)
    assert.same({ 3, 5, 7, 9, 11 }, (function()
      local t = w:positions()
      local r = {}
      for i = 1, #t, 3 do r[#r + 1] = t[i] end
      return r
    end)())
  end)

  it("steps and queries in creation order after removals without a read between", function()
    local w = bp.World()
    local es = {}
    for i = 1, 3000 do es[i] = w:spawn{ x = i % 7, y = 0, z = 0 } end
    for i = 1, 3000 do
      if i % 3 ~= 0 then w:remove(es[i]) end
    end
    assert.equal(1000, w:stats().entities)
    local q = w:query(bp.Collider(-1, -1, -1, 8, 3, 1))
    assert.equal(1000, #q)
    for i = 2, #q do
      assert.is_true(q[i - 1].x ~= nil)
    end
    assert.equal(es[3], q[1])
    assert.equal(es[3000], q[#q])
    w:step()
    assert.equal(1000, #w:entities())
  end)

  it("holds memory proportional to the live entities over spawn and remove cycles", function()
    local w = bp.World()
    for _ = 1, 10 do
      local batch = {}
      for i = 1, 5000 do batch[i] = w:spawn{ x = 0, y = 0, z = 0 } end
      for i = 1, 5000 do w:remove(batch[i]) end
    end
    local after_ten = w:stats().bytes
    for _ = 1, 10 do
      local batch = {}
      for i = 1, 5000 do batch[i] = w:spawn{ x = 0, y = 0, z = 0 } end
      for i = 1, 5000 do w:remove(batch[i]) end
    end
    assert.equal(after_ten, w:stats().bytes)
    assert.equal(0, w:stats().entities)
  end)
end)
