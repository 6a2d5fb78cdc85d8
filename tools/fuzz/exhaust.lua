--- The attack suite's exhaustion: many worlds, entities and colliders, fills and
-- queries at and just past their limits (bp.limits). A call past a limit must raise a
-- string and change nothing; a call at the limit must finish within the case's time
-- and memory; what is dropped must be given back.
--
-- Source: our own.

local bp = require "blockphys"
local H = require "harness"

local check, is_message = H.check, H.is_message
local L = bp.limits

local exhaust = {}

local function same(a, b)
  for k, v in pairs(a) do
    if k ~= "bytes" and b[k] ~= v then return false end
  end
  return true
end

-- pcall(f, ...) must raise a string and leave the world w's stats as they were.
local function refused(w, f, ...)
  local before = w:stats()
  local ok, err = pcall(f, ...)
  check(not ok, "a call past a limit returned")
  check(is_message(err), "raised a %s", type(err))
  check(same(before, w:stats()), "raised (%s) and changed the world", err)
  return err
end

function exhaust.cases(mode)
  local full = mode == "full"
  local c = {}
  local function add(name, seconds, mb, run)
    c[#c + 1] = { name = name, seconds = seconds, kb = mb * 1024, run = run }
  end

  local nworlds = full and 20000 or 2000
  add(nworlds .. " worlds made and dropped", full and 20 or 4, 256, function()
    for i = 1, nworlds do
      local w = bp.World()
      w:define_block{ name = "stone" }
      w:set_block(i, 0, 0, "stone")
      w:spawn{ x = 0, y = 1, z = 0 }
      if i % 2 == 0 then w:destroy() end
    end
  end)

  local nents = full and 100000 or 10000
  add(nents .. " entities: spawn, step, query, remove", full and 60 or 8, full and 512 or 96, function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:fill(-200, -1, -200, 200, -1, 200, "stone")
    local ents = {}
    for i = 1, nents do ents[i] = w:spawn{ x = (i % 400) - 200 + 0.5, y = 0, z = (i - i % 400) / 400 - 120 } end
    w:step()
    local hits = w:query(bp.Collider(-300, -5, -300, 300, 5, 300))
    check(#hits == nents, "query found %d of %d", #hits, nents)
    for i = 1, nents do w:remove(ents[i]) end
    check(w:stats().entities == 0, "entities left")
    w:destroy()
  end)

  local crowd = full and 2000 or 300
  add(crowd .. " entities in one cell, stepped", full and 60 or 6, 128, function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    w:fill(-2, -1, -2, 2, -1, 2, "stone")
    for _ = 1, crowd do w:spawn{ x = 0.5, y = 0, z = 0.5 } end
    for _ = 1, 3 do w:step() end
    w:destroy()
  end)

  local ncol = full and 200000 or 20000
  add(ncol .. " colliders: add, boxes_in, remove", full and 30 or 4, full and 512 or 96, function()
    local w = bp.World()
    local hs = {}
    for i = 1, ncol do hs[i] = w:add_collider(bp.Collider(i, 0, 0, i + 0.5, 1, 1)) end
    local boxes = w:boxes_in(bp.Collider(0, 0, 0, ncol + 1, 1, 1))
    check(#boxes == ncol, "boxes_in found %d of %d", #boxes, ncol)
    for i = 1, ncol do w:remove_collider(hs[i]) end
    check(w:stats().colliders == 0, "colliders left")
    w:destroy()
  end)

  add("fills at and past their limits", full and 60 or 10, full and 1200 or 400, function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    -- whole chunks: exactly max_fill_chunks, then one more row
    local side = 16 * 1024 -- 1024 x 1024 chunks, one chunk high
    w:fill(0, 0, 0, side - 1, 15, side - 1, "stone")
    check(w:stats().chunks == L.max_fill_chunks, "%d chunks", w:stats().chunks)
    refused(w, w.fill, w, 0, 16, 0, side - 1, 31, side + 15, "stone")
    -- chunks cut in part: at most max_fill_cut_chunks; full mode fills them all
    local cut = full and L.max_fill_cut_chunks or 4096
    w:fill(0, 100, 0, 16 * cut - 1, 100, 0, "stone")
    refused(w, w.fill, w, 0, 200, 0, 16 * L.max_fill_cut_chunks, 200, 0, "stone")
    w:destroy()
  end)

  add("queries at and past their limits", full and 60 or 10, full and 800 or 300, function()
    local w = bp.World()
    w:define_block{ name = "stone" }
    -- max_query_cells cells of stone: 256 x 256 x 256 = 16,777,216
    w:fill(0, 0, 0, 255, 255, 255, "stone")
    local n = 256
    local err = refused(w, w.boxes_in, w, bp.Collider(0, 0, 0, n, n, n + 1))
    check(err:find("boxes_in"), "message: %s", err)
    if full then
      local boxes = w:boxes_in(bp.Collider(0, 0, 0, 128, 128, 64)) -- 1,048,576 boxes: max_query_boxes
      check(#boxes == L.max_query_boxes, "%d boxes", #boxes)
    end
    local hit = w:raycast(-L.max_ray + 1, 10.5, 10.5, 1, 0, 0, L.max_ray)
    check(hit and hit.x == 0, "raycast: %s", tostring(hit and hit.x))
    refused(w, w.raycast, w, 0, 0, 0, 1, 0, 0, L.max_ray * 2)
    local e = w:spawn{ x = -2000, y = 300, z = 0.5 }
    local dx = e:move(L.max_move, 0, 0)
    check(dx == L.max_move, "moved %s", tostring(dx))
    refused(w, e.move, e, L.max_move + 1, 0, 0)
    w:destroy()
  end)
  -- paste of hand-built tables whose palettes hostile files could also hold: 256
  -- states of which 128 are air, all used, and 65,536 states of which 300 are used
  local ncells = full and 16 * 1048576 or 1048576
  add(ncells .. " one-byte cells of 128 air and 128 block states", full and 90 or 10, full and 1200 or 200,
    function()
      local pal, bytes = {}, {}
      for v = 0, 255 do
        pal[v + 1] = v % 2 == 0 and "minecraft:air[v=" .. v .. "]" or "minecraft:s" .. v
        bytes[v + 1] = string.char(v)
      end
      local blocks = table.concat(bytes):rep(math.floor(ncells / 256))
      local s = { width = 4096, height = math.floor(ncells / 65536), length = 16, cell_bytes = 1, palette = pal,
                  blocks = blocks }
      local w = bp.World()
      local r = w:paste(s, 0, 0, 0)
      check(r.placed * 2 == ncells and w:stats().blocks == r.placed, "placed %d", r.placed)
      check(w:stats().block_types == 129, "%d types", w:stats().block_types)
      w:destroy()
    end)
  add(ncells .. " two-byte cells using 300 of 65536 states", full and 90 or 10, full and 1200 or 200, function()
    local pal = {}
    for v = 1, 65536 do pal[v] = "minecraft:s" .. v end
    local cells = {}
    for v = 0, 299 do cells[#cells + 1] = string.pack(">I2", v * 200) end
    local blocks = table.concat(cells):rep(math.floor(ncells / 300) + 1):sub(1, 2 * ncells)
    local s = { width = 4096, height = math.floor(ncells / 65536), length = 16, cell_bytes = 2, palette = pal,
                blocks = blocks }
    local w = bp.World()
    local r = w:paste(s, 0, 0, 0)
    check(r.placed == ncells and w:stats().block_types == 301, "placed %d, %d types", r.placed,
      w:stats().block_types)
    w:destroy()
  end)
  return c
end

return exhaust
