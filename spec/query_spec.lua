-- luacheck: std +busted
-- world:query(collider): entities whose boxes overlap a box, in creation order.
local bp = require "blockphys"
local H = require "helpers.world"
local C = require "helpers.compat"

local STILL = bp.rules.beta173{ push = false, gravity = 0 }

-- What world:query must answer: every entity whose box overlaps `box`, in creation
-- order, found by testing them all.
local function brute_query(w, box)
  local want = {}
  for _, e in ipairs(w:entities()) do
    if e:box():overlaps(box) then want[#want + 1] = e end
  end
  return want
end

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
      assert.same(brute_query(w, box), w:query(box))
    end
    -- a region wider than the grid (scanned linearly) gives the same answer
    assert.equal(500, #w:query(bp.Collider(-1e9, -1e9, -1e9, 1e9, 1e9, 1e9)))
  end)

  -- Pins (mutation test) the incremental grid upkeep in broadphase.c: entities that
  -- move between queries are re-listed when any of their cells change (lo OR hi, both
  -- ends of every axis), removed slots drop out, reused slots come back; checked
  -- against a brute-force scan after every change.
  it("matches a brute-force scan while a crowd moves, teleports, spawns and is removed", function()
    local w = bp.World()
    local rnd = H.rng(11)
    local function check(box)
      assert.same(brute_query(w, box), w:query(box))
    end
    local function probe()
      local x, y, z = rnd() * 24 - 12, rnd() * 8 - 4, rnd() * 24 - 12
      return bp.Collider(x, y, z, x + rnd() * 5, y + rnd() * 3, z + rnd() * 5)
    end
    local es = {}
    for i = 1, 60 do
      es[i] = w:spawn{ x = rnd() * 20 - 10, y = rnd() * 4 - 2, z = rnd() * 20 - 10,
                       width = 0.2 + rnd() * 2.5, height = 0.2 + rnd() * 2.5, rules = STILL }
    end
    check(probe())
    for round = 1, 150 do
      local e = es[(round * 7) % #es + 1]
      local c = round % 5
      if c == 0 then -- grow a box by a small move on one axis: only hi or lo cells change
        e:move(rnd() * 0.6 - 0.3, 0, 0)
      elseif c == 1 then
        e:move(0, rnd() * 0.6 - 0.3, rnd() * 0.6 - 0.3)
      elseif c == 2 then
        e.vx, e.vz = rnd() * 4 - 2, rnd() * 4 - 2
        w:step()
      elseif c == 3 then
        e:teleport(rnd() * 20 - 10, rnd() * 4 - 2, rnd() * 20 - 10)
        e:move(0, 0, 0.001)
      else -- a remove followed by a spawn keeps the count and reuses the slot
        local box = e:box()
        w:remove(e)
        if round % 2 == 0 then check(box) end -- a removed entity leaves the grid at once
        -- (on odd rounds the spawn follows at once: same count, another serial)
        es[(round * 7) % #es + 1] = w:spawn{ x = rnd() * 20 - 10, y = 0, z = rnd() * 20 - 10,
                                              width = 1, height = 1, rules = STILL }
      end
      for _ = 1, 3 do check(probe()) end
      check(e:valid() and e:box() or probe())
    end
  end)

  -- A cell keeps its listings in sorted runs of at most 64 (broadlist.c): 400 small
  -- entities in the four cells around the origin fill each with several runs; then
  -- they hop between those cells in an order unrelated to their creation, so listings
  -- go into and out of the middle of full runs (splits), and the crowd thins out to 40
  -- (runs shrink, empty and go); every query checked by brute force.
  it("matches a brute-force scan while hundreds of entities hop between crowded cells", function()
    local w = bp.World()
    local rnd = H.rng(5)
    local function spot() return rnd() * 3.6 - 1.8 end
    local function check(x0, z0, x1, z1)
      local box = bp.Collider(x0, 0, z0, x1, 1, z1)
      assert.same(brute_query(w, box), w:query(box))
    end
    local es = {}
    for i = 1, 400 do
      es[i] = w:spawn{ x = spot(), y = 0.5, z = spot(), width = 0.2, height = 0.2, rules = STILL }
    end
    check(-2, -2, 2, 2)
    check(-2, -2, 0, 0)
    for round = 1, 1200 do
      local e = es[(round * 97) % #es + 1]
      if round % 300 == 0 then -- thin the crowd at random: runs shrink, empty and go
        for _ = 1, 90 do -- (moved away, not removed: a remove rebuilds the grid)
          table.remove(es, rnd(#es)):teleport(100 + spot(), 0.5, spot())
        end
      else
        e:teleport(spot(), 0.5, spot())
      end
      if round % 10 == 0 then
        local x, z = spot(), spot()
        check(x, z, x + rnd() * 2, z + rnd() * 2)
        check(-2, -2, 2, 2)
      end
    end
    assert.equal(#es, #w:query(bp.Collider(-2, 0, -2, 2, 1, 2)))
  end)

  -- A run of a cell with several must go as soon as it empties, whatever its
  -- neighbours hold: a binary search over the runs reads each one's last listing, and
  -- an insert appends to an empty last run whatever its serial. Entities 0.2 wide
  -- brought into the cell [0, 2)^3 and sent back out, in orders that leave a middle
  -- run or the last run empty between fuller ones (found by review: a crash, and a
  -- listing left behind that a query returned).
  it("keeps a crowded cell's listings exact when one of its runs empties", function()
    for _, middle in ipairs{ false, true } do
      local w = bp.World()
      local es = {}
      local function home(i) return 100 + 3 * i, 0.5, 0.5 end
      for i = 1, 200 do
        es[i] = w:spawn{ x = 100 + 3 * i, y = 0.5, z = 0.5, width = 0.2, height = 0.2,
                         rules = STILL }
      end
      local cell = bp.Collider(0, 0, 0, 2, 2, 2)
      local function check() assert.same(brute_query(w, cell), w:query(cell)) end
      check()
      local last = middle and 194 or 130 -- runs of 32 and 33, or 32, 32 and 33
      for i = 2, last, 2 do es[i]:teleport(1, 0.5, 1) end
      for i = 1, 15, 2 do es[i]:teleport(1, 0.5, 1) end -- the first run: 40
      if middle then
        for i = 131, 145, 2 do es[i]:teleport(1, 0.5, 1) end -- the last run: 41
      end
      for i = 66, middle and 128 or 130, 2 do es[i]:teleport(home(i)) end -- one run empties
      check()
      es[17]:teleport(1, 0.5, 1)
      check()
      es[17]:teleport(home(17))
      check()
    end
  end)

  -- Pins (mutation test) that the broadphase's cell table stays at most half full
  -- (cells_grow in grid_insert): 1024 entities in 1024 distinct 2-block cells would fill
  -- a table of 1024 slots, and looking up an empty cell would then never end.
  it("answers with exactly 1024 occupied grid cells", function()
    local w = bp.World()
    local es = {}
    for i = 0, 1023 do -- x in [4i + 0.75, 4i + 1.25]: cell 2i; y, z: cell 0
      es[i + 1] = w:spawn{ x = 4 * i + 1, y = 0.5, z = 0.5, width = 0.5, height = 0.5,
                           rules = STILL }
    end
    assert.same({}, w:query(bp.Collider(-10, 0, 0, -9, 1, 1)))
    assert.same({ es[3], es[4] }, w:query(bp.Collider(9, 0, 0, 13.5, 1, 1)))
    assert.same({ es[1024] }, w:query(bp.Collider(4093, 0.9, 0.6, 4093.1, 1.1, 0.7)))
  end)

  -- Pins (mutation test) that a query pops its results off the broadphase's stack
  -- (g->nresults = base in bp_broadphase_visit): otherwise every query's results
  -- stay and the world's memory grows with the number of queries.
  it("holds no memory across repeated queries", function()
    local w = bp.World()
    for i = 1, 8 do w:spawn{ x = i * 0.25, y = 0, z = 0, rules = STILL } end
    local box = bp.Collider(-1, -1, -1, 4, 2, 1)
    assert.equal(8, #w:query(box))
    local bytes = w:stats().bytes
    for _ = 1, 1000 do assert.equal(8, #w:query(box)) end
    assert.equal(bytes, w:stats().bytes)
  end)

  -- An entity that keeps changing cells re-lists itself in the lists of cells it
  -- left, which keep their arrays (broadphase.c), so the memory stays the same
  -- however long it moves. The first round builds the grid (at its query), the
  -- second lists the entity in both cells.
  it("holds no more memory while an entity moves back and forth between cells", function()
    local w = bp.World()
    local e = w:spawn{ x = 1, y = 0.5, z = 1, width = 0.5, height = 0.5, rules = STILL }
    local function pingpong(n)
      for _ = 1, n do
        e:move(2, 0, 0); e:move(-2, 0, 0)
      end
      assert.same({ e }, w:query(bp.Collider(0, 0, 0, 2, 2, 2)))
      assert.same({}, w:query(bp.Collider(2, 0, 0, 4, 2, 2)))
    end
    pingpong(4)
    pingpong(4)
    local bytes = w:stats().bytes
    pingpong(1000)
    assert.equal(bytes, w:stats().bytes)
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

describe("world:boxes_in under finalizers", function()
  it("returns its own boxes when a finalizer queries the same world meanwhile", function()
    -- Its Colliders are allocated after the gather; a collector step then may run a
    -- finalizer whose own boxes_in refills the world's scratch list.
    local w = bp.World()
    w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
    w:fill(-20, 0, -20, 20, 3, 20, "slab")
    local fired, wrong = 0, {}
    C.gc_incremental(0, 1000) -- a collector step on nearly every allocation
    for iter = 1, 20 do
      for _ = 1, 200 do
        C.finalizer(function()
          fired = fired + 1
          w:boxes_in(bp.Collider(0, 0, 0, 1, 1, 1))
        end)
      end
      local t = w:boxes_in(bp.Collider(-5, 0, -5, 5, 4, 5))
      local x1, _, _, x2 = (t[#t] or bp.Collider(0, 0, 0, 0, 0, 0)):unpack()
      if #t ~= 400 or x1 < -5 or x2 > 5 then wrong[#wrong + 1] = iter end
    end
    C.gc_defaults()
    collectgarbage()
    assert.is_true(fired > 0)
    assert.same({}, wrong)
  end)
end)

describe("ray and sweep results under finalizers", function()
  -- The hit is found first, then its result table is allocated; a collector step then
  -- may run a finalizer that removes what was hit and gives its slot to a new one. The
  -- result must still name what was hit.
  local armed, action = false, nil
  local function fire() if armed then armed = false; action() end end

  -- Runs query() with finalizers pending until one fires during it after the query found
  -- its target (found(results): a finalizer that fired earlier, as Lua 5.1's collector
  -- may have it, removed the target before it was met: another try); returns its
  -- results, or nil when none did (where the collector's timing differs, as under
  -- valgrind, the caller then marks the test pending).
  local function during_finalizer(setup, query, found)
    -- A full cycle first: the suite's earlier garbage would otherwise make each cycle
    -- too long for a finalizer to come due within the loop.
    collectgarbage()
    -- Two step sizes, and a pseudo-random amount of garbage per iteration (a periodic
    -- one can keep meeting the collector in the same phases), so that the query meets
    -- the collector in every phase; a collector step on nearly every allocation.
    local seed = 12345
    for _, stepmul in ipairs{ 1000, 300 } do
      C.gc_incremental(0, stepmul)
      for _ = 1, 20000 do
        action = setup()
        seed = (C.mul32(seed, 1103515245) + 12345) % 2147483648
        for _ = 1, 1 + seed % 37 do C.finalizer(fire) end
        for _ = 1, math.floor(seed / 37) % 11 do local _ = { seed } end
        armed = true
        local r1, r2, r3, r4, r5 = query() -- into locals: nothing allocated after the call
        local fired = not armed
        armed = false
        if fired and found(r1, r2, r3, r4, r5) then
          C.gc_defaults()
          return r1, r2, r3, r4, r5
        end
      end
    end
    C.gc_defaults()
    return nil
  end

  it("raycast_entities reports the entity it hit, even once removed", function()
    local w, a
    local hit = during_finalizer(function()
      w = bp.World()
      a = w:spawn{ x = 5.5, y = 0, z = 0.5 }
      return function() w:remove(a); w:spawn{ x = 100, y = 50, z = 100 } end
    end, function() return w:raycast_entities(0, 0.5, 0.5, 1, 0, 0, 50) end,
    function(h) return h ~= nil end)
    if hit == nil then return pending("no finalizer ran during the query here") end
    assert.is_true(rawequal(a, hit.entity))
    assert.is_false(a:valid())
  end)

  it("raycast and sweep report the collider they hit, not its slot's next one", function()
    local w, handle
    local setup = function()
      w = bp.World()
      handle = w:add_collider(bp.Collider(5, 0, 0, 6, 1, 1))
      return function()
        w:remove_collider(handle)
        w:add_collider(bp.Collider(100, 100, 100, 101, 101, 101))
      end
    end
    local hit = during_finalizer(setup, function() return w:raycast(0, 0.5, 0.5, 1, 0, 0, 50) end,
      function(h) return h ~= nil end)
    local ray_handle = handle -- each world's handles differ (they carry its tag)
    local box = bp.Collider(0, 0, 0, 1, 1, 1) -- made before: its allocation could run the finalizer
    local t, _, _, _, met = during_finalizer(setup, function() return w:sweep(box, 10, 0, 0) end,
      function(_, _, _, _, m) return m ~= nil end)
    if hit == nil or t == nil then return pending("no finalizer ran during the query here") end
    assert.equal(ray_handle, hit.handle)
    assert.equal(5, hit.distance)
    assert.equal(0.4, t)
    assert.equal(handle, met.handle)
  end)
end)
