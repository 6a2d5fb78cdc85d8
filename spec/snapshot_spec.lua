-- Snapshots (issue 34): world:snapshot / world:restore put a world back exactly, so that
-- replaying the same inputs gives the uninterrupted run bit for bit, for every feature
-- in use; snapshots encode to bytes that decode in another process; hostile bytes give
-- nil and a message; world:hash tells states apart; e:export / world:import hand an
-- entity to another world.
local bp = require "blockphys"
local H = require "helpers.world"
local C = require "helpers.compat"

local hex = C.hexfloat

-- A scene that uses every feature: both models and both resolvers, pushes, water,
-- a ladder, solid entities, a carrying platform with a rider, a trigger and a sensor
-- (events), latched jumps, a heading hook and a filter.
local function scene(with_hooks)
  local w = H.world()
  H.flat(w, 0, "stone", 12)
  w:fill(3, 1, -2, 5, 1, 2, "water")
  w:fill(-6, 1, 3, -6, 4, 3, "ladder")
  w:fill(-7, 1, 3, -7, 5, 3, "stone")
  w:add_collider(bp.Collider(6, 1, 6, 7, 3, 7))
  w:add_trigger(bp.Collider(-2, 1, -2, 2, 3, 2), "zone")
  local es = {}
  local rules = {}
  if with_hooks then
    rules.heading = function(_, strafe, forward) return strafe * 0.01, forward * 0.012 end
  end
  es[#es + 1] = w:spawn{ x = 0.5, y = 1, z = 0.5 }
  es[#es + 1] = w:spawn{ x = 1.0, y = 1, z = 0.6 } -- pushes the first
  es[#es + 1] = w:spawn{ x = 4.5, y = 2, z = 0.5, rules = bp.rules.mccpp(rules) }
  es[#es + 1] = w:spawn{ x = -5.5, y = 1, z = 3.5, rules = bp.rules.mccpp{ resolver = "swept" } }
  es[#es + 1] = w:spawn{ x = -3.5, y = 1, z = -3.5, width = 0.9, height = 0.9, solid = true }
  local lift = w:spawn{ x = 8, y = 1, z = -6, width = 3, height = 0.5, solid = true, carry = true,
                        rules = bp.rules.beta173{ gravity = 0, push = false } }
  es[#es + 1] = lift
  es[#es + 1] = w:spawn{ x = 8, y = 1.5, z = -6 } -- rides the lift
  es[#es + 1] = w:spawn{ x = -1, y = 1, z = 1, width = 2, height = 2, sensor = true,
                         rules = bp.rules.beta173{ gravity = 0 } }
  if with_hooks then
    es[#es + 1] = w:spawn{ x = 2.5, y = 1, z = 2.5,
                           filter = function(_, other) return not other.solid end }
  end
  return w, es, lift
end

-- Tick t's inputs: deterministic, with jump taps (latched between ticks). Source text,
-- so that a child interpreter runs the same driver.
local DRIVE = [[
  local es, lift, t = ...
  for i, e in ipairs(es) do
    if e ~= lift and not e.sensor then
      e.forward = ((t + i) % 7 < 4) and 1 or -0.5
      e.strafe = (t % 5 == 0) and 1 or 0
      e.yaw = (t * 13 + i * 40) % 360 - 180
      e.sneaking = (t + i) % 11 == 0
      if (t + i) % 9 == 0 then e.jumping = true; e.jumping = false end -- a tap
    end
  end
  lift.vy = (t % 40 < 20) and 0.05 or -0.05
]]
local drive = assert(C.load(DRIVE, "drive", "t", _G))

-- Everything a run shows: every entity's exact state and the events, tick by tick.
local function image(w)
  local out = { "tick " .. w.tick }
  for _, e in ipairs(w:entities()) do
    out[#out + 1] = table.concat({ hex(e.x), hex(e.y), hex(e.z), hex(e.vx), hex(e.vy), hex(e.vz),
      tostring(e.on_ground), tostring(e.in_water), hex(e.fall_distance), hex(e.y_size) }, " ")
  end
  return table.concat(out, "\n")
end

local function events_image(w)
  local out = {}
  for _, ev in ipairs(w:events()) do
    out[#out + 1] = table.concat({ ev.type, ev.tick, tostring(ev.entity and ev.entity:position()),
                                   tostring(ev.tag), tostring(ev.fall) }, ",")
  end
  return table.concat(out, ";")
end

local function run(w, es, lift, from, to, log)
  for t = from, to do
    drive(es, lift, t)
    w:step(0.05)
    if log then log[#log + 1] = image(w) .. "\n" .. events_image(w) end
  end
end

describe("world:snapshot and world:restore", function()
  for _, hooks in ipairs{ false, true } do
    it("replay after a restore equals the uninterrupted run bit for bit" ..
       (hooks and " (hooks and filters)" or ""), function()
      local w, es, lift = scene(hooks)
      run(w, es, lift, 1, 30)
      local snap = w:snapshot()
      local h0 = w:hash()
      local first = {}
      run(w, es, lift, 31, 90, first)
      -- something happened: the sensor and the trigger reported, the lift moved
      assert.is_true(#first[60] > 0)
      w:restore(snap)
      assert.equal(h0, w:hash())
      assert.equal(30, w.tick)
      local again = {}
      run(w, es, lift, 31, 90, again)
      for t = 1, #first do assert.equal(first[t], again[t], "tick " .. (30 + t)) end
    end)
  end

  it("restores into a fresh world, types defined, with the same future", function()
    local w, es, lift = scene(false)
    run(w, es, lift, 1, 25)
    local snap = w:snapshot()
    local log = {}
    run(w, es, lift, 26, 70, log)
    local w2 = bp.World()
    w2:restore(snap)
    assert.equal(snap:hash(), w2:hash())
    assert.equal(w:block_id("ladder"), w2:block_id("ladder"))
    local es2 = w2:entities()
    local lift2 = es2[6]
    assert.is_true(lift2.carry)
    local log2 = {}
    run(w2, es2, lift2, 26, 70, log2)
    for t = 1, #log do assert.equal(log[t], log2[t], "tick " .. (25 + t)) end
  end)

  it("brings back the clock of advance (world.tick, pending time, tick_rate)", function()
    local w = H.world()
    w.tick_rate = 30
    w:advance(0.05) -- one tick and half of one pending
    local snap = w:snapshot()
    local _, alpha = w:advance(0)
    w.tick_rate = 20
    w:advance(1)
    w:restore(snap)
    assert.equal(30, w.tick_rate)
    assert.equal(1, w.tick)
    local _, alpha2 = w:advance(0)
    assert.equal(alpha, alpha2)
  end)

  it("keeps entity userdata valid when their entity is in the snapshot", function()
    local w = H.world()
    H.flat(w, 0)
    local a = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    local b = w:spawn{ x = 3.5, y = 1, z = 0.5 }
    local snap = w:snapshot()
    w:remove(b)
    local c = w:spawn{ x = 5.5, y = 1, z = 0.5 } -- reuses b's slot
    assert.is_false(b:valid())
    w:restore(snap)
    assert.is_true(a:valid())
    assert.is_true(b:valid()) -- back, the same userdata
    assert.is_false(c:valid()) -- not in the snapshot: removed
    local list = w:entities()
    assert.equal(2, #list)
    assert.is_true(rawequal(a, list[1]))
    assert.is_true(rawequal(b, list[2]))
    local ok, err = pcall(function() return c.x end)
    assert.is_false(ok)
    assert.matches("entity has been removed", err)
    -- a spawn after the restore makes c's entity again in the same slot: new userdata
    local d = w:spawn{ x = 5.5, y = 1, z = 0.5 }
    assert.is_true(d:valid())
  end)

  it("restores hooks by reference; a decoded snapshot comes back without them", function()
    local w = H.world()
    H.flat(w, 0)
    local calls = 0
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5,
                       rules = bp.rules.mccpp{ heading = function() calls = calls + 1; return 0, 0 end } }
    local snap = w:snapshot()
    e.rules.heading = nil
    w:step(0.05)
    assert.equal(0, calls)
    w:restore(snap)
    w:step(0.05)
    local n = calls
    assert.is_true(n > 0) -- the hook is back
    w:restore(assert(bp.decode_snapshot(snap:encode())))
    w:step(0.05)
    assert.equal(n, calls) -- the decoded one holds no functions
    assert.is_nil(e.rules.heading)
  end)

  it("brings back triggers, their tags and the pending events", function()
    local w = H.world()
    H.flat(w, 0)
    local t = w:add_trigger(bp.Collider(0, 1, 0, 2, 3, 2), "pad")
    local e = w:spawn{ x = 1, y = 1, z = 1 }
    w:step(0.05) -- enter, pending
    local snap = w:snapshot()
    local first = w:events()
    assert.equal("enter", first[1].type)
    w:remove_trigger(t)
    w:restore(snap)
    local again = w:events()
    assert.equal(1, #again)
    assert.equal("enter", again[1].type)
    assert.equal("pad", again[1].tag)
    assert.equal(t, again[1].trigger)
    assert.is_true(rawequal(e, again[1].entity))
  end)

  it("refuses a world whose block types differ, changing nothing", function()
    local w = H.world()
    local snap = w:snapshot()
    local other = bp.World()
    other:define_block{ name = "dirt" }
    other:spawn{ x = 0, y = 0, z = 0 }
    local h = other:hash()
    assert.has_error(function() other:restore(snap) end,
      "restore: the world's block types differ from the snapshot's")
    assert.equal(h, other:hash())
    assert.has_error(function() w:restore(nil) end)
    assert.has_error(function() w:restore(w) end)
  end)

  it("refuses inside a step", function()
    local w = H.world()
    local snap = w:snapshot()
    local err
    w:spawn{ x = 0, y = 0, z = 0, rules = bp.rules.mccpp{ heading = function()
      local ok, e = pcall(w.restore, w, snap)
      err = not ok and e
      return 0, 0
    end } }
    w:step(0.05)
    assert.matches("restore: world is locked", err)
  end)

  it("shares unchanged chunks: a snapshot copies no block, one edit copies one chunk", function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:define_block{ name = "dirt" }
    for x = 0, 15, 2 do w:fill(x, 0, 0, x, 40, 40, "stone") end -- arrays in every chunk
    local chunks = w:stats().chunks
    assert.equal(9, chunks)
    local before = w:stats().bytes
    local snap = w:snapshot()
    assert.equal(before, w:stats().bytes) -- the world holds the same arrays
    assert.equal(9, snap:shared_chunks()) -- ... which the snapshot shares
    w:set_block(1, 1, 1, "dirt")
    assert.equal(8, snap:shared_chunks()) -- one array copied
    assert.equal(before, w:stats().bytes) -- (the world still holds one array a chunk)
    w:set_block(1, 2, 1, "dirt")
    w:set_block(15, 40, 40, "dirt")
    assert.equal(7, snap:shared_chunks()) -- the first chunk's copy is its own now
    local again = w:snapshot()
    assert.equal(9, again:shared_chunks())
    w:restore(snap)
    assert.equal(9, snap:shared_chunks())
    assert.equal(7, again:shared_chunks()) -- the two edited chunks are again's alone
    assert.equal("stone", w:block_info(w:get_block(0, 1, 1)).name)
    assert.equal(0, w:get_block(1, 1, 1))
    assert.equal(before, w:stats().bytes)
  end)
end)

describe("world:hash", function()
  it("is 16 hex digits, equal for equal states built apart", function()
    local a = scene(false)
    local b = scene(false)
    assert.matches("^%x+$", a:hash())
    assert.equal(16, #a:hash())
    assert.equal(a:hash(), b:hash())
  end)

  it("differs after any one change of state", function()
    local changes = {
      function(_, es) es[1]:teleport(es[1].x + 2 ^ -40, es[1].y, es[1].z) end,
      function(_, es) es[1].vx = 1e-12 end,
      function(_, es) es[2].yaw = 1 end,
      function(_, es) es[2].forward = 0.5 end,
      function(_, es) es[1].jumping = true end,
      function(_, es) es[1].jumping = true; es[1].jumping = false end, -- the latch only
      function(_, es) es[3].rules.gravity = 31 end,
      function(_, es) es[5].solid = false end,
      function(_, es) es[1].fall_distance = 1 end,
      function(w) w:set_block(0, 5, 0, "stone") end,
      function(w) w:set_block(20, 20, 20, "stone") end, -- a new chunk
      function(w) w:add_collider(bp.Collider(0, 5, 0, 1, 6, 1)) end,
      function(w) w:add_trigger(bp.Collider(0, 5, 0, 1, 6, 1)) end,
      function(w) w:spawn{ x = 0, y = 9, z = 0 } end,
      function(w, es) w:remove(es[4]) end,
      function(w) w:step(0.05) end,
      function(w) w:define_block{ name = "new" } end,
      function(w) w.max_events = 10 end,
    }
    local seen = {}
    local w0 = scene(false)
    seen[w0:hash()] = 0
    for i, change in ipairs(changes) do
      local w, es = scene(false)
      change(w, es)
      local h = w:hash()
      assert.is_nil(seen[h], "change " .. i .. " gives the hash of change " .. tostring(seen[h]))
      seen[h] = i
    end
  end)

  it("does not depend on the order chunks were made in", function()
    local a, b = bp.World(), bp.World()
    for _, w in ipairs{ a, b } do w:define_block{ name = "stone" } end
    a:set_block(0, 0, 0, "stone"); a:set_block(100, 0, 0, "stone")
    b:set_block(100, 0, 0, "stone"); b:set_block(0, 0, 0, "stone")
    b:set_block(50, 50, 50, "stone"); b:set_block(50, 50, 50, "air") -- an empty chunk
    assert.equal(a:hash(), b:hash())
  end)
end)

describe("snap:encode and bp.decode_snapshot", function()
  local function small()
    local w = H.world()
    w:fill(-1, 0, -1, 1, 0, 1, "stone")
    w:set_block(0, 1, 0, "water")
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    w:add_collider(bp.Collider(3, 0, 3, 4, 1, 4))
    w:add_trigger(bp.Collider(0, 1, 0, 1, 2, 1), 7)
    e.forward = 1
    w:step(0.05)
    return w
  end

  it("round-trips: the decoded snapshot has the same hash and bytes", function()
    local w = small()
    local bytes = w:snapshot():encode()
    assert.equal("BPSN", bytes:sub(1, 4))
    assert.equal(1, bytes:byte(5)) -- version 1, little-endian
    local snap = assert(bp.decode_snapshot(bytes))
    assert.equal(w:hash(), snap:hash())
    assert.equal(bytes, snap:encode())
  end)

  it("gives nil and a message for every truncation", function()
    local bytes = small():snapshot():encode()
    for n = 0, #bytes - 1 do
      local snap, msg = bp.decode_snapshot(bytes:sub(1, n))
      assert.is_nil(snap)
      assert.equal("decode_snapshot: truncated", msg, "at length " .. n)
    end
    local snap, msg = bp.decode_snapshot(bytes .. "x")
    assert.is_nil(snap)
    assert.matches("^decode_snapshot: ", msg)
  end)

  it("gives nil and a message for a changed byte at every offset and random changes", function()
    local bytes = small():snapshot():encode()
    for i = 1, #bytes do
      local b = bytes:byte(i)
      local bad = bytes:sub(1, i - 1) .. string.char((b + 1) % 256) .. bytes:sub(i + 1)
      local snap, msg = bp.decode_snapshot(bad)
      assert.is_nil(snap, "offset " .. i)
      assert.matches("^decode_snapshot: ", msg)
    end
    H.each_corruption(bytes, 34, 300, function(bad)
      if bad ~= bytes then
        local snap, msg = bp.decode_snapshot(bad)
        assert.is_nil(snap)
        assert.is_string(msg)
      end
    end)
  end)

  it("names an unknown version", function()
    local bytes = small():snapshot():encode()
    local v2 = bytes:sub(1, 4) .. "\2" .. bytes:sub(6)
    assert.same({ nil, "decode_snapshot: unknown snapshot version" }, { bp.decode_snapshot(v2) })
    assert.same({ nil, "decode_snapshot: not a blockphys snapshot" },
                { bp.decode_snapshot(("x"):rep(40)) })
    assert.has_error(function() bp.decode_snapshot({}) end)
  end)

  it("round-trips across processes: a child interpreter replays the same run", function()
    local w, es, lift = scene(false)
    run(w, es, lift, 1, 20)
    local path = os.tmpname()
    local f = assert(io.open(path, "wb"))
    f:write(w:snapshot():encode())
    f:close()
    run(w, es, lift, 21, 60)
    local child = ([[
      package.path = %q; package.cpath = %q
      local bp = require "blockphys"
      local drive = assert((loadstring or load)(%q))
      local f = assert(io.open(%q, "rb")); local bytes = f:read("*a"); f:close()
      local w = bp.World(); w:restore(assert(bp.decode_snapshot(bytes)))
      local es = w:entities()
      for t = 21, 60 do drive(es, es[6], t); w:step(0.05) end
      io.write(w:hash(), " ", string.format("%%.17g", es[1].x))
    ]]):format(package.path, package.cpath, DRIVE, path)
    local src = os.tmpname()
    f = assert(io.open(src, "wb")); f:write(child); f:close()
    local out, how, code = C.run(C.LUA .. " " .. src .. " 2>&1")
    os.remove(src)
    os.remove(path)
    assert.equal("exit", how, out)
    assert.equal(0, code, out)
    assert.equal(w:hash(), out:match("^(%x+) "), out)
    assert.equal(hex(es[1].x), hex(tonumber(out:match(" (%S+)$"))))
  end)
end)

describe("e:export and world:import", function()
  it("moves an entity to another world with its state intact", function()
    local a = H.world()
    H.flat(a, 0)
    local b = H.world()
    H.flat(b, 0)
    local e = a:spawn{ x = 0.5, y = 1, z = 0.5, rules = bp.rules.mccpp{ gravity = 20 } }
    e.forward, e.yaw, e.vx = 1, 30, 2
    e.jumping = true
    a:step(0.05)
    local bytes = e:export()
    local m = assert(b:import(bytes))
    assert.equal(H.hex(e.x), H.hex(m.x))
    assert.equal(H.hex(e.vx), H.hex(m.vx))
    assert.equal(20, m.rules.gravity)
    assert.equal("mccpp", m.rules.model)
    for _ = 1, 20 do a:step(0.05); b:step(0.05) end
    assert.equal(H.hex(e.x), H.hex(m.x))
    assert.equal(H.hex(e.z), H.hex(m.z))
    assert.equal(H.hex(e.vy), H.hex(m.vy))
  end)

  it("places the entity at a new position, moving its box", function()
    local a = H.world()
    local e = a:spawn{ x = 0.5, y = 1, z = 0.5, width = 0.9, height = 1.2 }
    e.vx = 0.25
    local m = assert(a:import(e:export(), 10, 20, 30))
    local x, y, z = m:position()
    assert.same({ 10, 20, 30 }, { x, y, z })
    assert.equal(0.25, m.vx)
    local ref = a:spawn{ x = 10, y = 20, z = 30, width = 0.9, height = 1.2 }:box()
    local box = m:box()
    for _, k in ipairs{ "x1", "y1", "z1", "x2", "y2", "z2" } do
      assert.equal(H.hex(ref[k]), H.hex(box[k]))
    end
    assert.is_false(rawequal(e, m))
  end)

  it("gives nil and a message for bad bytes at every truncation and change", function()
    local w = H.world()
    local bytes = w:spawn{ x = 0, y = 0, z = 0 }:export()
    for n = 0, #bytes - 1 do
      local e, msg = w:import(bytes:sub(1, n))
      assert.is_nil(e)
      assert.matches("^import: ", msg)
    end
    for i = 1, #bytes do
      local bad = bytes:sub(1, i - 1) .. string.char((bytes:byte(i) + 1) % 256) .. bytes:sub(i + 1)
      assert.is_nil((w:import(bad)))
    end
    assert.equal(1, #w:entities())
    assert.same({ nil, "import: position or size out of range" },
                { w:import(bytes, 0, 3e9, 0) })
    assert.has_error(function() w:import(bytes, 0 / 0, 0, 0) end)
  end)
end)

describe("world:snapshot(into)", function()
  it("takes the state into an older snapshot, reusing it", function()
    local w, es, lift = scene(false)
    local ring = { w:snapshot(), w:snapshot() }
    run(w, es, lift, 1, 10)
    local h10 = w:hash()
    local same = w:snapshot(ring[1])
    assert.is_true(rawequal(same, ring[1]))
    assert.equal(h10, ring[1]:hash())
    assert.equal(10, ring[1]:tick())
    run(w, es, lift, 11, 20)
    w:restore(ring[1])
    assert.equal(h10, w:hash())
    local other = bp.World()
    other:snapshot(ring[2]) -- another world's state, into the same object
    assert.equal(other:hash(), ring[2]:hash())
  end)
end)

-- The features that came with or after snapshots, all in one run: streamed chunks with
-- unset space unloaded (an entity walks into it and freezes, a chunk loads and frees
-- it, another unloads under a resting crowd), sleeping on, a one-way platform jumped
-- through and dropped through sneaking, a one-way collider, and separation with its
-- own iterations and tolerance.
describe("snapshots of streamed, sleeping, one-way and separating worlds", function()
  local function chunk_bytes(f)
    local t = {}
    for i = 0, 4095 do
      local x, z, y = i % 16, math.floor(i / 16) % 16, math.floor(i / 256)
      local id = f(x, y, z)
      t[i + 1] = string.char(id % 256, math.floor(id / 256))
    end
    return table.concat(t)
  end

  local function streamed_scene(w)
    w = w or bp.World()
    w.sleeping = true
    w.unset = "unloaded"
    local stone = w:define_block{ name = "stone" }
    local plat = w:define_block{ name = "plat", boxes = { { 0, 0, 0, 1, 1 / 16, 1 } },
                                 outline = { { 0, 0, 0, 1, 0.25, 1 } }, one_way = "up" }
    -- chunks x -1..1, z -1..0 at y 0: a floor, the platform at y 1 in chunk (0, 0, 0)
    for cx = -1, 1 do
      for cz = -1, 0 do
        w:load_chunk(cx, 0, cz, chunk_bytes(function(x, y, z)
          if y == 0 then return stone end
          if cx == 0 and cz == 0 and y == 1 and x >= 2 and x <= 5 and z >= 2 and z <= 5 then
            return plat
          end
          return 0
        end))
      end
    end
    w:add_collider(bp.Collider(8, 2, 8, 11, 2.1, 11), { one_way = "up" })
    local sep = { push = "separate", separate_iterations = 3, separate_tolerance = 0.02,
                  drop_through_sneaking = true }
    local es = {}
    es[#es + 1] = w:spawn{ x = 45.5, y = 1, z = 4.5 }  -- walks +X into chunk 3 (unloaded)
    es[#es + 1] = w:spawn{ x = 3.5, y = 1, z = 3.5, rules = bp.rules.beta173(sep) } -- jumps through
    es[#es + 1] = w:spawn{ x = 9.5, y = 1, z = 9.5, rules = bp.rules.beta173(sep) } -- under the collider
    for i = 0, 3 do -- a crowd that separates, then rests (and sleeps)
      es[#es + 1] = w:spawn{ x = 12 + i * 0.2, y = 1, z = -6 + i * 0.1,
                             rules = bp.rules.beta173(sep) }
    end
    for i = 0, 2 do -- idle mobs in chunk (-1, 0, -1): asleep, then frozen by an unload
      es[#es + 1] = w:spawn{ x = -8.5 + i * 2, y = 1, z = -8.5 }
    end
    return w, es
  end

  local STREAM_DRIVE = function(w, es, t)
    local walker, jumper, under = es[1], es[2], es[3]
    walker.forward, walker.yaw = 1, -90
    jumper.jumping = t % 14 < 2 and t < 60
    jumper.sneaking = t >= 70 and t < 74
    under.jumping = t % 10 == 0
    local stone = w:block_id("stone")
    local function floor(_, y) return y == 0 and stone or 0 end
    if t == 60 then w:load_chunk(3, 0, 0, chunk_bytes(floor)) end
    if t == 75 then w:unload_chunk(-1, 0, -1) end
    if t == 90 then w:load_chunk(-1, 0, -1, chunk_bytes(floor)) end
  end

  local function stream_image(w)
    local out = { "tick " .. w.tick }
    for _, e in ipairs(w:entities()) do
      out[#out + 1] = table.concat({ hex(e.x), hex(e.y), hex(e.z), hex(e.vx), hex(e.vy), hex(e.vz),
        tostring(e.on_ground), tostring(e.frozen), hex(e.fall_distance) }, " ")
    end
    return table.concat(out, "\n") .. "\n" .. events_image(w) .. "\n" .. w:hash()
  end

  local function stream_run(w, es, from, to, log, seen)
    for t = from, to do
      STREAM_DRIVE(w, es, t)
      w:step(0.05)
      if log then log[#log + 1] = stream_image(w) end
      if seen then
        for _, e in ipairs(es) do
          if e.frozen then seen.frozen = true end
          if e.sleeping then seen.sleeping = true end
        end
        if es[2].y > 1 and es[2].on_ground then seen.on_platform = true end
      end
    end
  end

  it("replays bit for bit after a restore, in the same world and in a fresh one", function()
    local w, es = streamed_scene()
    stream_run(w, es, 1, 30)
    local snap = w:snapshot()
    local h0 = w:hash()
    local bytes = snap:encode()
    local first, seen = {}, {}
    stream_run(w, es, 31, 110, first, seen)
    -- the run used what it is meant to test
    assert.same({ frozen = true, sleeping = true, on_platform = true }, seen)
    w:restore(snap)
    assert.equal(h0, w:hash())
    local again = {}
    stream_run(w, es, 31, 110, again)
    for t = 1, #first do assert.equal(first[t], again[t], "tick " .. (30 + t)) end
    -- decoded, into a fresh world
    local w2 = bp.World()
    w2:restore(assert(bp.decode_snapshot(bytes)))
    assert.equal(h0, w2:hash())
    assert.equal("unloaded", w2.unset)
    local fresh = {}
    stream_run(w2, w2:entities(), 31, 110, fresh)
    for t = 1, #first do assert.equal(first[t], fresh[t], "fresh world, tick " .. (30 + t)) end
  end)

  it("restores the frozen flags and unloaded space, and wakes every sleeper", function()
    local w, es = streamed_scene()
    stream_run(w, es, 1, 80)
    assert.is_true(es[8].frozen)
    local snap = w:snapshot()
    local h = w:hash()
    stream_run(w, es, 81, 100)
    assert.is_false(es[8].frozen)
    w:restore(snap)
    assert.equal(h, w:hash())
    assert.is_true(es[8].frozen)
    assert.is_nil(w:chunk_data(-1, 0, -1))
    for _, e in ipairs(w:entities()) do assert.is_false(e.sleeping) end
    -- through the bytes, into a fresh world: the flags as they were, before any step
    local w2 = bp.World()
    w2:restore(assert(bp.decode_snapshot(snap:encode())))
    local frozen, want = {}, {}
    for i, e in ipairs(w2:entities()) do frozen[i] = e.frozen end
    for i, e in ipairs(w:entities()) do want[i] = e.frozen end
    assert.same(want, frozen)
    assert.is_false(frozen[2])
    assert.is_nil(w2:chunk_data(-1, 0, -1))
    assert.is_nil(w2:chunk_data(7, 0, 7)) -- unset space: unloaded there too
  end)

  it("hashes apart states that differ in one of the new fields", function()
    local changes = {
      function(w) w.unset = "air" end,
      function(w) w:unload_chunk(1, 0, 0) end,
      function(w) w:load_chunk(5, 0, 5, chunk_bytes(function() return 0 end)) end, -- loaded air
      function(_, es) es[2].rules.separate_iterations = 4 end,
      function(_, es) es[2].rules.separate_tolerance = 0.03 end,
      function(_, es) es[2].rules.drop_through_sneaking = false end,
      function(w) w:add_collider(bp.Collider(0, 5, 0, 1, 6, 1)) end,
      function(w) w:add_collider(bp.Collider(0, 5, 0, 1, 6, 1), { one_way = "up" }) end,
      function(w) w:add_collider(bp.Collider(0, 5, 0, 1, 6, 1), { one_way = "down" }) end,
      function(w) w:define_block{ name = "new" } end,
      function(w) w:define_block{ name = "new", one_way = "up" } end,
      function(w) w:define_block{ name = "new", outline = { { 0, 0, 0, 1, 0.5, 1 } } } end,
    }
    local seen = {}
    local w0, es0 = streamed_scene()
    stream_run(w0, es0, 1, 5)
    seen[w0:hash()] = 0
    for i, change in ipairs(changes) do
      local w, es = streamed_scene()
      stream_run(w, es, 1, 5)
      change(w, es)
      local h = w:hash()
      assert.is_nil(seen[h], "change " .. i .. " gives the hash of change " .. tostring(seen[h]))
      seen[h] = i
    end
  end)

  it("hashes a sleeping world as the same world awake, tick by tick", function()
    local a, ea = streamed_scene()
    local b, eb = streamed_scene()
    b.sleeping = false
    local asleep = 0
    for t = 1, 100 do
      STREAM_DRIVE(a, ea, t); STREAM_DRIVE(b, eb, t)
      a:step(0.05); b:step(0.05)
      assert.equal(a:hash(), b:hash(), "tick " .. t)
      for _, e in ipairs(ea) do asleep = asleep + (e.sleeping and 1 or 0) end
    end
    assert.is_true(asleep > 100)
  end)

  it("refuses a snapshot taken before the world defined its unloaded type", function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:set_block(0, 0, 0, "stone")
    local snap = w:snapshot()
    local h = w:hash()
    w:unload_chunk(4, 0, 4) -- defines the unloaded type
    assert.error_matches(function() w:restore(snap) end,
                         "restore: the world has block types the snapshot does not")
    w.unset = "unloaded"
    assert.is_true(w:hash() ~= h)
    local w2 = bp.World() -- a fresh world takes it
    w2:restore(snap)
    assert.equal(h, w2:hash())
    assert.equal("air", w2.unset)
  end)

  it("keeps world.sleeping as the world had it (a setting, not state)", function()
    local w, es = streamed_scene()
    stream_run(w, es, 1, 20)
    local snap = w:snapshot()
    w.sleeping = false
    w:restore(snap)
    assert.is_false(w.sleeping)
    local w2 = bp.World()
    w2.sleeping = false
    w2:restore(snap)
    assert.is_false(w2.sleeping)
  end)
end)

describe("a snapshot image's entity order", function()
  -- Little-endian uint32, without string.pack (Lua 5.1 and LuaJIT).
  local function le(v)
    return string.char(v % 256, math.floor(v / 256) % 256, math.floor(v / 65536) % 256,
                       math.floor(v / 16777216) % 256)
  end

  it("is refused when it is not the creation order (serials must rise)", function()
    local w = bp.World()
    local stone = w:define_block{ name = "stone" }
    w:fill(-8, 63, -8, 8, 63, 8, stone)
    for i = 1, 3 do
      w:spawn{ x = i * 0.3, y = 64, z = 0, rules = bp.rules.beta173{ push = "separate" } }
    end
    local bytes = w:snapshot():encode()
    -- the order section: 3 live, 0 free, slots 0, 1, 2
    local pat = le(3) .. le(0) .. le(0) .. le(1) .. le(2)
    local at = bytes:find(pat, 1, true)
    assert.is_truthy(at)
    assert.is_nil(bytes:find(pat, at + 1, true))
    local function with_order(a, b, c)
      return w:_reseal(bytes:sub(1, at - 1) .. le(3) .. le(0) .. le(a) .. le(b) .. le(c)
                       .. bytes:sub(at + #pat))
    end
    assert.is_truthy(bp.decode_snapshot(with_order(0, 1, 2))) -- the same bytes, resealed
    for _, o in ipairs{ { 2, 1, 0 }, { 0, 2, 1 }, { 1, 0, 2 } } do
      local snap, why = bp.decode_snapshot(with_order(o[1], o[2], o[3]))
      assert.is_nil(snap)
      assert.equal("decode_snapshot: corrupted: the entity order or free list", why)
    end
    w:destroy()
  end)
end)
