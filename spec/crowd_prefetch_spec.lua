-- Loading ahead in big crowds (csrc/core/broadphase.c bp_look_ahead, asked by the
-- step's and the separation's loops): from 32,768 awake entities those loops start
-- loading the entities and neighbourhoods of the turns to come. They are hints and
-- must change no result: small crowds stepped with the loading forced on
-- (World:_prefetch_crowd(0)) and off end bit for bit the same, tick after tick,
-- through removals (holes in the creation order), spawns mid-run, sleepers waking and
-- both push models.
local bp = require "blockphys"

local H = require "helpers.world"
local settle = dofile("bench/settle.lua")

-- A walled 20 x 20 pen (bench/settle.lua's) with a pillar, `n` mobs spawned in random order, most walking.
local function run(ahead, rules_of, n, ticks)
  local world = bp.World()
  world:_prefetch_crowd(ahead and 0 or 4294967295)
  settle.pen(world, 20)
  local stone = world:block_id("stone")
  world:fill(9, 64, 9, 10, 66, 10, stone)
  local rnd = H.rng(n)
  local mobs = {}
  local function spawn(i)
    local e = world:spawn{ x = 0.4 + rnd() * 19.2, y = 64, z = 0.4 + rnd() * 19.2,
                           rules = rules_of(i), yaw = rnd() * 360 }
    if i % 5 ~= 0 then e.forward = 1 end -- every fifth stands (and may fall asleep)
    mobs[#mobs + 1] = e
  end
  for i = 1, n do spawn(i) end
  local hashes = {}
  for t = 1, ticks do
    world:step()
    hashes[t] = world:hash()
    if t == 10 then
      for i = 3, #mobs, 7 do
        world:remove(mobs[i])
      end
    elseif t == 20 then
      for i = n + 1, n + 40 do spawn(i) end
    elseif t == 30 then
      world:set_block(5, 64, 5, stone) -- wakes the sleepers near it
    end
  end
  local pos = {}
  for _, e in ipairs(world:entities()) do
    pos[#pos + 1] = string.format("%.17g %.17g %.17g %.17g %.17g", e.x, e.y, e.z, e.vx, e.vz)
  end
  world:destroy()
  return hashes, pos
end

local function same_both_ways(rules_of, n, ticks)
  local h1, p1 = run(true, rules_of, n, ticks)
  local h0, p0 = run(false, rules_of, n, ticks)
  assert.are.equal(ticks, #h1)
  for t = 1, ticks do
    assert.are.equal(h0[t], h1[t], "world:hash() after tick " .. t)
  end
  assert.are.same(p0, p1)
  return p1
end

describe("loading ahead in big crowds", function()
  it("changes no result with the Beta push", function()
    local r = bp.rules.beta173{ push = "beta173" }
    local pos = same_both_ways(function() return r end, 400, 40)
    assert.is_true(#pos > 300)
  end)

  it("changes no result with the separation's passes", function()
    local r = bp.rules.beta173{ push = "separate" }
    same_both_ways(function() return r end, 400, 40)
  end)

  it("changes no result with MC-CPP rules and mixed push models", function()
    local beta = bp.rules.beta173{ push = "beta173" }
    local mccpp = bp.rules.mccpp{}
    local still = bp.rules.beta173{ push = false }
    same_both_ways(function(i)
      if i % 3 == 0 then return mccpp elseif i % 3 == 1 then return beta end
      return still
    end, 300, 40)
  end)

  it("refuses a count outside [0, 2^32 - 1] and keeps the last one", function()
    local world = bp.World()
    assert.has_error(function() world:_prefetch_crowd(-1) end,
      "bad argument #1 to '_prefetch_crowd' (must be in [0, 4294967295])")
    assert.has_error(function() world:_prefetch_crowd(4294967296) end,
      "bad argument #1 to '_prefetch_crowd' (must be in [0, 4294967295])")
    world:_prefetch_crowd(32768) -- (make sanitize starts every world at 0)
    assert.are.equal(32768, world:_prefetch_crowd(7))
    assert.are.equal(7, world:_prefetch_crowd(32768))
    world:destroy()
  end)
end)
