-- world:events(): every landing and hit since the last read, in tick order, never lost
-- however many ticks a frame runs; world:advance's on_tick; latched jump taps.
local bp = require "blockphys"
local H = require "helpers.world"

local function of_type(evs, typ)
  local out = {}
  for _, ev in ipairs(evs) do
    if ev.type == typ then out[#out + 1] = ev end
  end
  return out
end

-- A floor and n hoppers (jump held): each lands about every 12 ticks.
local function hoppers(n)
  local w = H.world()
  H.flat(w, 63)
  local es = {}
  for i = 1, n do
    es[i] = w:spawn{ x = 2 * i - 8.5, y = 64 + 0.37 * i, z = 0.5 }
    es[i].jumping = true
  end
  return w, es
end

describe("world:events()", function()
  it("reports a lasting contact once: a walker pushing into a wall for 3 s", function()
    local w = H.world()
    H.flat(w, 63)
    w:fill(-3, 64, 3, 3, 65, 3, "stone")
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    e.forward = 1
    local hits = {}
    for _ = 1, 60 do
      w:step()
      for _, ev in ipairs(of_type(w:events(), "hit")) do hits[#hits + 1] = ev end
    end
    assert.equal(2, #hits) -- the floor at the first stopped tick, the wall once
    assert.same({ 0, 1, 0, 63 }, { hits[1].nx, hits[1].ny, hits[1].nz, hits[1].y })
    local wall = hits[2]
    assert.same({ "block", 0, 64, 3, 0, 0, -1 },
      { wall.kind, wall.x, wall.y, wall.z, wall.nx, wall.ny, wall.nz })
    assert.equal(e, wall.entity)
    assert.is_true(wall.speed > 0)
  end)

  it("keeps hits at least world.hit_speed fast", function()
    local w = H.world()
    H.flat(w, 63)
    w.hit_speed = 3 -- blocks per second: a Beta walker's floor stop (1.568) is below it
    local e = w:spawn{ x = 0.5, y = 70, z = 0.5 }
    local walker = w:spawn{ x = 5.5, y = 64, z = 5.5 }
    for _ = 1, 40 do w:step() end
    local hits = of_type(w:events(), "hit")
    assert.equal(1, #hits)
    assert.equal(e, hits[1].entity)
    assert.is_true(hits[1].speed >= 3)
    assert.equal(3, w.hit_speed)
    assert.is_true(walker.on_ground)
  end)

  for _, fps in ipairs{ 10, 15, 30 } do
    it(("loses no landing at %d fps, nor in a 0.5 s hitch"):format(fps), function()
      -- the reference: world:step once per tick, landings counted from the fields
      local ref_w, ref_es = hoppers(5)
      local expected = 0
      for _ = 1, 200 do
        ref_w:step()
        for _, e in ipairs(ref_es) do
          if e.landing_fall > 0 then expected = expected + 1 end
        end
      end
      local w = hoppers(5)
      local got, ticks = 0, 0
      while ticks < 200 do
        local dt = ticks == 100 and 0.5 or 1 / fps -- a hitch of ten ticks in the middle
        local n = w:advance(math.min(dt, (200 - ticks) / 20 + 1e-9))
        ticks = ticks + n
        for _, ev in ipairs(w:events()) do
          if ev.type == "land" then got = got + 1 end
        end
      end
      assert.equal(200, ticks)
      assert.is_true(expected > 60)
      assert.equal(expected, got)
    end)
  end

  it("orders events by tick, then entity creation order, and names the tick", function()
    local w, es = hoppers(3)
    for _ = 1, 60 do w:step() end
    local last_tick, last_index = 0, 0
    local index = {}
    for i, e in ipairs(es) do index[e] = i end
    for _, ev in ipairs(w:events()) do
      assert.is_true(ev.tick >= last_tick)
      if ev.tick == last_tick then assert.is_true(index[ev.entity] >= last_index) end
      last_tick, last_index = ev.tick, index[ev.entity]
      assert.is_true(ev.tick >= 1 and ev.tick <= 60)
      if math.type then assert.equal("integer", math.type(ev.tick)) end
    end
    assert.same({}, w:events()) -- read: the queue is empty
  end)

  it("is bounded by world.max_events, counting the rest in world.events_dropped", function()
    local w = hoppers(4)
    assert.equal(65536, w.max_events)
    w.max_events = 3
    for _ = 1, 100 do w:step() end
    assert.equal(3, #w:events())
    assert.is_true(w.events_dropped > 10)
    local dropped = w.events_dropped
    w.max_events = 0
    for _ = 1, 20 do w:step() end
    assert.same({}, w:events())
    assert.is_true(w.events_dropped > dropped)
    assert.has_error(function() w.max_events = -1 end,
      "world field 'max_events' must be an integer in [0, 16777216]")
    assert.has_error(function() w.max_events = 1.5 end)
    assert.has_error(function() w.hit_speed = 0 / 0 end,
      "world field 'hit_speed' must be a finite number >= 0")
    assert.has_error(function() w.hit_speed = -1 end)
    assert.has_error(function() w.events_dropped = 0 end, "world field 'events_dropped' is read-only")
  end)

  it("takes back the events of a failed step", function()
    local w = H.world()
    H.flat(w, 63)
    local e = w:spawn{ x = 0.5, y = 66, z = 0.5 }
    local fail = false
    w:spawn{ x = 5.5, y = 64, z = 5.5, rules = bp.rules.beta173{
      heading = function() if fail then error("no", 0) end return 0, 0 end } }
    repeat w:step() until e.y < 64.5 -- the next step lands
    fail = true
    assert.has_error(function() w:step() end)
    assert.same({}, of_type(w:events(), "land"))
    fail = false
    w:step()
    local lands = of_type(w:events(), "land")
    assert.equal(1, #lands)
    assert.equal(e, lands[1].entity)
  end)

  it("names a removed entity by the userdata the script holds", function()
    local w, es = hoppers(1)
    repeat w:step() until es[1].landing_fall > 0
    local e = es[1]
    w:remove(e)
    local evs = w:events()
    assert.is_true(#evs >= 1)
    assert.equal(e, evs[#evs].entity)
    assert.is_false(evs[#evs].entity:valid())
  end)

  it("reports the ground of a landing on a solid entity as `other`", function()
    local w = H.world()
    H.flat(w, 63)
    local raft = w:spawn{ x = 0, y = 64, z = 0, width = 3, height = 0.5, solid = true }
    local e = w:spawn{ x = 0.5, y = 68, z = 0.5 }
    for _ = 1, 30 do w:step() end
    local lands = of_type(w:events(), "land")
    assert.equal(1, #lands) -- the raft spawned on the floor: no fall, no landing
    assert.same({ raft, "entity", raft }, { lands[1].other, lands[1].kind, (select(2, e:ground())) })
    assert.is_true(lands[1].fall > 3)
  end)
end)

describe("world:advance's on_tick", function()
  it("runs after each tick, outside the lock, with the tick's events readable", function()
    local w = H.world()
    H.flat(w, 63)
    w:spawn{ x = 0.5, y = 66, z = 0.5 }
    local seen, bounced = {}, false
    local n = w:advance(1.0, function(world, tick)
      assert.equal(w, world)
      assert.equal(world.tick, tick)
      seen[#seen + 1] = tick
      for _, ev in ipairs(world:events()) do
        if ev.type == "land" then
          bounced = true
          ev.entity.vy = 0.3 -- a bounce, written between ticks
          world:set_block(3, 64, 3, "stone") -- and the world edited
          world:spawn{ x = 8.5, y = 64, z = 8.5 }
        end
      end
    end)
    assert.equal(10, n)
    assert.same({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, seen)
    assert.is_true(bounced)
    assert.equal("stone", w:get_block(3, 64, 3) and "stone")
    assert.equal(2, #w:entities())
  end)

  it("propagates an error naming the tick, keeping the ticks run", function()
    local w = H.world()
    local ok, err = pcall(w.advance, w, 0.5, function(_, tick)
      if tick == 4 then error("boom", 0) end
    end)
    assert.is_false(ok)
    assert.equal("world:advance: on_tick failed at tick 4: boom", err)
    assert.equal(4, w.tick)
    -- the 6 ticks left of the 0.5 s wait: with 0.3 s more, 12 are due, 10 run
    local n, _, dropped = w:advance(0.3)
    assert.equal(10, n)
    assert.near(0.1, dropped, 1e-12)
    assert.has_error(function() w:advance(0.1, 42) end)
  end)

  it("cannot recurse without bound", function()
    local w = H.world()
    local function again(world) world:advance(0.05, again) end
    local ok, err = pcall(w.advance, w, 0.05, again)
    assert.is_false(ok)
    assert.truthy(err:find("too many nested calls", 1, true), err)
  end)
end)

describe("latched jump input", function()
  for _, fps in ipairs{ 30, 60, 144, 240 } do
    it(("a one-frame tap jumps at %d fps"):format(fps), function()
      local w = H.world()
      H.flat(w, 63)
      local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
      w:advance(0.2) -- on the ground
      w:events()
      local jumps, taps = 0, 0
      for frame = 1, fps * 9 do
        local tap = frame % fps == 1 -- a press one frame long, once a second
        if tap then taps = taps + 1 end
        e:set_input(0, 0, 0, tap, false)
        w:advance(1 / fps)
        for _, ev in ipairs(w:events()) do
          if ev.type == "hit" and ev.ny == 1 and ev.entity == e then jumps = jumps + 1 end
        end
      end
      w:advance(1) -- the last jump lands
      for _, ev in ipairs(w:events()) do
        if ev.type == "hit" and ev.ny == 1 then jumps = jumps + 1 end
      end
      assert.equal(9, taps)
      assert.equal(9, jumps) -- each tap: one jump, one landing
    end)
  end

  it("jumps once per tap, and a held jump as before", function()
    local w = H.world()
    H.flat(w, 63)
    local e = w:spawn{ x = 0.5, y = 64, z = 0.5 }
    w:step()
    w:step()
    e.jumping = true
    e.jumping = false -- released before the tick: still one jump
    w:step()
    assert.near(64 + H.f32(0.42), e.y, 1e-9)
    for _ = 1, 20 do w:step() end
    assert.equal(64, e.y) -- landed and stayed: the latch was used
    w:set_inputs{ 0, 0, 0, true, false }
    w:set_inputs{ 0, 0, 0, false, false }
    w:step()
    assert.near(64 + H.f32(0.42), e.y, 1e-9)
  end)
end)
