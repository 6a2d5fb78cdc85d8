-- luacheck: std +busted
-- Positional separation (docs/entities.md, after the N64 article): circles of radius
-- width/2 in X/Z, half the overlap each, velocity only for stable entities.
local bp = require "blockphys"
local H = require "helpers.world"

local SEP = bp.rules.beta173{ push = "separate" }
local W = 0.6000000238418579 -- default width 0.6F

local floor_world = H.stone_floor

-- Largest circle overlap of any pair, found through world:query.
local function max_overlap(w)
  local worst = 0
  for _, e in ipairs(w:entities()) do
    for _, o in ipairs(w:query(e:box())) do
      if o ~= e then
        local d = math.sqrt((e.x - o.x) ^ 2 + (e.z - o.z) ^ 2)
        worst = math.max(worst, (e.width + o.width) / 2 - d)
      end
    end
  end
  return worst
end

local function max_speed(w)
  local v = 0
  for _, e in ipairs(w:entities()) do v = math.max(v, math.sqrt(e.vx ^ 2 + e.vz ^ 2)) end
  return v
end

describe("separate push", function()
  it("moves two new (unstable) entities apart by half the overlap each, no velocity", function()
    local w = floor_world(4)
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = SEP }
    local b = w:spawn{ x = 0.7, y = 64, z = 0.5, rules = SEP }
    assert.is_false(a.stable)
    local ax, bx = a.x, b.x
    w:step()
    local half = (W - (bx - ax)) / 2 -- 0.2
    assert.is_near(ax - half, a.x, 1e-12)
    assert.is_near(bx + half, b.x, 1e-12)
    assert.is_near(W, b.x - a.x, 1e-12)
    assert.equal(0, a.vx)
    assert.equal(0, b.vx)
    assert.is_true(a.stable and b.stable)
  end)

  -- world:step notes during its loop whether any entity pushes by separation; a hook
  -- that switches entities whose tick has already run must still count (step.c).
  it("separates in the step where a later entity's hook switched them to 'separate'", function()
    local w = floor_world(4)
    local none = bp.rules.beta173{ push = false }
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = none }
    local b = w:spawn{ x = 0.7, y = 64, z = 0.5, rules = none }
    local switch = bp.rules.beta173{ push = false, heading = function()
      a.rules.push, b.rules.push = "separate", "separate"
      return 0, 0
    end }
    w:spawn{ x = 3.5, y = 64, z = 3.5, rules = switch }
    local ax, bx = a.x, b.x
    w:step()
    local half = (W - (bx - ax)) / 2
    assert.is_near(ax - half, a.x, 1e-12)
    assert.is_near(bx + half, b.x, 1e-12)
    assert.is_true(a.stable and b.stable)
  end)

  it("gives stable entities the push as velocity (blocks/tick), capped", function()
    local w = floor_world(4)
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = SEP }
    local b = w:spawn{ x = 3.5, y = 64, z = 0.5, rules = SEP }
    w:step()
    b:teleport(0.8, 64, 0.5) -- overlap W - 0.3: about 0.15 each
    local half = (W - (b.x - a.x)) / 2
    w:step()
    assert.is_near(-half, a.vx, 1e-12)
    assert.is_near(half, b.vx, 1e-12)
    assert.is_near(W, b.x - a.x, 1e-12)
    b.rules.max_push_speed = 0.05
    a.vx, b.vx = 0, 0
    a:teleport(0.5, 64, 0.5)
    b:teleport(0.8, 64, 0.5)
    w:step()
    assert.is_near(-half, a.vx, 1e-12)
    assert.is_near(0.05, b.vx, 1e-12)
  end)

  -- MC-CPP counts velocity in blocks/s: the push becomes displacement / dt, capped at
  -- max_push_speed, 10 b/s by default. Centres 0.3 apart overlap by W - 0.3: each moves
  -- 0.15000001 (not capped: the position push always completes), which at dt = 0.01
  -- is 15.000001 b/s, scaled down to exactly the cap; at dt = 0.05 it is 3.0000002 b/s,
  -- kept.
  it("gives stable MC-CPP entities displacement / dt, capped at 10 b/s by default", function()
    assert.equal(10, bp.rules.mccpp().max_push_speed)
    for _, c in ipairs{ { 0.01, true }, { 0.05, false } } do
      local dt, capped = c[1], c[2]
      local w = floor_world(4)
      local r = bp.rules.mccpp{}
      local a = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = r }
      local b = w:spawn{ x = 3.5, y = 64, z = 0.5, rules = r }
      w:step(dt)
      w:step(dt) -- stable, standing still on the floor
      assert.same({ 0, 0 }, { a.vx, b.vx })
      b:teleport(0.8, 64, 0.5)
      local half = (W - (b.x - a.x)) / 2
      local ax, bx = a.x, b.x
      w:step(dt)
      assert.is_near(ax - half, a.x, 1e-12)
      assert.is_near(bx + half, b.x, 1e-12)
      local v = capped and 10 or half / dt
      assert.equal(capped, half / dt > 10, "dt " .. dt)
      assert.is_near(-v, a.vx, 1e-12)
      assert.is_near(v, b.vx, 1e-12)
      assert.equal(0, a.vz)
    end
  end)

  -- The cap is max(max_push_speed, the speed before the push): a push never slows an
  -- entity already faster than the cap. b starts the step at 13.65 b/s, moves 0.1365
  -- and ground friction 20/s leaves 13.65 x (1 - 20 x 0.01) = 10.92 b/s; the push then
  -- adds half the overlap W - 0.4365 (0.08175 blocks, 8.175 b/s) along +X, and b is
  -- scaled back to its 10.92 b/s. a, at rest, gets its 8.175 b/s (under 10) in full.
  it("keeps an MC-CPP entity's own speed above the cap (10.92 b/s) through a push", function()
    local w = floor_world(4)
    local r = bp.rules.mccpp{ integrator = "mccpp" }
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = r }
    local b = w:spawn{ x = 3.5, y = 64, z = 0.5, rules = r }
    w:step(0.01)
    w:step(0.01)
    b:teleport(0.8, 64, 0.5)
    b.vx = 13.65
    local ax = a.x
    w:step(0.01)
    local half = ax - a.x
    assert.is_near((W - 0.4365) / 2, half, 1e-12)
    assert.is_near(-half / 0.01, a.vx, 1e-12)
    assert.is_near(-(W - 0.4365) / 2 / 0.01, a.vx, 1e-9) -- -8.1750012: W is 0.6F, not 0.6
    assert.is_near(10.92, b.vx, 1e-12)
    assert.is_near(W, b.x - a.x, 1e-12)
  end)

  -- Beta rules count per tick: the default cap is 0.5 b/t. Width 2, centres 0.5 apart:
  -- each moves (2 - 0.5) / 2 = 0.75 blocks, and the velocity is capped at 0.5.
  -- The push's cap is max(max_push_speed, the entity's own speed): its own speed at
  -- the 1024 limit plus a push would pass the limit, and the next step would refuse.
  it("keeps a push on top of the 1024 b/t limit within it", function()
    local w = bp.World()
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, vx = 1024, rules = bp.rules.beta173{
      push = "separate", max_push_speed = 1e6, heading = function() return 1000, 0 end } }
    a.forward = 1
    local b = w:spawn{ x = 2048.4, y = 64, z = 0.5, rules = bp.rules.beta173{ push = "separate" } }
    w:step()
    w:step() -- a ends 0.35 past b's centre and is pushed on, along +X
    assert.near(2048.75, a.x, 1e-7) -- plus the push's few float ulps
    assert.equal(1024, a.vx)
    assert.is_true(b.x < 2048.4)
    assert.is_true(pcall(w.step, w))
  end)

  it("caps stable Beta entities at 0.5 blocks/tick by default", function()
    assert.equal(0.5, SEP.max_push_speed)
    local w = floor_world(4)
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, width = 2, rules = SEP }
    local b = w:spawn{ x = 3.5, y = 64, z = 0.5, width = 2, rules = SEP }
    w:step()
    b:teleport(1, 64, 0.5)
    w:step()
    assert.is_near(-0.25, a.x, 1e-12)
    assert.is_near(1.75, b.x, 1e-12)
    assert.is_near(-0.5, a.vx, 1e-12)
    assert.is_near(0.5, b.vx, 1e-12)
  end)

  it("leaves entities that only touch, or that are not both 'separate', alone", function()
    local w = floor_world(4)
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, width = 0.5, rules = SEP }
    local b = w:spawn{ x = 1.0, y = 64, z = 0.5, width = 0.5, rules = SEP } -- touching
    local c = w:spawn{ x = 0.5, y = 64, z = 2.5, rules = SEP }
    local d = w:spawn{ x = 0.6, y = 64, z = 2.5, rules = bp.rules.beta173{ push = false } }
    local bx, dx = b.x, d.x
    w:step()
    assert.equal(bx, b.x)
    assert.equal(dx, d.x)
    assert.equal(0.5, c.x)
    assert.equal(0.5, a.x)
  end)

  it("makes stability contagious within a step", function()
    local w = floor_world(4)
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = SEP }
    local b = w:spawn{ x = 2.5, y = 64, z = 0.5, rules = SEP }
    w:step()
    assert.is_true(b.stable)
    local c = w:spawn{ x = 2.7, y = 64, z = 0.5, rules = SEP } -- newcomer on b
    w:step()
    assert.equal(0, b.vx) -- b caught c's instability: position only
    assert.equal(0, c.vx)
    assert.is_near(W, c.x - b.x, 1e-12)
    assert.equal(0.5, a.x)
    assert.is_true(b.stable and c.stable) -- stable again at the end of the step
  end)

  it("never pushes an entity into a block", function()
    local w, stone = floor_world(4)
    w:fill(1, 64, -2, 1, 65, 2, stone) -- wall at x = 1
    local a = w:spawn{ x = 0.5, y = 64, z = 0.5, rules = SEP }
    local b = w:spawn{ x = 0.6, y = 64, z = 0.5, rules = SEP }
    w:step()
    local _, _, _, bx2 = b:box():unpack()
    assert.is_near(1, bx2, 1e-12) -- stopped at the wall, not in it
    assert.is_true(bx2 <= 1)
    assert.is_true(a.x < 0.5)
  end)

  it("spreads 20 entities spawned at one point without a velocity above the cap", function()
    -- one pass a step (separate_iterations = 1): the pile spreads through the first
    -- passes' pushes, which give stable entities velocity, capped; with the default
    -- extra passes most of the spreading is positional, and the cap holds too
    for _, iters in ipairs{ 1, 8 } do
      local w = floor_world(10)
      local rules = bp.rules.beta173{ push = "separate", max_push_speed = 0.05,
                                      separate_iterations = iters }
      for _ = 1, 20 do w:spawn{ x = 0.5, y = 64, z = 0.5, rules = rules } end
      local fastest = 0
      for _ = 1, 100 do
        w:step()
        fastest = math.max(fastest, max_speed(w))
      end
      assert.is_true(fastest <= 0.05 + 1e-12, "fastest " .. fastest)
      if iters == 1 then
        assert.is_true(fastest > 0.04) -- stable pushes did happen, and were capped
      end
      assert.is_true(max_overlap(w) <= 1e-9)
    end
    local rules = bp.rules.beta173{ push = "separate", max_push_speed = 0.05 }
    -- the first step moved them apart without any velocity
    local w2 = floor_world(10)
    for _ = 1, 20 do w2:spawn{ x = 0.5, y = 64, z = 0.5, rules = rules } end
    w2:step()
    assert.equal(0, max_speed(w2))
    assert.is_true(max_overlap(w2) < 0.6)
  end)

  -- A 40 x 40 pen with 2,000 mobs at random spots (deterministic LCG).
  local function crowd()
    local w = bp.World()
    local stone = w:define_block{ name = "stone" }
    local S = 40
    w:fill(-1, 63, -1, S, 63, S, stone)
    w:fill(-1, 64, -1, S, 65, -1, stone)
    w:fill(-1, 64, S, S, 65, S, stone)
    w:fill(-1, 64, -1, -1, 65, S, stone)
    w:fill(S, 64, -1, S, 65, S, stone)
    local rnd = H.rng(12345)
    for _ = 1, 2000 do
      w:spawn{ x = 0.3 + rnd() * (S - 0.6), y = 64, z = 0.3 + rnd() * (S - 0.6), rules = SEP }
    end
    return w, S
  end

  it("settles a 2,000-entity crowd in a pen: no pair overlaps by more than 1e-6", function()
    local w, S = crowd()
    assert.is_true(max_overlap(w) > 0.5) -- they start badly overlapped
    for _ = 1, 60 do w:step() end
    assert.is_true(max_overlap(w) <= 1e-6, "overlap " .. max_overlap(w))
    for _, e in ipairs(w:entities()) do
      assert.is_true(e.x >= 0.3 - 1e-9 and e.x <= S - 0.3 + 1e-9)
      assert.is_true(e.z >= 0.3 - 1e-9 and e.z <= S - 0.3 + 1e-9)
      assert.equal(64, e.y)
    end
  end)

  it("is bit-identical for the same script", function()
    local function run()
      local w = crowd()
      for _ = 1, 10 do w:step() end
      return H.crowd_image(w)
    end
    assert.equal(run(), run())
  end)

  -- The push moves an entity along X, then Z; the Z clip may ask a filter (a solid
  -- entity in reach), and world:query there must find the entity at its box so far.
  it("lets a filter asked mid-push find the pushed entity with world:query", function()
    local w = floor_world(5)
    local r = bp.rules.mccpp{ push = "separate" }
    local a = w:spawn{ x = 0, y = 64, z = 0, rules = r }
    w:spawn{ x = 0.3, y = 64, z = 0.1, rules = r }
    w:spawn{ x = -0.3, y = 64, z = -0.62, rules = bp.rules.mccpp{ push = false }, solid = true }
    local asked, missed = 0, 0
    a.filter = function(self)
      asked = asked + 1
      local b = self:box()
      local found = false
      for _, q in ipairs(w:query(bp.Collider(b.x1, b.y1, b.z1, b.x1 + 1e-3, b.y2, b.z2))) do
        found = found or q == self
      end
      if not found then missed = missed + 1 end
      return true
    end
    w:step(); w:step()
    assert.is_true(asked > 0)
    assert.equal(0, missed)
  end)
end)
