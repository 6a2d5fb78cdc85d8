-- Running out of memory: each call that grows the core world's memory is made to
-- fail at its 1st, 2nd, ... allocation (World:_fail_alloc, an internal test hook),
-- until it succeeds. A failed call must raise "not enough memory" and leave the
-- world as it was (blocks, types, entities, colliders; only reserved capacity may
-- stay), and the world must work afterwards.
local bp = require "blockphys"
local C = require "helpers.compat"

-- Everything observable of a world, but its memory counter.
local function snapshot(w, region)
  local st = w:stats()
  st.bytes = nil
  local s = { stats = st, cells = {}, entities = {} }
  local x1, y1, z1, x2, y2, z2 = C.unpack_table(region)
  for y = y1, y2 do
    for z = z1, z2 do
      for x = x1, x2 do s.cells[#s.cells + 1] = w:get_block(x, y, z) end
    end
  end
  for _, e in ipairs(w:entities()) do
    s.entities[#s.entities + 1] = { e.x, e.y, e.z, e.vx, e.vy, e.vz, e.on_ground }
  end
  return s
end

-- A world with chunks of every kind around the region: stored arrays, uniform
-- stone, cleared air chunks, and none.
local REGION = { -20, -4, -20, 20, 20, 20 }
local function sample_world()
  local w = bp.World()
  w:define_block { name = "stone" }
  w:define_block { name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  w:fill(-16, -16, -16, -1, -1, -1, "stone") -- one uniform chunk
  w:fill(0, 0, 0, 15, 15, 15, "stone")
  w:fill(0, 0, 0, 15, 15, 15, "air") -- a cleared, uniform air chunk
  w:fill(-20, 0, -20, 20, 0, 20, "stone") -- a floor across nine chunks
  w:set_block(3, 1, 3, "slab")
  for i = 0, 5 do w:spawn { x = i * 2 + 0.5, y = 1, z = 0.5 } end
  w:add_collider(bp.Collider(5, 1, 5, 6, 2, 6))
  return w
end

-- Fails `op` at allocation n = 1, 2, ... until it succeeds; returns how many
-- failures it saw. Every failure must leave the world's snapshot unchanged.
-- `prep(w)`, if given, runs first, unhindered.
local function each_failure(op, region, prep)
  region = region or REGION
  local failures = 0
  for n = 1, 200 do
    local w = sample_world()
    if prep then prep(w) end
    local before = snapshot(w, region)
    w:_fail_alloc(n)
    local ok, err = pcall(op, w)
    local left = w:_fail_alloc(0)
    if ok and left > 0 then return failures end -- no n-th allocation: done
    -- (ok with left == 0: the call absorbed the failure and did its work)
    if not ok then
      failures = failures + 1
      assert.matches("not enough memory", err)
      assert.same(before, snapshot(w, region))
      op(w) -- and the world still works
    end
  end
  error("the operation never succeeded")
end

describe("out of memory", function()
  it("fill: a partial fill over stored, uniform and new chunks changes nothing", function()
    local n = each_failure(function(w) w:fill(-18, -2, -18, 18, 18, 18, "slab") end)
    assert.is_true(n >= 2, "fill allocated only " .. n .. " times")
  end)

  -- A partial fill over eight uniform chunks gives each an 8 KB id array before it
  -- changes a block; failing the k-th allocation leaves k - 1 of them made, which
  -- must be given back (only the chunk table's capacity may stay).
  it("fill: gives back the id arrays it made for uniform chunks", function()
    local failures = 0
    for n = 1, 20 do
      local w = bp.World()
      w:define_block { name = "stone" }
      w:define_block { name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
      w:fill(0, 0, 0, 16 * 8 - 1, 15, 15, "stone") -- 8 uniform chunks
      local before = w:stats()
      local region = { 0, 0, 0, 16 * 8 - 1, 15, 15 }
      local cells = snapshot(w, region)
      w:_fail_alloc(n)
      local ok, err = pcall(w.fill, w, 0, 0, 0, 16 * 8 - 1, 7, 15, "slab")
      if w:_fail_alloc(0) > 0 then break end
      assert.is_false(ok)
      assert.matches("not enough memory", err)
      failures = failures + 1
      assert.same(cells, snapshot(w, region))
      local grown = w:stats().bytes - before.bytes
      assert.is_true(grown < 8192, ("a failed fill kept %d bytes"):format(grown))
    end
    assert.is_true(failures >= 8, "the fill allocated only " .. failures .. " times")
  end)

  it("fill: clearing changes nothing", function()
    local n = each_failure(function(w) w:fill(-20, -4, -20, 20, 5, 20, "air") end)
    assert.is_true(n >= 1, "clearing never allocated")
  end)

  it("set_block in a new chunk changes nothing", function()
    each_failure(function(w)
      w:set_block(100, 100, 100, "stone")
      assert.equal(w:block_id("stone"), w:get_block(100, 100, 100))
    end, { 96, 96, 96, 100, 100, 100 })
  end)

  -- Pins (mutation test) the no-allocation paths of chunk.c: each call below must not
  -- allocate at all, so it succeeds with the very next allocation set to fail.
  -- set_block: `old == id` returns before a uniform chunk gets an id array.
  -- fill: a chunk the region covers whole (lo == its base, hi == base + 15 on every
  -- axis: covers_chunk) gets no array; a partly covered uniform chunk that already
  -- holds the id (`c->uniform != id` in fill_prepare) gets none either.
  it("set_block and fill that need no array allocate nothing", function()
    local w = bp.World()
    w:define_block { name = "stone" }
    w:define_block { name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
    w:fill(0, 0, 0, 31, 15, 15, "stone") -- two uniform chunks
    local stone, slab = w:block_id("stone"), w:block_id("slab")
    local function no_alloc(f, ...)
      w:_fail_alloc(1)
      local ok, err = pcall(f, w, ...)
      assert.equal(1, w:_fail_alloc(0), "allocated") -- the failure never happened
      assert.is_true(ok, err)
    end
    local bytes = w:stats().bytes
    no_alloc(w.set_block, 3, 4, 5, "stone")
    no_alloc(w.fill, 2, 2, 2, 20, 9, 9, "stone")
    assert.equal(bytes, w:stats().bytes)
    no_alloc(w.fill, 0, 0, 0, 31, 15, 15, "slab")
    assert.equal(slab, w:get_block(0, 0, 0)); assert.equal(slab, w:get_block(31, 15, 15))
    no_alloc(w.fill, 16, 0, 0, 31, 15, 15, "stone")
    assert.equal(slab, w:get_block(15, 15, 15)); assert.equal(stone, w:get_block(16, 0, 0))
    assert.equal(bytes, w:stats().bytes)
    assert.equal(2 * 4096, w:stats().blocks)
  end)

  it("define_block changes nothing", function()
    local n = each_failure(function(w)
      w:define_block { name = "fence", boxes = { { 0, 0, 0, 1, 1.5, 1 } } }
      assert.is_not_nil(w:block_id("fence"))
    end)
    assert.is_true(n >= 1)
  end)

  it("define_block with an outline of its own, or one-way, changes nothing", function()
    local n = each_failure(function(w)
      w:define_block { name = "flower", boxes = {}, outline = { { 0.3, 0, 0.3, 0.7, 0.6, 0.7 } } }
      assert.same({ { 0.3, 0, 0.3, 0.7, 0.6, 0.7 } }, w:block_info("flower").outline)
    end)
    assert.is_true(n >= 2, "define_block allocated only " .. n .. " times")
    n = each_failure(function(w)
      w:define_block { name = "platform", boxes = { { 0, 0, 0, 1, 0.5, 1 } }, one_way = "up" }
      assert.equal("up", w:block_info("platform").one_way)
    end)
    assert.is_true(n >= 1)
  end)

  -- Each count of earlier calls leaves the pools at another fill level, so that
  -- some single call must grow them.
  it("spawn changes nothing", function()
    local failures = 0
    for k = 0, 40 do
      failures = failures + each_failure(function(w) w:spawn { x = 0.5, y = 90, z = 10.5 } end,
        nil, function(w) for i = 1, k do w:spawn { x = 0.5, y = 1 + i * 2, z = 10.5 } end end)
    end
    assert.is_true(failures >= 2, "spawn allocated only " .. failures .. " times")
  end)

  it("add_collider changes nothing", function()
    local failures = 0
    for k = 0, 40 do
      failures = failures + each_failure(function(w) w:add_collider(bp.Collider(0, 9, 0, 1, 10, 1)) end,
        nil, function(w) for i = 1, k do w:add_collider(bp.Collider(i, 5, 0, i + 1, 6, 1)) end end)
    end
    assert.is_true(failures >= 2, "add_collider allocated only " .. failures .. " times")
  end)

  it("remove changes nothing", function()
    local failures = 0
    for k = 0, 5 do
      failures = failures + each_failure(function(w) w:remove(w:entities()[1]) end, nil,
        function(w) for _ = 1, k do w:remove(w:entities()[1]) end end)
    end
    assert.is_true(failures >= 1, "remove never allocated")
  end)

  -- A step's broadphase falls back to a linear scan when its grid cannot grow: the
  -- step goes on, with the same results as with memory.
  for _, model in ipairs { "beta173", "separate" } do
    it("world:step with " .. model .. " pushes gives the same results when the broadphase cannot grow", function()
      local function crowd()
        local w = sample_world()
        for i = 0, 30 do w:spawn { x = (i % 6) * 0.3 + 0.5, y = 1, z = math.floor(i / 6) * 0.3 + 0.5 } end
        for _, e in ipairs(w:entities()) do
          e.rules.push = model
          e.forward = 1
        end
        return w
      end
      local expected = crowd()
      for _ = 1, 3 do expected:step() end
      expected = snapshot(expected, REGION)
      local failures = 0
      for n = 1, 200 do
        local w = crowd()
        w:_fail_alloc(n)
        for _ = 1, 3 do w:step() end
        if w:_fail_alloc(0) > 0 then break end -- no n-th allocation: done
        failures = failures + 1
        assert.same(expected, snapshot(w, REGION))
      end
      assert.is_true(failures >= 2, "the steps allocated only " .. failures .. " times")
    end)
  end

  -- Queries change nothing: short of memory they either answer as with memory
  -- (the broadphase falls back to a linear scan) or raise "not enough memory".
  local queries = {
    query = function(w)
      local got = {}
      for _, e in ipairs(w:query(bp.Collider(-1, 0, -1, 12, 3, 2))) do got[#got + 1] = e.x end
      return got
    end,
    raycast_entities = function(w) return w:raycast_entities(-5, 1.5, 0.5, 1, 0, 0, 30).distance end,
    boxes_in = function(w) return #w:boxes_in(bp.Collider(-3, -1, -3, 3, 2, 3)) end,
  }
  for name, ask in pairs(queries) do
    it(name .. " answers the same or raises when memory runs out, and changes nothing", function()
      local expected = ask(sample_world())
      local failures = 0
      for n = 1, 200 do
        local w = sample_world()
        local before = snapshot(w, REGION)
        w:_fail_alloc(n)
        local ok, got = pcall(ask, w)
        if w:_fail_alloc(0) > 0 then break end
        failures = failures + 1
        if ok then assert.same(expected, got) else assert.matches("not enough memory", got) end
        assert.same(before, snapshot(w, REGION))
        assert.same(expected, ask(w))
      end
      -- a ray walks the broadphase cells without a results list
      if name ~= "raycast_entities" then assert.is_true(failures >= 1, name .. " never allocated") end
    end)
  end
end)
