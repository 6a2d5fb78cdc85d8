-- Sleeping (csrc/core/sleep.c): an entity whose tick is a fixed point is skipped
-- until something that could change its tick wakes it; results are the same bit for
-- bit with world.sleeping on and off.
local bp = require "blockphys"

-- Deterministic LCG (the same runs on every Lua).
local function lcg(seed)
  return function()
    seed = ((seed * 16838) % 32768 * 65536 + seed * 20077 + 12345) % 2147483648
    return seed / 2147483648
  end
end

local FIELDS = { "x", "y", "z", "vx", "vy", "vz", "on_ground", "fall_distance",
  "landing_fall", "collided_horizontally", "collided_vertically", "y_size",
  "step_offset", "stable", "in_water", "frozen", "ground_vx", "ground_vy", "ground_vz" }

local function floor_world(sleeping)
  local w = bp.World()
  w.sleeping = sleeping
  local stone = w:define_block{ name = "stone" }
  w:fill(-24, 0, -24, 24, 0, 24, stone)
  w:fill(-24, 1, -24, 24, 2, -24, stone)
  w:fill(-24, 1, -24, -24, 2, 24, stone)
  return w, stone
end

local function state(w)
  local t = {}
  for i, e in ipairs(w:entities()) do
    local row = {}
    for _, f in ipairs(FIELDS) do row[#row + 1] = tostring(e[f]) end
    local kind = e:ground()
    row[#row + 1] = tostring(kind)
    row[#row + 1] = tostring(#e:contacts())
    t[i] = table.concat(row, " ")
  end
  return t
end

local function events_text(w)
  local t = {}
  for _, ev in ipairs(w:events()) do
    local e = ev.entity
    t[#t + 1] = ev.type .. " " .. tostring(ev.tick) .. " " ..
      (e and e:valid() and string.format("%.17g", e.x) or "-") .. " " .. tostring(ev.fall)
  end
  return table.concat(t, "|")
end

local RULES = {
  bp.rules.beta173{},
  bp.rules.beta173{ push = false },
  bp.rules.beta173{ push = "separate" },
  bp.rules.mccpp{},
  bp.rules.mccpp{ integrator = "exact" },
  bp.rules.mccpp{ push = "separate", integrator = "exact" },
  bp.rules.mccpp{ integrator = "mccpp" },
  bp.rules.beta173{ depenetrate = true },
}

-- One random run: the same operations on two worlds, one sleeping, one not, compared
-- after every step entity by entity. Returns how many entity-steps slept.
local function run(seed, ticks)
  local a, stone = floor_world(true)
  local b = floor_world(false)
  local water, soul = {}, {}
  for k, w in ipairs{ a, b } do
    water[k] = w:define_block{ name = "water", liquid = "water" }
    soul[k] = w:define_block{ name = "soul_sand", velocity_factor = 0.4,
      boxes = { { 0, 0, 0, 1, 0.875, 1 } } }
    w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } }, one_way = "up" }
  end
  local worlds = { a, b }
  local r = lcg(seed)
  local colliders = { {}, {} }
  local slept = 0
  -- An operation on both worlds: it succeeds or raises the same in each (an edit in
  -- an unloaded chunk raises).
  local function each(fn)
    local ok1, err1 = pcall(fn, a, 1)
    local ok2, err2 = pcall(fn, b, 2)
    assert.are.equal(ok1, ok2)
    assert.are.equal(tostring(err1), tostring(err2))
  end
  local unloaded = {}
  local function spawn()
    local def = {
      x = math.floor(r() * 30 - 15) + 0.5 + (r() < 0.5 and 0 or 0.3),
      y = 1 + math.floor(r() * 3), z = math.floor(r() * 30 - 15) + 0.5,
      rules = RULES[1 + math.floor(r() * #RULES)],
      solid = r() < 0.15,
    }
    if def.solid and r() < 0.5 then def.carry = true end
    each(function(w) w:spawn(def) end)
  end
  for _ = 1, 40 do spawn() end
  -- A hooked entity whose heading hook writes other entities during the step (a
  -- sleeper it writes wakes; one that already ticked must not fall asleep on it).
  for k = 1, 2 do
    local calls = 0
    worlds[k]:spawn{ x = 0.5, y = 1, z = 0.5, rules = bp.rules.beta173{
      heading = function(self)
        calls = calls + 1
        if calls % 7 == 0 then
          local all = self.world:entities()
          local o = all[1 + calls % #all]
          if o ~= self then o.vx = 0.05 end
        end
        return 0, 0
      end } }
  end
  for tick = 1, ticks do
    local op = r()
    local ents = { a:entities(), b:entities() }
    local n = #ents[1]
    local i = 1 + math.floor(r() * n)
    local x, y, z = math.floor(r() * 34 - 17), math.floor(r() * 3), math.floor(r() * 34 - 17)
    if n > 0 then
      -- Edits near an entity most of the time: those are the ones that must wake it.
      if r() < 0.7 then
        local e = ents[1][i]
        x, z = math.floor(e.x + r() * 4 - 2), math.floor(e.z + r() * 4 - 2)
        y = math.floor(e.y - 1 + r() * 3)
      end
    end
    if op < 0.12 then
      local id = r() < 0.5 and 0 or stone
      each(function(w) w:set_block(x, y, z, id) end)
    elseif op < 0.15 then
      local id = r() < 0.6 and 0 or stone
      each(function(w) w:fill(x, y, z, x + 1, y, z + 1, id) end)
    elseif op < 0.2 and n > 0 then
      local f, s = r() < 0.5 and 1 or 0, 0
      local jump = r() < 0.3
      each(function(_, k) ents[k][i]:set_input(f, s, 45, jump) end)
    elseif op < 0.27 and n > 0 then
      each(function(_, k) ents[k][i]:set_input(0, 0, 0, false) end)
    elseif op < 0.3 and n > 0 then
      local tx, tz = math.floor(r() * 30 - 15) + 0.5, math.floor(r() * 30 - 15) + 0.5
      each(function(_, k) ents[k][i]:teleport(tx, 1, tz) end)
    elseif op < 0.33 and n > 0 then
      each(function(_, k)
        local e = ents[k][i]
        if e.rules.model == "beta173" then e:knockback(1, 0.5) else e.vx = 2 end
      end)
    elseif op < 0.35 and n > 0 then
      each(function(_, k) ents[k][i].vy = 0.3 end)
    elseif op < 0.37 and n > 1 then
      each(function(w, k) w:remove(ents[k][i]) end)
    elseif op < 0.4 then
      spawn()
    elseif op < 0.43 then
      each(function(w, k)
        colliders[k][#colliders[k] + 1] = w:add_collider(bp.Collider(x, y + 1, z, x + 1, y + 1.5, z + 1))
      end)
    elseif op < 0.45 and #colliders[1] > 0 then
      local c = #colliders[1]
      each(function(w, k) w:remove_collider(table.remove(colliders[k], c)) end)
    elseif op < 0.48 and n > 0 then
      local solid = r() < 0.5
      each(function(_, k) ents[k][i].solid = solid end)
    elseif op < 0.5 then
      local kind = r()
      each(function(w, k)
        local id = kind < 0.4 and water[k] or kind < 0.7 and soul[k] or "slab"
        w:set_block(x, y, z, id)
      end)
    elseif op < 0.52 and n > 0 then
      local yaw = math.floor(r() * 360)
      each(function(_, k) ents[k][i].yaw = yaw end)
    elseif op < 0.54 and n > 0 then
      local sneak = r() < 0.5
      each(function(_, k) ents[k][i].sneaking = sneak end)
    elseif op < 0.56 and n > 0 then
      local dx = r() - 0.5
      each(function(_, k) ents[k][i]:move(dx, 0, 0) end)
    elseif op < 0.58 and n > 0 then
      local g = r() < 0.5 and 1 or 2
      each(function(_, k) ents[k][i].group = g end)
    elseif op < 0.6 then
      -- The same idle inputs for everyone: no sleeper wakes, results unchanged.
      each(function(w)
        local t = {}
        for _, e in ipairs(w:entities()) do
          t[#t + 1] = e.forward; t[#t + 1] = e.strafe; t[#t + 1] = e.yaw
          t[#t + 1] = false; t[#t + 1] = e.sneaking
        end
        w:set_inputs(t)
      end)
    elseif op < 0.615 then -- stream a chunk out (saved) and, later, back in
      local cx, cz = math.floor(x / 16), math.floor(z / 16)
      local data = a:chunk_data(cx, 0, cz)
      if data then
        unloaded[#unloaded + 1] = { cx, cz, data }
        each(function(w) w:unload_chunk(cx, 0, cz) end)
      end
    elseif op < 0.63 and #unloaded > 0 then
      local u = table.remove(unloaded, 1 + math.floor(r() * #unloaded))
      each(function(w) w:load_chunk(u[1], 0, u[2], u[3]) end)
    elseif op < 0.64 then
      local plain = r() < 0.5
      each(function(w)
        w:add_collider(bp.Collider(x, y + 1, z, x + 2, y + 1.25, z + 2),
          not plain and { one_way = "up" } or nil)
      end)
    end
    -- Moving platforms: every carrier walks back and forth.
    if tick % 20 == 0 then
      local f = (tick % 40 == 0) and 1 or -1
      for k = 1, 2 do
        for _, e in ipairs(worlds[k]:entities()) do
          if e.carry then e:set_input(f, 0, 90, false) end
        end
      end
    end
    local dt = (tick % 97 == 0) and 0.04 or 0.05
    each(function(w) w:step(dt) end)
    local sa, sb = state(a), state(b)
    assert.are.equal(#sb, #sa)
    for j = 1, #sa do
      if sa[j] ~= sb[j] then
        error(("seed %d tick %d entity %d:\n asleep-on  %s\n asleep-off %s"):format(
          seed, tick, j, sa[j], sb[j]))
      end
    end
    assert.are.equal(events_text(b), events_text(a))
    assert.are.equal(b.tick, a.tick)
    for _, e in ipairs(a:entities()) do
      if e.sleeping then slept = slept + 1 end
    end
    for _, e in ipairs(b:entities()) do assert.is_false(e.sleeping) end
  end
  return slept
end

describe("sleeping", function()
  it("gives the same results bit for bit on and off over random runs with edits, pushes, "
    .. "spawns, removals and platforms", function()
    local slept = 0
    -- SLEEP_SEEDS=n runs more seeds (a longer soak than make test's).
    local seeds = tonumber(os.getenv("SLEEP_SEEDS")) or 4
    for seed = 1, seeds do slept = slept + run(seed * 7919, 500) end
    -- The runs do sleep (else the comparison would prove nothing).
    assert.is_true(slept > 2500 * seeds, "entity-steps asleep: " .. slept)
  end)

  it("is on by default; world.sleeping is a boolean and off wakes everyone", function()
    local w = floor_world(true)
    assert.is_true(bp.World().sleeping)
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5 }
    for _ = 1, 5 do w:step() end
    assert.is_true(e.sleeping)
    w.sleeping = false
    assert.is_false(e.sleeping)
    assert.is_false(w.sleeping)
    assert.has_error(function() w.sleeping = 1 end, "world field 'sleeping' must be a boolean")
    assert.has_error(function() e.sleeping = false end, "entity field 'sleeping' is read-only")
  end)

  -- A Beta mob on a floor: the first tick is an air tick, then y stays 1 and vy
  -- settles at (0 - 0.08) x 0.98 = -0.0784 (a float product); after two ticks with
  -- the same state it falls asleep.
  local function resting(rules)
    local w, stone = floor_world(true)
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5, rules = rules }
    for _ = 1, 6 do w:step() end
    return w, e, stone
  end

  it("puts a Beta mob at rest to sleep with its resting velocity", function()
    local _, e = resting()
    assert.is_true(e.sleeping)
    assert.are.equal(1, e.y)
    assert.is_true(math.abs(e.vy + 0.0784) < 1e-7)
    assert.is_true(e.on_ground)
  end)

  -- Only a tick that changes nothing passes: MC-CPP's own integrator alternates
  -- on_ground at rest (a 2-cycle), so it stays awake; the exact one sleeps.
  it("puts MC-CPP's exact integrator at rest to sleep, not MC-CPP's own (a 2-cycle)", function()
    local w, e = resting(bp.rules.mccpp{ integrator = "exact" })
    assert.is_true(e.sleeping)
    local y = e.y
    w.sleeping = false
    w:step()
    assert.are.equal(y, e.y)
    local _, e2 = resting(bp.rules.mccpp{ integrator = "mccpp" })
    assert.is_false(e2.sleeping)
  end)

  it("wakes on writes: inputs, velocity, rules, fields, teleport, knockback, depenetrate", function()
    local writes = {
      function(e) e:set_input(0.5, 0, 0, false) end,
      function(e) e.forward = 1 end,
      function(e) e.jumping = true end,
      function(e) e.sneaking = true end,
      function(e) e.vx = 0 end,
      function(e) e.yaw = 10 end,
      function(e) e.rules = bp.rules.beta173{} end,
      function(e) e.rules.gravity = 0.08 end,
      function(e) e.solid = false end,
      function(e) e.group = 1 end,
      function(e) e:teleport(0.5, 1, 0.5) end,
      function(e) e:knockback(1, 0) end,
      function(e) e:depenetrate() end,
      function(e) e:move(0, 0, 0) end,
      function(e) e.world:set_inputs{ 0, 0, 1, false, false } end,
    }
    for k, write in ipairs(writes) do
      local _, e = resting()
      assert.is_true(e.sleeping, "write " .. k)
      write(e)
      assert.is_false(e.sleeping, "write " .. k)
    end
  end)

  it("stays asleep when a game writes the same idle inputs again", function()
    local w, e = resting()
    e:set_input(0, 0, 0, false, false)
    e.forward = 0
    e.jumping = false
    w:set_inputs{ 0, 0, 0, false, false }
    assert.is_true(e.sleeping)
  end)

  it("wakes on a block edit or a collider change within reach, not on one far away", function()
    local w, e, stone = resting()
    w:set_block(20, 5, 20, stone)
    assert.is_true(e.sleeping)
    w:set_block(2, 1, 0, stone)
    assert.is_false(e.sleeping)
    for _ = 1, 3 do w:step() end
    assert.is_true(e.sleeping)
    w:fill(-2, 3, -2, 2, 3, 2, stone)
    assert.is_false(e.sleeping)
    for _ = 1, 3 do w:step() end
    assert.is_true(e.sleeping)
    local c = w:add_collider(bp.Collider(1, 1, 0, 2, 2, 1))
    assert.is_false(e.sleeping)
    for _ = 1, 3 do w:step() end
    assert.is_true(e.sleeping)
    w:remove_collider(c)
    assert.is_false(e.sleeping)
    for _ = 1, 3 do w:step() end
    w:set_block(0, 0, 0, 0) -- the block under it: it falls
    w:step()
    assert.is_true(e.y < 1)
  end)

  it("wakes on a chunk unload near it and freezes as when awake", function()
    local w, e = resting()
    w:unload_chunk(0, 0, 0)
    assert.is_false(e.sleeping)
    w:step()
    assert.is_true(e.frozen)
  end)

  it("wakes when an awake entity pushes it, and a platform carries it", function()
    local w, e = resting()
    local m = w:spawn{ x = 3.5, y = 1, z = 0.5 }
    for _ = 1, 4 do w:step() end
    assert.is_true(e.sleeping)
    m:set_input(1, 0, 90, false) -- yaw 90: toward -X, onto e
    local woke = false
    for _ = 1, 40 do
      w:step()
      if not e.sleeping and e.x ~= 0.5 then woke = true break end
    end
    assert.is_true(woke)
  end)

  it("wakes on a spawn or a removal near it, not far away", function()
    local w, e = resting(bp.rules.beta173{ push = "beta173" })
    local far = w:spawn{ x = 20.5, y = 1, z = 20.5 }
    w:step()
    assert.is_true(e.sleeping)
    local near = w:spawn{ x = 1.5, y = 1, z = 0.5 }
    w:step()
    assert.is_false(e.sleeping)
    -- (one kept awake by a changing neighbour looks again 7 quiet steps later)
    for _ = 1, 12 do w:step() end
    assert.is_true(e.sleeping and near.sleeping)
    w:remove(far)
    assert.is_true(e.sleeping)
    w:remove(near)
    assert.is_false(e.sleeping)
  end)

  -- (A change of dt wakes every sleeper for that step: the random runs above change
  -- it and compare.)
  it("wakes on a block type defined", function()
    local w, e = resting(bp.rules.mccpp{ integrator = "exact" })
    w:step(0.05)
    assert.is_true(e.sleeping)
    w:define_block{ name = "fence", boxes = { { 0, 0, 0, 1, 1.5, 1 } } }
    assert.is_false(e.sleeping)
  end)

  it("wakes a rider when its platform moves, and a mob a solid entity moves into", function()
    local w, e = resting()
    local plat = w:spawn{ x = 3.5, y = 1, z = 0.5, width = 3, height = 0.5, solid = true,
      carry = true }
    for _ = 1, 4 do w:step() end
    e:teleport(3.5, 1.5, 0.5) -- onto the platform
    for _ = 1, 12 do w:step() end
    assert.is_true(e.sleeping and plat.sleeping) -- a platform at rest sleeps too
    plat:set_input(1, 0, 0, false)
    w:step()
    assert.is_false(e.sleeping)
    assert.are_not.equal(0.5, e.z)
  end)

  it("reports trigger overlaps of a sleeper as when awake", function()
    local w = resting()
    local t = w:add_trigger(bp.Collider(0, 1, 0, 1, 2, 1), "plate")
    local enter = 0
    w:step()
    for _, ev in ipairs(w:events()) do if ev.type == "enter" then enter = enter + 1 end end
    assert.are.equal(1, enter)
    w:remove_trigger(t)
  end)

  it("keeps a separating crowd awake while it overlaps and lets it sleep once apart", function()
    local w = floor_world(true)
    local r = bp.rules.beta173{ push = "separate" }
    local a = w:spawn{ x = 0.5, y = 1, z = 0.5, rules = r }
    local b = w:spawn{ x = 0.7, y = 1, z = 0.5, rules = r }
    w:step()
    assert.is_false(a.sleeping or b.sleeping)
    for _ = 1, 2000 do w:step() end
    assert.is_true(a.sleeping and b.sleeping)
    assert.is_true(b.x - a.x >= 0.6)
  end)

  it("never sleeps an entity with hooks or filters", function()
    local w = floor_world(true)
    local e = w:spawn{ x = 0.5, y = 1, z = 0.5, filter = function() return true end }
    local h = w:spawn{ x = 5.5, y = 1, z = 0.5,
      rules = bp.rules.beta173{ heading = function() return 0, 0 end } }
    for _ = 1, 6 do w:step() end
    assert.is_false(e.sleeping)
    assert.is_false(h.sleeping)
  end)

  it("keeps a latched jump: a tap on a sleeper jumps at its next tick", function()
    local w, e = resting()
    e.jumping = true
    e.jumping = false
    w:step()
    assert.is_true(e.vy > 0)
  end)
end)
