-- luacheck: std +busted
-- rules.max_pushes: the neighbours one entity's push considers in a step (the first in
-- creation order). Below the cap the Beta push and the separation are unchanged; above
-- it an entity in a pile takes a bounded number of pushes, so that a pile of n entities
-- costs O(n x max_pushes) per step, not O(n^2).
local bp = require "blockphys"

-- A floor, and `n` entities on a ring of radius 0.1 around (0.5, 0.5) (distinct
-- positions: no push of two coincident entities is skipped for a zero offset).
local function pile(n, rules)
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:fill(-20, -1, -20, 20, -1, 20, "stone")
  for i = 1, n do
    local a = 2 * math.pi * i / n
    w:spawn{ x = 0.5 + 0.1 * math.cos(a), y = 0, z = 0.5 + 0.1 * math.sin(a),
             rules = rules() }
  end
  return w
end

local function state(w)
  local out = {}
  for i, e in ipairs(w:entities()) do
    out[i] = { e.x, e.z, e.vx, e.vz }
  end
  return out
end

describe("rules.max_pushes", function()
  it("is 24 in both presets, an integer in [0, 2^30]", function()
    assert.equal(24, bp.rules.beta173().max_pushes)
    assert.equal(24, bp.rules.mccpp().max_pushes)
    assert.has_error(function() bp.rules.beta173{ max_pushes = 1.5 } end,
      "bp.rules.beta173: rule 'max_pushes' must be an integer")
    assert.has_error(function() bp.rules.beta173{ max_pushes = -1 } end)
    assert.has_error(function() bp.rules.beta173{ max_pushes = 2 ^ 31 } end)
  end)

  for _, push in ipairs{ "beta173", "separate" } do
    it("changes nothing below the cap (" .. push .. ")", function()
      -- 20 entities: each has at most 19 neighbours, under both caps
      local a = pile(20, function() return bp.rules.beta173{ push = push } end)
      local b = pile(20, function() return bp.rules.beta173{ push = push, max_pushes = 1e6 } end)
      for _ = 1, 5 do a:step(); b:step() end
      assert.same(state(b), state(a))
    end)

    it("bounds the pushes above the cap (" .. push .. ")", function()
      local capped = pile(40, function() return bp.rules.beta173{ push = push, max_pushes = 3 } end)
      local free = pile(40, function() return bp.rules.beta173{ push = push, max_pushes = 1e6 } end)
      capped:step(); free:step()
      assert.are_not.same(state(free), state(capped))
      -- max_pushes = 0 turns the push off: nothing moves apart
      local none = pile(40, function() return bp.rules.beta173{ push = push, max_pushes = 0 } end)
      local still = pile(40, function() return bp.rules.beta173{ push = false } end)
      none:step(); still:step()
      assert.same(state(still), state(none))
    end)
  end

  it("the Beta push of an entity reaches exactly its first max_pushes neighbours", function()
    -- Only entity 1 pushes (the others' push_strength is 0, and a push uses the pusher's
    -- rules): the entities it pushed are the only ones with a horizontal velocity after
    -- the step (none has input; friction leaves a pushed velocity nonzero).
    local function moved(cap)
      local w = pile(40, function() return bp.rules.beta173{ push_strength = 0 } end)
      w:entities()[1].rules = bp.rules.beta173{ max_pushes = cap }
      w:step()
      local got = {}
      for i, e in ipairs(w:entities()) do
        if i > 1 and (e.vx ~= 0 or e.vz ~= 0) then got[#got + 1] = i end
      end
      return got
    end
    assert.same({ 2, 3, 4 }, moved(3))
    local all = {}
    for i = 2, 40 do all[#all + 1] = i end
    assert.same(all, moved(1e6))
  end)
end)
