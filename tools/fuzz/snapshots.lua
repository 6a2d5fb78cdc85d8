--- The attack suite's snapshot group (issue 34): hostile bytes for bp.decode_snapshot
-- and world:import. Truncation at every offset and changed bytes must give nil and a
-- message (the checksum); changed bytes resealed with a valid length and checksum
-- (world:_reseal) reach the decoder's own checks, and must give nil and a message or a
-- snapshot that restores into a fresh world, steps, hashes and encodes with finite
-- results; huge counts must not allocate beyond the documented bound (about 215 times
-- the input plus 64 KB). Portable: runs under every interpreter.
--
-- Source: our own.

local bp = require "blockphys"
local H = require "harness"

local check, is_message = H.check, H.is_message
local huge = math.huge

local function finite(v) return v == v and v > -huge and v < huge end

-- A deterministic PRNG (Park-Miller): the same cases on every Lua.
local function rng(seed)
  return function(n)
    seed = (seed * 16807) % 2147483647
    return seed % n
  end
end

-- A small world with every section filled: types, chunks with arrays, colliders (one
-- removed), entities of both models (one removed: a free slot), a trigger and a
-- sensor with overlaps, pending events; streaming (unset space unloaded, an unloaded
-- chunk, a frozen entity), a one-way collider, an outline shape, separation settings.
-- `arrays` false: only uniform chunks (no 8 KB id array), so that random changes hit
-- the structure rather than block ids.
local function scene(arrays)
  local w = bp.World()
  w:define_block{ name = "stone" }
  w:define_block{ name = "slab", boxes = { { 0, 0, 0, 1, 0.5, 1 } } }
  w:define_block{ name = "water", boxes = {}, liquid = "water" }
  w:define_block{ name = "plank", one_way = "up", outline = { { 0, 0, 0, 1, 0.5, 1 } } }
  w:fill(-16, -16, -16, 15, 0, 15, "stone")
  w:fill(-16, 1, -16, 15, 15, 15, "water")
  w:fill(-16, 1, -16, 15, 15, 15, "air") -- uniform chunks of air, kept
  if arrays then
    w:set_block(1, 1, 1, "slab")
    w:set_block(-2, 1, -2, "water")
  end
  local gone = w:add_collider(bp.Collider(3, 1, 3, 4, 2, 4))
  w:add_collider(bp.Collider(-4, 1, 3, -3, 2, 4))
  w:add_collider(bp.Collider(5, 1, 5, 7, 1.1, 7), { one_way = "up" })
  w.unset = "unloaded"
  w:unload_chunk(-1, 1, -1)
  w:spawn{ x = 15.5, y = 1, z = 0.5 } -- touches unset space at x 16: frozen
  w:remove_collider(gone)
  w:add_trigger(bp.Collider(-1, 1, -1, 1, 3, 1), "t")
  local a = w:spawn{ x = 0.5, y = 3, z = 0.5 }
  local b = w:spawn{ x = 2.5, y = 3, z = 0.5,
                     rules = bp.rules.mccpp{ push = "separate", separate_iterations = 3,
                                             separate_tolerance = 0.05 } }
  w:spawn{ x = -0.5, y = 1, z = -0.5, width = 2, height = 2, sensor = true }
  local c = w:spawn{ x = -2.5, y = 1, z = 2.5 }
  w:remove(c)
  a.forward, b.forward = 1, 1
  for _ = 1, 8 do w:step(0.05) end
  return w
end

-- What a decoded snapshot must survive: a restore into a fresh world (or a clean
-- error), steps with finite positions, a hash and an encode.
local function survive(snap)
  local w = bp.World()
  local ok, err = pcall(w.restore, w, snap)
  if not ok then
    check(is_message(err), "restore raised %s", tostring(err))
    return
  end
  for _ = 1, 5 do
    ok, err = pcall(w.step, w, 0.05)
    check(ok or is_message(err), "step raised %s", tostring(err))
  end
  for _, e in ipairs(w:entities()) do
    check(finite(e.x) and finite(e.y) and finite(e.z), "position %s %s %s", e.x, e.y, e.z)
  end
  check(#w:hash() == 16, "hash")
  check(type(snap:encode()) == "string", "encode")
end

-- One changed byte at position i (1-based) of s.
local function change(s, i, byte)
  return s:sub(1, i - 1) .. string.char(byte) .. s:sub(i + 1)
end

local snapshots = {}

function snapshots.cases(mode)
  local full = mode == "full"
  local c = {}
  local function add(name, seconds, mb, run)
    c[#c + 1] = { name = name, seconds = seconds, kb = mb * 1024, run = run }
  end

  add("decode: every truncation gives nil and a message", 60, 64, function()
    local bytes = scene(true):snapshot():encode()
    for n = 0, #bytes - 1, full and 1 or 7 do
      local snap, msg = bp.decode_snapshot(bytes:sub(1, n))
      check(snap == nil and is_message(msg), "length %d decoded", n)
    end
  end)

  add("decode: every changed byte gives nil and a message (checksum)", 120, 64, function()
    local w = scene(true)
    local bytes = w:snapshot():encode()
    local R = rng(11)
    for i = 1, #bytes, full and 1 or 5 do
      local b = bytes:byte(i)
      local snap, msg = bp.decode_snapshot(change(bytes, i, (b + 1 + R(255)) % 256))
      check(snap == nil and is_message(msg), "offset %d decoded", i)
    end
  end)

  add("decode: resealed changes meet the decoder's own checks", 300, 128, function()
    local w = scene()
    local bytes = w:snapshot():encode()
    local R = rng(34)
    local decoded, refused = 0, 0
    for _ = 1, full and 4000 or 400 do
      local bad = bytes
      for _ = 1, 1 + R(3) do
        local i = 17 + R(#bytes - 24) -- inside the body
        bad = change(bad, i, R(256))
      end
      bad = w:_reseal(bad)
      local snap, msg = bp.decode_snapshot(bad)
      if snap then
        decoded = decoded + 1
        survive(snap)
      else
        refused = refused + 1
        check(is_message(msg), "no message")
      end
    end
    check(refused > 0 and decoded > 0, "decoded %d, refused %d", decoded, refused)
    print(("  (resealed: %d decoded, %d refused)"):format(decoded, refused))
  end)

  add("decode: huge counts allocate within the bound", 120, 96, function()
    local w = scene()
    local bytes = w:snapshot():encode()
    for i = 17, #bytes - 12, full and 1 or 3 do
      local bad = bytes:sub(1, i - 1) .. "\255\255\255\127" .. bytes:sub(i + 4)
      collectgarbage()
      local snap, msg = bp.decode_snapshot(w:_reseal(bad))
      if snap then survive(snap) else check(is_message(msg), "no message at %d", i) end
    end
  end)

  add("decode: random bytes of every length", 60, 64, function()
    local R = rng(5)
    local w = bp.World()
    for n = 0, full and 600 or 120 do
      local t = { "BPSN\1\0\0\0" }
      for _ = 9, n do t[#t + 1] = string.char(R(256)) end
      local s = table.concat(t):sub(1, n)
      local snap, msg = bp.decode_snapshot(#s >= 24 and w:_reseal(s) or s)
      if snap then survive(snap) else check(is_message(msg), "no message, length %d", n) end
    end
  end)

  add("import: truncations, changes and resealed changes", 120, 64, function()
    local w = scene()
    local bytes = w:entities()[1]:export()
    local R = rng(77)
    for n = 0, #bytes - 1 do
      local e, msg = w:import(bytes:sub(1, n))
      check(e == nil and is_message(msg), "length %d imported", n)
    end
    local before = #w:entities()
    for _ = 1, full and 3000 or 300 do
      local bad = change(bytes, 17 + R(#bytes - 24), R(256))
      local e, msg = w:import(w:_reseal(bad))
      if e then
        check(finite(e.x) and finite(e.y) and finite(e.z), "imported at %s %s %s", e.x, e.y, e.z)
        local ok, err = pcall(w.step, w, 0.05)
        check(ok or is_message(err), "step raised %s", tostring(err))
        w:remove(e)
      else
        check(is_message(msg), "no message")
      end
    end
    check(#w:entities() == before, "entities left behind")
  end)

  return c
end

return snapshots
