-- luacheck: std +busted
-- Separation that settles (issue 33): the extra passes of push = "separate"
-- (rules.separate_iterations, rules.separate_tolerance; docs/entities.md). Mobs walk
-- into the walls and corners of a walled pen with random headings, then stand still;
-- after 200 ticks at rest no pair may overlap by more than 0.05 blocks (circle
-- overlap: (w1 + w2)/2 - centre distance), no box may be inside a wall or the floor
-- at any tick, and the push never lifts a speed above max_push_speed.
local bp = require "blockphys"
local settle = dofile("bench/settle.lua")

local function scene(n, side, rules, seed, model)
  return settle.run{ n = n, side = side, walk = 200, rest = 200, check = true,
                     seed = seed or 7, rules = rules, model = model }
end

describe("separate push: extra passes", function()
  it("has documented defaults and validates them", function()
    for _, r in ipairs{ bp.rules.beta173(), bp.rules.mccpp() } do
      assert.equal(8, r.separate_iterations)
      assert.equal(0.1, r.separate_tolerance)
    end
    assert.has_error(function() bp.rules.beta173{ separate_iterations = 0 } end)
    assert.has_error(function() bp.rules.beta173{ separate_iterations = 65 } end)
    assert.has_error(function() bp.rules.beta173{ separate_iterations = 2.5 } end,
      "bp.rules.beta173: rule 'separate_iterations' must be an integer")
    assert.has_error(function() bp.rules.beta173{ separate_tolerance = -0.1 } end)
    assert.has_error(function() bp.rules.beta173{ separate_tolerance = 0 / 0 } end)
  end)

  for _, case in ipairs{ { 260, 20 }, { 120, 11 }, { 420, 27 } } do
    local n, side = case[1], case[2]
    it(("settles %d mobs jammed in a %dx%d pen below 0.05 blocks of overlap"):format(n, side, side), function()
      local r = scene(n, side)
      assert.is_true(r.overlap <= 0.05, "worst overlap " .. r.overlap)
      assert.equal(0, r.pairs)
      assert.equal(0, r.inside)
      assert.is_true(r.max_speed <= r.cap + 1e-12, "speed " .. r.max_speed)
    end)
  end

  it("settles MC-CPP mobs (per-second rules, pushes as b/s) below 0.05 blocks too", function()
    local r = scene(300, 21, nil, 5, "mccpp")
    assert.is_true(r.overlap <= 0.05, "worst overlap " .. r.overlap)
    assert.equal(0, r.inside)
    assert.is_true(r.max_speed <= r.cap + 1e-9, "speed " .. r.max_speed)
  end)

  it("is what settles it: one pass leaves the rows along the walls jammed", function()
    local r = scene(300, 24, { separate_iterations = 1 })
    assert.is_true(r.overlap > 0.2, "worst overlap " .. r.overlap)
  end)

  it("is deterministic (the same scene twice gives the same positions)", function()
    assert.equal(scene(200, 16, nil, 3).digest, scene(200, 16, nil, 3).digest)
  end)

  it("leaves two pushed apart in one pass exactly as one pass would", function()
    -- the pair separates fully in the first pass: no overlap above the tolerance
    -- remains, so no extra pass runs
    local function pair(iters)
      local w = bp.World()
      settle.pen(w, 4)
      local rules = bp.rules.beta173{ push = "separate", separate_iterations = iters }
      local a = w:spawn{ x = 1.5, y = 64, z = 1.5, rules = rules }
      local b = w:spawn{ x = 1.7, y = 64, z = 1.6, rules = rules }
      for _ = 1, 3 do w:step() end
      return { a.x, a.z, b.x, b.z, a.vx, b.vx }
    end
    assert.same(pair(1), pair(4))
  end)

  it("separates a pair pressed into a corner more with more passes", function()
    -- five mobs in a corner, all at one Z against the wall: one pass moves them
    -- along the wall only; the extra passes turn the pushes and open a second row
    local function corner(iters)
      local w = bp.World()
      settle.pen(w, 4)
      local rules = bp.rules.beta173{ push = "separate", separate_iterations = iters,
                                      separate_tolerance = 0 }
      for i = 1, 5 do
        w:spawn{ x = 0.3 + 0.25 * (i - 1), y = 64, z = 0.3, rules = rules }
      end
      for _ = 1, 40 do w:step() end
      return settle.overlap(w, 0.05)
    end
    local one, more = corner(1), corner(8)
    assert.is_true(one > 0.1, "one pass " .. one)
    assert.is_true(more < 0.05, "eight passes " .. more)
  end)
end)
